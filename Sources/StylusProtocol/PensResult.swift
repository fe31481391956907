// SPDX-License-Identifier: MIT
public import StylusCore

/// `pens`: each tool seen, most recent first (the first is the one in
/// proximity, or the last seen), with the style it draws with.
public struct PensResult: Codable, Equatable, Sendable {
    public struct Pen: Codable, Equatable, Sendable {
        /// Its `[pens.NAME]` name, or one made of its device, type and ids.
        public var name: String
        public var device: String
        public var type: String
        /// "0x…"; nil where the hardware reports none.
        public var serial: String?
        public var toolID: String?
        public var style: StyleResult
        /// Seconds since it last came into proximity; nil for a tool known
        /// only from the state file (the daemon's clock starts anew each run).
        public var lastSeenSecondsAgo: Double?

        enum CodingKeys: String, CodingKey {
            case name, device, type, serial, toolID = "tool_id", style, lastSeenSecondsAgo = "last_seen_seconds_ago"
        }
    }

    public struct StyleResult: Codable, Equatable, Sendable {
        public var tool: String
        public var color: String
        public var width: Double
    }

    public var pens: [Pen]

    public init(pens: [Pen]) { self.pens = pens }

    /// The engine's table as the answer gives it, `now` on the engine's clock.
    public init(_ table: ToolTable, now: Microseconds) {
        pens = table.tools.map { tool in
            Pen(name: tool.name, device: tool.id.device, type: tool.id.type.rawValue,
                serial: tool.id.serial == 0 ? nil : PenToolID.hex(tool.id.serial),
                toolID: tool.toolID == 0 ? nil : PenToolID.hex(tool.toolID),
                style: StyleResult(tool: tool.style.tool.rawValue, color: tool.style.color.hex, width: tool.style.width),
                lastSeenSecondsAgo: tool.lastSeen.map { Double(max(0, now - $0)) / 1_000_000 })
        }
    }
}
