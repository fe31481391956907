// SPDX-License-Identifier: MIT
public import StylusProtocol

/// Why a request or a connection failed; `message` is what a user reads.
public struct StylusClientError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No socket path, nothing listening, or the connection was lost.
        case notRunning
        /// The daemon refused this connection (another user, too many clients).
        case connectionRefused
        /// The daemon's answer made no sense.
        case protocolViolation
        /// The daemon answered the command with an error.
        case commandFailed(ProtocolError.Code)
        /// The subscription was cancelled while waiting.
        case cancelled
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The daemon's error as stylusctl prints it: a refusal as its reason, any other code named.
    init(_ error: ProtocolError) {
        self.init(.commandFailed(error.code), error.code == .refused ? error.message : "\(error.code.rawValue): \(error.message)")
    }
}
