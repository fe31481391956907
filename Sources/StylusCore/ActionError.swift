// SPDX-License-Identifier: MIT
/// What is wrong with an action's text.
public struct ActionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
