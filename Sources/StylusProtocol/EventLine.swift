// SPDX-License-Identifier: MIT
/// An event as the daemon sent it: its name, its fields, and the exact line.
public struct EventLine: Equatable, Sendable {
    public var name: String
    /// Every field, `event` and `time_us` included.
    public var fields: [String: JSONValue]
    /// The line exactly as received, with its newline.
    public var raw: [UInt8]

    public var topic: Topic? { Topic(eventName: name) }
    /// A string field, e.g. a canvas event's `state`.
    public func string(_ key: String) -> String? { if case .string(let s)? = fields[key] { s } else { nil } }
    public var time: Int64? { if case .number(let n)? = fields["time_us"] { Int64(n) } else { nil } }
}
