// SPDX-License-Identifier: MIT
import StylusCore

/// The first line on every connection.
public struct HelloEvent: Codable, Equatable, Sendable {
    public var event = "hello"
    public var protocolVersion = ProtocolV1.version
    public var daemon = "stylusd"
    public var version: String
    public var pid: Int32
    /// Names, not `Topic`s, so that a client reads a newer daemon's greeting.
    public var topics = Topic.allCases.map(\.rawValue)
    public var commands: [String]? = CommandName.allCases.map(\.rawValue)
    /// The double-press actions this daemon performs, as `Action.Form.spelling`: "toggle-canvas", "key:KEYS".
    public var actions: [String]? = Action.Form.allCases.map(\.spelling)
    enum CodingKeys: String, CodingKey {
        case event, protocolVersion = "protocol", daemon, version, pid, topics, commands, actions
    }

    public init(version: String = StylusVersion.current, pid: Int32) {
        self.version = version
        self.pid = pid
    }
}
