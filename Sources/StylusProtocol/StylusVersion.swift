// SPDX-License-Identifier: MIT
/// The one version string of stylusd, stylusctl and the `hello` event.
public enum StylusVersion {
    public static let current = "0.1.0"
}
