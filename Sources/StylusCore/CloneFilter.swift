/// One evdev event as a virtual pen (the clone) is to get it.
public struct EvdevEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    public var time: Microseconds

    public init(type: UInt16, code: UInt16, value: Int32, time: Microseconds) {
        self.type = type
        self.code = code
        self.value = value
        self.time = time
    }

    public var isReport: Bool { type == EV.syn && code == SYN.report }
}

/// What reaches the desktop of a side button whose double press is bound.
public enum Passthrough: String, Sendable, CaseIterable, Codable {
    /// The first press is held back until it cannot become a double press
    /// (the default for bound buttons).
    case deferred = "defer"
    /// Every press and release passes at once; a double press only adds its action.
    case immediate
    /// Nothing of the button reaches the desktop.
    case never
}

/// The filter's settings, beside the engine's (`[output]` in config.toml).
public struct FilterConfig: Equatable, Sendable {
    /// Per side button (`SideButton.rawValue`); nil takes the default,
    /// `defer`. Unbound buttons always pass at once.
    public var passthrough: [Passthrough?] = [nil, nil, nil]
    /// From `opening` until `minimized` the clone's tool is out of proximity.
    public var captureWhileCanvasOpen = true

    public init() {}

    public func passthrough(for button: SideButton, bindings: EngineConfig) -> Passthrough {
        if bindings.binding(for: .side(button)) == .none { return .immediate }
        return passthrough[button.rawValue] ?? .deferred
    }
}

/// Decides, frame by frame, what one pen node's clone gets: the real node's
/// frames, unchanged (same values, same order, one SYN_REPORT per frame),
/// except for the three things the engine's output effects ask for —
/// withheld first presses, the precision-adjusted position while precision
/// slows the cursor, and the pen leaving proximity while the canvas is open.
///
/// Pure: a replay gives the same frames as live input. Drive it the way the
/// daemon does: `apply` every output effect of the node's inputs (and every
/// canvas effect), then `rawFrame` with the frame those inputs came from.
/// Effects between frames (timers, commands) write their frames at once.
public struct CloneFilter: Sendable {
    public let device: DeviceID
    private var modes: [Passthrough]
    private var capture: Bool
    private let xInfo: AbsInfo?
    private let yInfo: AbsInfo?
    /// The ABS codes the node has, to put the pen back where it is.
    private let absCodes: [UInt16]

    // The real node, as its frames left it.
    private var realAbs = [Int32](repeating: 0, count: ABS.count)
    /// Bit n = key 0x140 + n (tools, touch, side buttons).
    private var realKeys: UInt32 = 0
    // What has been written to the clone.
    private var cloneX: Int32 = 0
    private var cloneY: Int32 = 0
    private var cloneKeys: UInt32 = 0

    private enum Held: Equatable, Sendable {
        case none
        case pressed(Microseconds)
        case clicked(Microseconds)
    }
    private var held: [Held] = [.none, .none, .none]
    /// Side buttons (bit per rawValue) whose key events in the coming raw frame are not written.
    private var dropKeys: UInt8 = 0
    private var tipDown = false
    /// The position the cursor should have while precision moves it, in device units.
    private var adjusted: (x: Int32, y: Int32)?
    public private(set) var captured = false

    public init(device: DeviceID, description: DeviceDescription, engine: EngineConfig, filter: FilterConfig) {
        self.device = device
        modes = SideButton.allCases.map { filter.passthrough(for: $0, bindings: engine) }
        capture = filter.captureWhileCanvasOpen
        xInfo = description.absInfo[ABS.x]
        yInfo = description.absInfo[ABS.y]
        absCodes = description.absInfo.keys.filter { Int($0) < ABS.count }.sorted()
        for (code, info) in description.absInfo where Int(code) < ABS.count {
            realAbs[Int(code)] = min(max(0, info.minimum), info.maximum)
        }
        cloneX = realAbs[Int(ABS.x)]
        cloneY = realAbs[Int(ABS.y)]
    }

    /// New bindings or passthrough settings; a held press keeps its fate.
    public mutating func reconfigure(engine: EngineConfig, filter: FilterConfig) {
        modes = SideButton.allCases.map { filter.passthrough(for: $0, bindings: engine) }
        capture = filter.captureWhileCanvasOpen
    }

    /// The canvas state to start from (an output joining a running engine).
    public mutating func start(canvas: CanvasState, at time: Microseconds, into out: inout [EvdevEvent]) {
        apply(.canvas(canvas, time: time), into: &out)
    }

    /// Whether a press is being held back (the grab must stay while it is).
    public var holdsPress: Bool { held.contains { $0 != .none } }

    // MARK: Effects

    public mutating func apply(_ effect: OutputEffect, into out: inout [EvdevEvent]) {
        switch effect {
        case .frame(let f):
            guard f.device == device else { return }
            tipDown = f.tipDown
            adjusted = f.isAdjusted ? (units(f.adjustedX, xInfo), units(f.adjustedY, yInfo)) : nil
            if f.kind == .tipDown {
                // A button-drag: the held press goes out before the tip.
                for b in SideButton.allCases {
                    if case .pressed = held[b.rawValue] { writeHeld(b, at: f.time, into: &out) }
                }
            }
        case .button(let d):
            guard d.device == device, case .side(let b) = d.button else { return }
            decide(d, button: b)
        case .pendingCleared(let p):
            guard p.device == device, case .side(let b) = p.button else { return }
            writeHeld(b, at: p.time, into: &out)
        case .canvas(let state, let time):
            let wanted = capture && state != .minimized
            guard wanted != captured else { return }
            captured = wanted
            if wanted { leaveProximity(at: time, into: &out) } else { returnToProximity(at: time, into: &out) }
        }
    }

    private mutating func decide(_ d: ButtonDecision, button b: SideButton) {
        let bit: UInt8 = 1 << UInt8(b.rawValue)
        switch modes[b.rawValue] {
        case .immediate:
            return
        case .never:
            if !d.implicit { dropKeys |= bit }
            return
        case .deferred:
            break
        }
        guard !d.implicit else { return }   // no event behind it; a held press is written by the pendingCleared that follows
        switch (d.pressed, d.verdict) {
        case (true, .first):
            // While the tip touches, a press is a drag: it goes out at once.
            if !tipDown {
                held[b.rawValue] = .pressed(d.time)
                dropKeys |= bit
            }
        case (true, .doublePress):
            held[b.rawValue] = .none      // the first press belongs to the double press
            dropKeys |= bit
        case (_, .bounce), (false, .doublePress):
            dropKeys |= bit
        case (false, .passed):
            if case .pressed(let t) = held[b.rawValue] {
                held[b.rawValue] = .clicked(t)
                dropKeys |= bit
            }
        case (true, .ignored):
            // A press repeating a held one (only a damaged stream has it) stays with it.
            if held[b.rawValue] != .none { dropKeys |= bit }
        case (false, .ignored), (false, .first):
            break
        case (true, .passed):
            break
        }
    }

    private mutating func writeHeld(_ b: SideButton, at time: Microseconds, into out: inout [EvdevEvent]) {
        let h = held[b.rawValue]
        held[b.rawValue] = .none
        guard h != .none, !captured else { return }
        // Already down on the clone (a damaged stream pressed it twice): the release is all that may be missing.
        if cloneKeys & (1 << UInt32(b.evdevCode - 0x140)) == 0 {
            write(EvdevEvent(type: EV.key, code: b.evdevCode, value: 1, time: time), into: &out)
            report(at: time, into: &out)
        }
        if case .clicked = h {
            write(EvdevEvent(type: EV.key, code: b.evdevCode, value: 0, time: time), into: &out)
            report(at: time, into: &out)
        }
    }

    // MARK: Raw frames

    /// The real node's frame (without its SYN_REPORT), after its inputs'
    /// effects went through `apply`.
    public mutating func rawFrame(_ events: some Collection<EvdevEvent>, at time: Microseconds, into out: inout [EvdevEvent]) {
        defer { dropKeys = 0 }
        for e in events { track(e) }
        guard !captured else { return }
        let start = out.count
        var wroteX = false, wroteY = false
        for var e in events {
            if e.type == EV.key, let b = SideButton(evdevCode: e.code) {
                if dropKeys & (1 << UInt8(b.rawValue)) != 0 { continue }
                // The clone already has it so (a press the rule ignored): the kernel would drop it anyway.
                if (cloneKeys & (1 << UInt32(e.code - 0x140)) != 0) == (e.value != 0) { continue }
            }
            if e.type == EV.abs, e.code == ABS.x, let a = adjusted { e.value = a.x }
            if e.type == EV.abs, e.code == ABS.y, let a = adjusted { e.value = a.y }
            if e.type == EV.abs, e.code == ABS.x { wroteX = true }
            if e.type == EV.abs, e.code == ABS.y { wroteY = true }
            if e.isReport { continue }
            write(e, into: &out)
        }
        // Precision began or ended without the pen moving: the cursor still has to get there.
        if realKeys & Self.toolMask != 0 {
            let x = adjusted?.x ?? realAbs[Int(ABS.x)]
            let y = adjusted?.y ?? realAbs[Int(ABS.y)]
            if !wroteX, x != cloneX, xInfo != nil { write(EvdevEvent(type: EV.abs, code: ABS.x, value: x, time: time), into: &out) }
            if !wroteY, y != cloneY, yInfo != nil { write(EvdevEvent(type: EV.abs, code: ABS.y, value: y, time: time), into: &out) }
        }
        if out.count > start { report(at: time, into: &out) }
    }

    private static let toolMask: UInt32 = 0xff   // BTN_TOOL_PEN ... BTN_TOOL_LENS (0x140-0x147)

    private mutating func track(_ e: EvdevEvent) {
        if e.type == EV.abs, Int(e.code) < ABS.count {
            realAbs[Int(e.code)] = e.value
        } else if e.type == EV.key, e.code >= 0x140, e.code < 0x160 {
            let bit: UInt32 = 1 << UInt32(e.code - 0x140)
            realKeys = e.value != 0 ? realKeys | bit : realKeys & ~bit
        }
    }

    private mutating func write(_ e: EvdevEvent, into out: inout [EvdevEvent]) {
        out.append(e)
        if e.type == EV.abs {
            if e.code == ABS.x { cloneX = e.value } else if e.code == ABS.y { cloneY = e.value }
        } else if e.type == EV.key, e.code >= 0x140, e.code < 0x160 {
            let bit: UInt32 = 1 << UInt32(e.code - 0x140)
            cloneKeys = e.value != 0 ? cloneKeys | bit : cloneKeys & ~bit
        }
    }

    private func report(at time: Microseconds, into out: inout [EvdevEvent]) {
        out.append(EvdevEvent(type: EV.syn, code: SYN.report, value: 0, time: time))
    }

    // MARK: Capture

    /// The clone's tool leaves: touch, side buttons, then the tool keys.
    private mutating func leaveProximity(at time: Microseconds, into out: inout [EvdevEvent]) {
        guard cloneKeys & Self.toolMask != 0 else { return }
        for code in [BTN.touch, BTN.stylus, BTN.stylus2, BTN.stylus3] + (0..<8).map({ 0x140 + UInt16($0) })
        where cloneKeys & (1 << UInt32(code - 0x140)) != 0 {
            write(EvdevEvent(type: EV.key, code: code, value: 0, time: time), into: &out)
        }
        report(at: time, into: &out)
    }

    /// The pen comes back where it is, hovering (a tip already down starts
    /// nothing on the desktop until it lifts and touches again).
    private mutating func returnToProximity(at time: Microseconds, into out: inout [EvdevEvent]) {
        guard realKeys & Self.toolMask != 0 else { return }
        for code in absCodes {
            var value = realAbs[Int(code)]
            if code == ABS.x, let a = adjusted { value = a.x }
            if code == ABS.y, let a = adjusted { value = a.y }
            write(EvdevEvent(type: EV.abs, code: code, value: value, time: time), into: &out)
        }
        for n in 0..<8 where realKeys & (1 << UInt32(n)) != 0 {
            write(EvdevEvent(type: EV.key, code: 0x140 + UInt16(n), value: 1, time: time), into: &out)
        }
        report(at: time, into: &out)
    }

    private func units(_ normalised: Double, _ info: AbsInfo?) -> Int32 {
        guard let info else { return 0 }
        let span = Double(info.maximum) - Double(info.minimum)
        return Int32((Double(info.minimum) + normalised * span).rounded())
    }
}
