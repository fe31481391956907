// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol

/// What `stylusctl monitor` shows, built from the daemon's status and its
/// events; `lines(width:height:)` draws it. No terminal and no I/O here, so
/// the view is tested as plain text.
struct MonitorModel {
    struct Pen {
        var device: UInt32
        var tool = "-"
        /// The pen tool's name as `pens` gives it (`[pens.NAME]`, or derived), from the samples.
        var name: String?
        var serial: UInt64?
        var inProximity = false
        var x = 0.0, y = 0.0
        var adjustedX = 0.0, adjustedY = 0.0
        var pressure = 0.0
        var tiltX = 0.0, tiltY = 0.0
        var tip = false
        var scale = 1.0
    }

    /// One press of a button, judged against the interval.
    struct Press: Equatable {
        enum Kind: Equatable {
            /// Paired with the previous press: `spare` µs inside the interval.
            case double(spare: Int64)
            /// Came after a single press, too late to pair: `late` µs past the interval.
            case missed(late: Int64)
            /// Nothing before it it could pair with.
            case single
            case bounce
        }
        var timeUS: Int64
        var button: String
        var device: UInt32
        var gapUS: Int64?
        var intervalMS: Int
        var kind: Kind
    }

    var socket: String
    var status: StatusResult?
    var connection = "connecting"
    var devices: [UInt32: (name: String, kind: String)] = [:]
    var pens: [UInt32: Pen] = [:]
    /// The pen that moved last: the one shown.
    var currentPen: UInt32?
    /// Held buttons, by device.
    var held: [UInt32: Set<String>] = [:]
    var presses: [Press] = []
    /// Per device and button: whether its last accepted press could still pair
    /// (it was a single press, not the second of a double).
    private var lastPressPairable: [String: Bool] = [:]
    var droppedSamples = 0
    static let keptPresses = 32

    init(socket: String) { self.socket = socket }

    mutating func apply(status: StatusResult) {
        self.status = status
        connection = "connected"
        devices = Dictionary(status.input.devices.map { ($0.device, (name: $0.name, kind: $0.kind)) }, uniquingKeysWith: { a, _ in a })
    }

    mutating func apply(_ event: EventLine) {
        func int(_ key: String) -> Int64? { if case .number(let n)? = event.fields[key] { Int64(n) } else { nil } }
        func double(_ key: String) -> Double? { if case .number(let n)? = event.fields[key] { n } else { nil } }
        func bool(_ key: String) -> Bool { event.fields[key] == .bool(true) }
        let device = int("device").map { UInt32(truncatingIfNeeded: $0) }
        switch event.name {
        case "pen":
            guard let device else { return }
            var pen = pens[device] ?? Pen(device: device)
            pen.tool = event.string("tool") ?? pen.tool
            pen.name = event.string("pen") ?? pen.name
            pen.inProximity = true
            pen.x = double("x") ?? pen.x
            pen.y = double("y") ?? pen.y
            pen.adjustedX = double("adjusted_x") ?? pen.adjustedX
            pen.adjustedY = double("adjusted_y") ?? pen.adjustedY
            pen.pressure = double("pressure") ?? pen.pressure
            pen.tiltX = double("tilt_x") ?? pen.tiltX
            pen.tiltY = double("tilt_y") ?? pen.tiltY
            pen.tip = bool("tip")
            pen.scale = double("scale") ?? pen.scale
            pens[device] = pen
            currentPen = device
        case "proximity":
            guard let device else { return }
            var pen = pens[device] ?? Pen(device: device)
            pen.inProximity = event.string("state") == "in"
            let tool = event.string("tool") ?? pen.tool
            let serial = int("serial").map { UInt64(truncatingIfNeeded: $0) }
            if serial != pen.serial || tool != pen.tool { pen.name = nil }   // another tool: its name comes with its samples
            pen.tool = tool
            pen.serial = serial
            if !pen.inProximity { pen.tip = false }
            pens[device] = pen
            currentPen = device
        case "button":
            guard let device, let button = event.string("button") else { return }
            let key = "\(device)/\(button)"
            if event.string("state") == "released" {
                held[device, default: []].remove(button)
                return
            }
            held[device, default: []].insert(button)
            let interval = Int(int("interval_ms") ?? Int64(status?.config.intervalMS ?? 500))
            let gap = int("gap_us")
            let kind: Press.Kind
            if bool("bounce") {
                kind = .bounce
            } else if bool("double") {
                kind = .double(spare: Int64(interval) * 1000 - (gap ?? 0))
                lastPressPairable[key] = false
            } else {
                // Too late, rather than just another press later on: within twice the interval.
                if let gap, lastPressPairable[key] == true, gap > Int64(interval) * 1000, gap <= Int64(interval) * 2000 {
                    kind = .missed(late: gap - Int64(interval) * 1000)
                } else {
                    kind = .single
                }
                lastPressPairable[key] = true
            }
            presses.append(Press(timeUS: event.time ?? 0, button: button, device: device, gapUS: gap, intervalMS: interval, kind: kind))
            if presses.count > Self.keptPresses { presses.removeFirst(presses.count - Self.keptPresses) }
        case "canvas":
            guard var s = status else { return }
            s.canvas.state = event.string("state") ?? s.canvas.state
            if let n = int("stroke_count") { s.canvas.strokeCount = Int(n) }
            if event.fields["has_content"] != nil { s.canvas.hasContent = bool("has_content") }
            status = s
        case "stroke":
            // The stroke is recorded: `index` is its place among the canvas's strokes.
            guard var s = status, let index = int("index") else { return }
            s.canvas.strokeCount = max(s.canvas.strokeCount, Int(index) + 1)
            status = s
        case "precision":
            guard var s = status else { return }
            s.precision.enabled = bool("enabled")
            s.precision.active = bool("active")
            status = s
            if let device, let scale = double("scale") { pens[device]?.scale = scale }
        case "device":
            guard let device else { return }
            switch event.string("change") {
            case "added": devices[device] = (name: event.string("name") ?? "", kind: event.string("kind") ?? "pen")
            case "removed":
                devices[device] = nil
                pens[device] = nil
                held[device] = nil
                if currentPen == device { currentPen = nil }
            default: break
            }
        case "dropped":
            droppedSamples += Int(int("count") ?? 0)
        default:
            break
        }
    }

    // MARK: Drawing

    /// The screen as lines, none wider than `width`, at most `height` of them.
    func lines(width: Int, height: Int) -> [String] {
        var out: [String] = []
        let interval = status?.config.intervalMS ?? 500
        let threshold = status?.config.fullSpeedPressure
        out.append("stylusctl monitor · \(connection) · q or Ctrl-C quits")
        if devices.isEmpty {
            out.append("Devices    none" + (status?.input.reason.map { ": \($0)" } ?? ""))
        } else {
            out.append("Devices    " + devices.keys.sorted().map { "\($0) \(devices[$0]!.name.isEmpty ? "(unnamed)" : devices[$0]!.name) [\(devices[$0]!.kind)]" }
                .joined(separator: ", "))
        }
        let pen = currentPen.flatMap { pens[$0] }
        if let pen {
            let serial = pen.serial.map { $0 == 0 ? "none" : "0x" + String($0, radix: 16) } ?? "-"
            // The name last: a derived one is long, and a narrow terminal cuts the line's end.
            out.append("Tool       \(pen.tool), serial \(serial), device \(pen.device), \(pen.inProximity ? "in proximity" : "out of proximity")"
                       + (pen.name.map { ", \"\($0)\"" } ?? ""))
            // Away from the tablet the last sample's numbers (or the driver's zeros and -64°) would read as a pen at rest.
            let away = !pen.inProximity
            out.append(away ? "Position   - (pen away)"
                       : "Position   x \(fixed(pen.x, 4))  y \(fixed(pen.y, 4))    adjusted x \(fixed(pen.adjustedX, 4))  y \(fixed(pen.adjustedY, 4))")
            out.append(away ? "Pressure   -" : "Pressure   " + Self.bar(pen.pressure, threshold: threshold, width: 40) + " \(fixed(pen.pressure, 3))")
            out.append("           " + (threshold.map { "| = precision threshold \(fixed($0, 2)) (full speed at and above)" } ?? "(precision threshold unknown)"))
            out.append(away ? "Tilt       -" : "Tilt       x \(signed(pen.tiltX))°  y \(signed(pen.tiltY))°")
            out.append("Tip        \(pen.tip ? "down" : "up")")
        } else {
            out.append("Tool       no pen seen yet (bring the pen near the tablet)")
            out += ["Position   -", "Pressure   -", "", "Tilt       -", "Tip        -"]
        }
        let sideButtons = SideButton.allCases.map(\.evdevName)
        let heldHere = pen.flatMap { held[$0.device] } ?? []
        var buttons = sideButtons.map { "\($0) \(heldHere.contains($0) ? "DOWN" : "up")" }.joined(separator: "  ")
        let padHeld = held.values.flatMap { $0 }.filter { $0.hasPrefix("pad-") }.sorted()
        if !padHeld.isEmpty { buttons += "  pad: " + padHeld.joined(separator: " ") + " DOWN" }
        out.append("Buttons    " + buttons)
        if let s = status {
            let scale = pen.map { fixed($0.scale, 2) } ?? "1.00"
            out.append("Precision  \(s.precision.enabled ? "enabled" : "disabled"), \(s.precision.active ? "active" : "inactive"), scale \(scale)")
            out.append("Canvas     \(s.canvas.state), \(counted(s.canvas.strokeCount, "stroke"))\(s.canvas.full ? ", full" : "")")
        } else {
            out += ["Precision  -", "Canvas     -"]
        }
        out.append("Interval   \(interval) ms" + (status.map { ", debounce \($0.config.debounceMS) ms" } ?? "")
                   + (droppedSamples > 0 ? "   (\(droppedSamples) pen samples dropped)" : ""))
        out.append("")
        out.append("Last presses (gap to the previous press of the same button):")
        let room = max(0, height - out.count)
        let shown = presses.suffix(room)
        if shown.isEmpty && room > 0 { out.append("  none yet") }
        for press in shown { out.append("  " + Self.describe(press)) }
        return out.prefix(height).map { Self.clip($0, width) }
    }

    static func describe(_ p: Press) -> String {
        let time = "\(p.timeUS / 1_000_000).\(String(1000 + (p.timeUS % 1_000_000) / 1000).dropFirst())"
        let gap = p.gapUS.map { "\(ms($0)) ms" } ?? "-"
        let head = "\(time) \(p.button.padding(12)) \(gap.leftPadded(9))  "
        switch p.kind {
        case .double(let spare): return head + "double press, \(ms(spare)) ms inside \(p.intervalMS) ms"
        case .missed(let late): return head + "MISSED: \(ms(late)) ms past \(p.intervalMS) ms"
        case .single: return head + "single press"
        case .bounce: return head + "bounce, ignored"
        }
    }

    /// `[#######.....|.......]`: pressure filled, the threshold as `|`.
    static func bar(_ value: Double, threshold: Double?, width: Int) -> String {
        let filled = Int((min(max(value, 0), 1) * Double(width)).rounded())
        var cells = (0..<width).map { $0 < filled ? "#" : "." }
        if let threshold {
            let at = min(width - 1, max(0, Int((threshold * Double(width)).rounded())))
            cells[at] = "|"
        }
        return "[" + cells.joined() + "]"
    }

    static func clip(_ line: String, _ width: Int) -> String {
        line.count <= width ? line : String(line.prefix(width))
    }

    private static func ms(_ us: Int64) -> Int64 { (us + (us >= 0 ? 500 : -500)) / 1000 }
}

private func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int64((value * scale).rounded())
    let sign = n < 0 ? "-" : ""
    let magnitude = n.magnitude
    let whole = magnitude / UInt64(scale)
    let fraction = String(magnitude % UInt64(scale))
    return "\(sign)\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
}

private func signed(_ value: Double) -> String {
    (value >= 0 ? "+" : "") + fixed(value, 1)
}

extension String {
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
