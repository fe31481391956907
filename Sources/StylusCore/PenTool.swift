// SPDX-License-Identifier: MIT
/// Who a physical tool is, as far as the hardware tells: the device it was
/// seen on, its type, and its serial where reported (0: not reported). A
/// pen's two ends have one serial but two types, so they are two tools; a pen
/// without a serial is known only by its device and type. The tool id
/// (ABS_MISC) is no part of it: read at proximity-in it is often the previous
/// tool's (the kernel sends it only when it changes, sometimes a frame late),
/// which made one pen of the Cintiq recordings several tools.
public struct PenToolID: Hashable, Sendable {
    /// The device's name, not its number: numbers change across restarts and replugs.
    public var device: String
    public var type: ToolType
    public var serial: UInt64

    public init(device: String, type: ToolType, serial: UInt64 = 0) {
        self.device = device
        self.type = type
        self.serial = serial
    }

    public init(device: String, tool: Tool) {
        self.init(device: device, type: tool.type, serial: tool.serial)
    }

    /// The name a tool has when no `[pens.NAME]` names it, e.g.
    /// "Wacom Intuos Pro M Pen (pen, serial 0x1234abcd)": of the identity
    /// alone, so that it stays what strokes and `tool --pen` call it.
    public var derivedName: String {
        var parts = [type.rawValue]
        if serial != 0 { parts.append("serial \(Self.hex(serial, digits: 8))") }
        return "\(device) (\(parts.joined(separator: ", ")))"
    }

    /// `0x` and lowercase hex, at least `digits` of them: how config.toml and `pens` write serials.
    public static func hex(_ value: UInt64, digits: Int = 1) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// A tool seen, and the style it draws with.
public struct PenTool: Equatable, Sendable {
    public var id: PenToolID
    /// The tool id (ABS_MISC) last seen at a proximity-in other than 0; 0 while none was.
    public internal(set) var toolID: UInt64
    /// The `[pens.NAME]` table that names it, if any.
    public internal(set) var configuredName: String?
    public internal(set) var style: StrokeStyle
    /// What `tool:previous` goes back to while this tool is the one in use.
    public internal(set) var previousTool: DrawingTool
    /// Engine time it last came into proximity; nil for a tool known only from the state file.
    public internal(set) var lastSeen: Microseconds?

    public init(id: PenToolID, toolID: UInt64 = 0, style: StrokeStyle, previousTool: DrawingTool = .highlighter,
                configuredName: String? = nil, lastSeen: Microseconds? = nil) {
        self.id = id
        self.toolID = toolID
        self.style = style
        self.previousTool = previousTool
        self.configuredName = configuredName
        self.lastSeen = lastSeen
    }

    public var name: String { configuredName ?? id.derivedName }
}
