// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusTOML

extension ConfigParserChild {
    static let penKeys = ["serial", "tool_id", "device", "type", "tool", "color", "width", "curve", "bindings"]

    /// `[pens.NAME]` tables, each problem reported by its key (`pens.NAME.serial`).
    static func parsePens(_ value: TOMLValue, report: (String, String) -> Void) -> [PenConfig] {
        guard let tables = value.table else {
            report("pens", "expected tables [pens.NAME], e.g. [pens.blue] with serial = \"0x1234abcd\"")
            return []
        }
        var pens: [PenConfig] = []
        // Which table first named each identity: two tables for one pen leave the pen without a rule.
        var named: [String: String] = [:]
        for name in tables.keys {
            let path = "pens.\(name)"
            guard let table = tables[name]?.table else {
                report(path, "expected a table [\(path)], found \(tables[name]!.typeName)")
                continue
            }
            for key in table.keys where !penKeys.contains(key) {
                let near = nearestWord(key, among: penKeys).map { "did you mean \"\($0)\"? " } ?? ""
                report("\(path).\(key)", "unknown key; \(near)known keys are \(penKeys.joined(separator: ", "))")
            }
            var pen = PenConfig(name: name)
            pen.serial = hexNumber(table, "serial", path, report: report)
            pen.toolID = hexNumber(table, "tool_id", path, report: report)
            if let value = table["device"] {
                if let device = value.string, !device.isEmpty { pen.device = device } else {
                    report("\(path).device", "expected the device's name as `stylusctl devices` shows it, found \(value.typeName)")
                }
            }
            if let value = table["type"] {
                if let type = value.string.flatMap(ToolType.init(rawValue:)) { pen.type = type } else {
                    report("\(path).type", "\(value.string.map { "unknown type \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(ToolType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
            if table["serial"] == nil, table["tool_id"] == nil, table["device"] == nil {
                report(path, "names no pen: set serial = \"0x…\" and/or tool_id = \"0x…\" (`stylusctl pens` shows them), or device and type for a pen without a serial")
            }
            if let value = table["tool"] {
                if let tool = value.string.flatMap(DrawingTool.init(rawValue:)) { pen.style.tool = tool } else {
                    report("\(path).tool", "\(value.string.map { "unknown tool \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
            if let value = table["color"] {
                switch value.string.map(ColorName.parse) {
                case .success(let color)?: pen.style.color = color
                case .failure(let error)?: report("\(path).color", error.message)
                case nil: report("\(path).color", "expected a colour (a CSS colour name, \"#RGB\" or \"#RRGGBB\", e.g. \"crimson\"), found \(value.typeName)")
                }
            }
            if let value = table["width"] {
                if let width = value.double ?? value.int.map(Double.init), StrokeStyle.widthRange.contains(width) { pen.style.width = width } else {
                    report("\(path).width", "expected a width \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)) (pixels of a drawing 1600 wide), found \(value.double.map(StyleRequest.describe) ?? value.int.map(String.init) ?? value.typeName)")
                }
            }
            if let value = table["curve"] {
                // As [precision] curve writes it, so one pen's curve reads as the daemon's does.
                let points = value.array ?? []
                let numbers = points.compactMap { $0.double ?? $0.int.map(Double.init) }
                if points.count == 4, numbers.count == 4, numbers.allSatisfy({ (0...100).contains($0) }) {
                    pen.curve = PressureCurve(x1: numbers[0] / 100, y1: numbers[1] / 100, x2: numbers[2] / 100, y2: numbers[3] / 100)
                } else {
                    report("\(path).curve", "expected four numbers 0-100: [x1, y1, x2, y2], e.g. [0, 0, 100, 100] (linear)")
                }
            }
            if let value = table["bindings"] {
                pen.bindings = parsePenBindings(value, "\(path).bindings", report: report)
            }
            if pen.serial != nil || pen.toolID != nil || pen.device != nil {
                let identity = [pen.serial.map { "serial \(PenToolID.hex($0))" }, pen.toolID.map { "tool id \(PenToolID.hex($0))" },
                                pen.device.map { "device \"\($0)\"" }, pen.type.map { "type \($0.rawValue)" }].compactMap { $0 }.joined(separator: ", ")
                if let first = named[identity] {
                    let key = pen.serial != nil ? "serial" : pen.toolID != nil ? "tool_id" : "device"
                    report("\(path).\(key)", "\(identity) is already named by [pens.\(first)]; one pen, one table")
                } else {
                    named[identity] = name
                }
            }
            pens.append(pen)
        }
        return pens
    }

    /// `[pens.NAME.bindings]`: the pen's side buttons, each checked as `[bindings]` checks it.
    private static func parsePenBindings(_ value: TOMLValue, _ path: String, report: (String, String) -> Void) -> [String: Action] {
        guard let table = value.table else {
            report(path, "expected a table [\(path)] of side buttons, e.g. BTN_STYLUS = \"\(Action.Form.key.example)\"")
            return [:]
        }
        var bindings: [String: Action] = [:]
        for key in table.keys {
            guard let button = SideButton(name: key) else {
                let why = ButtonID(name: key) != nil ? "a pad button is the tablet's, not a pen's: bind it in [bindings]" : "unknown button"
                report("\(path).\(key)", "\(why); use BTN_STYLUS, BTN_STYLUS2 or BTN_STYLUS3")
                continue
            }
            if let action = bindingAction(table[key]!, "\(path).\(key)", report: report) { bindings[button.evdevName] = action }
        }
        return bindings
    }

    /// A serial or tool id: "0x…" as `stylusctl pens` shows it (a whole number is taken too); never 0, which means none.
    private static func hexNumber(_ table: TOMLTable, _ key: String, _ path: String, report: (String, String) -> Void) -> UInt64? {
        guard let value = table[key] else { return nil }
        var number: UInt64?
        if let text = value.string {
            let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
            number = digits.isEmpty || digits.count > 16 ? nil : UInt64(digits, radix: text.count == digits.count ? 10 : 16)
        } else if let int = value.int, int >= 0 {
            number = UInt64(int)
        }
        guard let number, number != 0 else {
            report("\(path).\(key)", "expected a \(key == "serial" ? "serial" : "tool id") \"0x…\" other than 0 (0 means the pen reports none), found \(value.string.map { "\"\($0)\"" } ?? value.int.map(String.init) ?? value.typeName)")
            return nil
        }
        return number
    }
}
