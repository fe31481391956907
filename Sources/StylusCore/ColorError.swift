// SPDX-License-Identifier: MIT
/// What is wrong with a colour's text.
public struct ColorError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
