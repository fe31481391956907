// SPDX-License-Identifier: MIT
public import StylusCore

extension EngineEvent {
    /// The event as one NDJSON line: the wire format of the socket's
    /// subscriptions and of `stylusd replay --json`.
    public func jsonLine(into buffer: [UInt8] = []) -> [UInt8] {
        var w = JSONWriter(lineInto: buffer)
        switch self {
        case .device(let e):
            w.string("event", "device")
            w.string("change", e.change.rawValue)
            w.int("device", e.device.rawValue)
            w.string("name", e.info.name)
            w.string("kind", e.info.kind.rawValue)
            if e.change == .removed { w.bool("ended_stroke", e.endedStroke) }
            w.int("time_us", e.time)
        case .proximity(let e):
            w.string("event", "proximity")
            w.int("device", e.device.rawValue)
            w.string("state", e.inProximity ? "in" : "out")
            w.string("tool", e.tool.type.rawValue)
            w.int("serial", e.tool.serial)
            w.int("time_us", e.time)
        case .doublePress(let e):
            w.string("event", "double-press")
            w.string("button", e.button.description)
            w.int("device", e.device.rawValue)
            w.int("time_us", e.time)
            w.int("first_press_us", e.firstPress)
            w.int("gap_us", e.time - e.firstPress)
            w.string("action", e.action.rawValue)
            switch e.outcome {
            case .applied:
                w.string("outcome", "applied")
            case .ignored(let reason):
                w.string("outcome", "ignored")
                w.string("reason", reason)
            }
        case .canvas(let e):
            w.string("event", "canvas")
            w.string("state", e.state.rawValue)
            w.string("source", e.source.rawValue)
            w.string("cause", e.cause.rawValue)
            w.bool("has_content", e.hasContent)
            w.int("stroke_count", e.strokeCount)
            if let result = e.result { w.string("result", result.rawValue) }
            if let path = e.path { w.string("path", path) }
            if let png = e.pngBase64 { w.string("png_base64", png) }
            w.int("time_us", e.time)
        case .stroke(let e):
            w.string("event", "stroke")
            w.int("device", e.device.rawValue)
            w.string("source", e.source.rawValue)
            w.int("index", e.index)
            w.int("points", e.points)
            if let pen = e.pen { w.string("pen", pen) }
            w.int("time_us", e.time)
        case .canvasFull(let e):
            w.string("event", "canvas-full")
            w.string("limit", e.limit.rawValue)
            w.int("stroke_count", e.strokeCount)
            w.int("point_count", e.pointCount)
            w.string("effect", "further strokes are not recorded until the canvas is cleared")
            w.int("time_us", e.time)
        case .precision(let e):
            w.string("event", "precision")
            if let device = e.device { w.int("device", device.rawValue) }
            w.bool("enabled", e.enabled)
            w.bool("active", e.active)
            w.double("scale", (e.scale * 1000).rounded() / 1000)
            if let source = e.source { w.string("source", source.rawValue) }
            w.int("time_us", e.time)
        case .button(let e):
            w.string("event", "button")
            w.string("button", e.button.description)
            w.int("device", e.device.rawValue)
            w.string("state", e.pressed ? "pressed" : "released")
            w.bool("bounce", e.bounce)
            if e.pressed {
                w.bool("double", e.double)
                if let gap = e.gap { w.int("gap_us", gap) } else { w.null("gap_us") }
                w.int("interval_ms", e.interval / 1000)
            } else {
                w.bool("implicit", e.implicit)
            }
            w.int("time_us", e.time)
        case .tool(let e):
            w.string("event", "tool")
            w.string("tool", e.style.tool.rawValue)
            w.string("color", e.style.color.hex)
            w.bool("palette", e.palette)
            w.strings("colors", e.colors.map(\.hex))
            w.double("width", e.style.width)
            if let pen = e.pen { w.string("pen", pen) }
            w.string("source", e.source.rawValue)
            w.int("time_us", e.time)
        case .background(let e):
            w.string("event", "background")
            w.string("background", e.background.name)
            w.string("source", e.source.rawValue)
            w.int("time_us", e.time)
        }
        return w.finishLine()
    }

    /// A one-line human reading of the event.
    public var text: String {
        let seconds = "\(time / 1_000_000).\(String(1_000_000 + time % 1_000_000).dropFirst())"
        switch self {
        case .device(let e):
            return "\(seconds) device \(e.device) \(e.change.rawValue): \(e.info.name.isEmpty ? "(unnamed)" : e.info.name) [\(e.info.kind.rawValue)]"
                + (e.endedStroke ? ", stroke ended" : "")
        case .proximity(let e):
            return "\(seconds) \(e.tool.type.rawValue) \(e.inProximity ? "in" : "out of") proximity (device \(e.device))"
        case .doublePress(let e):
            let result: String = switch e.outcome {
            case .applied: e.action.rawValue
            case .ignored(let reason): "\(e.action.rawValue) ignored: \(reason)"
            }
            return "\(seconds) double press \(e.button) (\((e.time - e.firstPress) / 1000) ms apart) -> \(result)"
        case .canvas(let e):
            let ending = e.result.map { ", \($0.rawValue)" + (e.path.map { " to \($0)" } ?? "") } ?? ""
            return "\(seconds) canvas \(e.state.rawValue) (\(e.source.rawValue), \(e.cause.rawValue)\(ending)), \(e.strokeCount) stroke\(e.strokeCount == 1 ? "" : "s")"
        case .stroke(let e):
            return "\(seconds) stroke \(e.index) recorded, \(counted(e.points, "point"))\(e.pen.map { ", by \($0)" } ?? "")"
        case .canvasFull(let e):
            return "\(seconds) canvas full (\(e.limit.rawValue)): \(counted(e.strokeCount, "stroke")), \(counted(e.pointCount, "point")); not recording until cleared"
        case .precision(let e):
            let scale = (e.scale * 100).rounded() / 100
            return "\(seconds) precision \(e.enabled ? "enabled" : "disabled"), \(e.active ? "active" : "inactive"), scale \(scale)"
        case .button(let e):
            var line = "\(seconds) \(e.button) \(e.pressed ? "pressed" : "released") (device \(e.device))"
            if e.bounce { line += ", bounce" }
            if e.implicit { line += ", out of proximity" }
            if e.pressed, let gap = e.gap { line += ", \(gap / 1000) ms after the last press" }
            if e.double { line += ", double press" }
            return line
        case .tool(let e):
            return "\(seconds) tool \(e.style.tool.rawValue), \(e.style.color.hex), width \(e.style.width)\(e.palette ? ", palette shown" : "") (\(e.source.rawValue))"
        case .background(let e):
            return "\(seconds) background \(e.background.name) (\(e.source.rawValue))"
        }
    }
}
