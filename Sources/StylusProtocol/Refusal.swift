// SPDX-License-Identifier: MIT

/// Why the daemon closes a connection before greeting it: the one line such
/// a client reads, `{"event":"refused","reason":…}`, in place of `hello`.
public enum Refusal: Equatable, Sendable {
    /// The peer is another user: the socket is one user's.
    case otherUser(allowed: UInt32, peer: UInt32?)
    /// Out of file descriptors, with this many clients connected.
    case tooManyConnections(Int)

    public var reason: String {
        switch self {
        case .otherUser(let allowed, let peer):
            "only uid \(allowed) may use this daemon; you are \(Self.describe(peer))"
        case .tooManyConnections(let count):
            "stylusd has too many connections (\(count)); try again later"
        }
    }

    /// The peer as the refusal and the log name it.
    public static func describe(_ uid: UInt32?) -> String { uid.map { "uid \($0)" } ?? "an unknown user" }

    /// The event with its newline.
    public var line: [UInt8] { Response.line(RefusedEvent(reason: reason)) }
}

/// The `refused` event as it goes on the wire.
private struct RefusedEvent: Encodable {
    var event = "refused"
    var reason: String
}
