// SPDX-License-Identifier: MIT
public enum CommandOutcome: Equatable, Sendable {
    case done
    /// Nothing to do; the state already is what was asked for.
    case unchanged(reason: String)
    case refused(reason: String)
}
