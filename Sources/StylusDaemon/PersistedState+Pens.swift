// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol

extension PersistedState {
    /// One tool of the table, and its style, as the state file keeps it. No
    /// time: the engine's clock starts anew with each run; the order (most
    /// recent first) is what is kept.
    struct PenColumns: Codable, Equatable {
        var device: String
        var type: String
        var serial: UInt64
        var toolID: UInt64
        var style: StyleColumns
        var previousTool: String

        enum CodingKeys: String, CodingKey {
            case device, type, serial, toolID = "tool_id", style, previousTool = "previous_tool"
        }

        init(_ tool: PenTool) {
            device = tool.id.device
            type = tool.id.type.rawValue
            serial = tool.id.serial
            toolID = tool.toolID
            style = StyleColumns(tool: tool.style.tool.rawValue, color: tool.style.color.hex, width: tool.style.width)
            previousTool = tool.previousTool.rawValue
        }

        /// The tool, or nil for one this stylusd cannot read: a pen's style is
        /// not worth the drawing, which a file refused as corrupt would be moved aside with.
        var tool: PenTool? {
            guard let type = ToolType(rawValue: type), let drawing = DrawingTool(rawValue: style.tool),
                  let color = StrokeColor(hex: style.color), StrokeStyle.widthRange.contains(style.width),
                  let previous = DrawingTool(rawValue: previousTool) else { return nil }
            return PenTool(id: PenToolID(device: device, type: type, serial: serial), toolID: toolID,
                           style: StrokeStyle(tool: drawing, color: color, width: style.width), previousTool: previous)
        }
    }

    static func pens(of canvas: Canvas) -> [PenColumns]? {
        canvas.pens.tools.isEmpty ? nil : canvas.pens.tools.map(PenColumns.init)
    }

    func restorePens(into canvas: inout Canvas, base: StrokeStyle) {
        canvas.restorePens(ToolTable(base: base, tools: (pens ?? []).compactMap(\.tool)))
    }

    /// `,"pens":[…]` as JSONEncoder with sorted keys writes it; false for a width that is not finite.
    static func append(pens: [PenColumns], to out: inout [UInt8]) -> Bool {
        out.append(contentsOf: #","pens":["#.utf8)
        for (i, p) in pens.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"device":"#.utf8)
            JSONString.appendQuoted(p.device, to: &out)
            out.append(contentsOf: #","previous_tool":"#.utf8)
            JSONString.appendQuoted(p.previousTool, to: &out)
            out.append(contentsOf: #","serial":"#.utf8)
            out.append(contentsOf: String(p.serial).utf8)
            out.append(contentsOf: #","style":{"color":"#.utf8)
            JSONString.appendQuoted(p.style.color, to: &out)
            out.append(contentsOf: #","tool":"#.utf8)
            JSONString.appendQuoted(p.style.tool, to: &out)
            out.append(contentsOf: #","width":"#.utf8)
            guard JSONNumber.append(p.style.width, to: &out) else { return false }
            out.append(contentsOf: #"},"tool_id":"#.utf8)
            out.append(contentsOf: String(p.toolID).utf8)
            out.append(contentsOf: #","type":"#.utf8)
            JSONString.appendQuoted(p.type, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return true
    }
}
