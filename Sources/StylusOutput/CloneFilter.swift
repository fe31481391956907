// SPDX-License-Identifier: MIT
import StylusCore

/// Decides, frame by frame, what one pen or pad node's clone gets: the real
/// node's frames, unchanged (same values, same order, one SYN_REPORT per
/// frame), except for the three things the engine's output effects ask for —
/// withheld first presses (side buttons, pad buttons), the precision-adjusted
/// position while precision slows the cursor, and the pen leaving proximity
/// while the canvas is open (a pad stays).
///
/// Pure: a replay gives the same frames as live input. Drive it the way the
/// daemon does: `apply` every output effect of the node's inputs (and every
/// canvas effect), then `rawFrame` with the frame those inputs came from.
/// Effects between frames (timers, commands) write their frames at once.
///
/// The filter and the engine agree by construction: the filter decides
/// nothing about a press itself, it follows the engine's verdict, which is
/// made on the frame's state at SYN_REPORT (the tip's change in a frame
/// counts before its buttons, EvdevTranslator). So a press written to the
/// clone (a drag press, or a held press written when its interval ended or
/// the tip touched down) is never part of a double press the engine fires,
/// and a withheld press is always either half of a fired double press or
/// written later as a single click or the start of a drag.
public struct CloneFilter: Sendable {
    public let device: DeviceID
    /// Per button slot: the three side buttons, then the node's pad buttons (pad-0 …):
    /// how a press goes to the clone when the engine says the button is bound.
    private var modes: [Passthrough]
    /// The evdev code of each slot.
    private let codes: [UInt16]
    /// The slot of pad codes 0x100..<0x140 (-1: not a pad button here), as EvdevTranslator numbers them.
    private let padSlots: [Int8]
    private var capture: Bool
    private let isPen: Bool
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
    private var held: [Held]
    /// Slots whose key events in the coming raw frame are not written.
    private var dropSlots: [Int] = []
    /// The clone's pad buttons that are down (bit n = slot 3 + n).
    private var padDown: UInt64 = 0
    /// The position the cursor should have while precision moves it, in device units.
    private var adjusted: (x: Int32, y: Int32)?
    public private(set) var captured = false
    /// The engine's last frame: the tip is down on the canvas's palette.
    private var onPalette = false
    /// A BTN_TOUCH press held from the clone (a tap on the palette): its release is held too.
    private var touchWithheld = false

    public init(device: DeviceID, description: DeviceDescription, filter: FilterConfig) {
        self.device = device
        let pads = description.isPen ? [] : Array(description.padButtonCodes.prefix(ButtonID.maxPadButtons))
        codes = SideButton.allCases.map(\.evdevCode) + pads
        var slots = [Int8](repeating: -1, count: 0x40)
        for (n, code) in pads.enumerated() where code >= 0x100 && code < 0x140 {
            slots[Int(code - 0x100)] = Int8(SideButton.allCases.count + n)
        }
        padSlots = slots
        held = [Held](repeating: .none, count: codes.count)
        modes = codes.indices.map { filter.passthrough(for: ButtonID(slot: $0)) }
        isPen = description.isPen
        capture = filter.captureWhileCanvasOpen && isPen
        dropSlots.reserveCapacity(4)
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
    public mutating func reconfigure(filter: FilterConfig) {
        modes = codes.indices.map { filter.passthrough(for: ButtonID(slot: $0)) }
        capture = filter.captureWhileCanvasOpen && isPen
    }

    /// The canvas state to start from (an output joining a running engine).
    public mutating func start(canvas: CanvasState, at time: Microseconds, into out: inout [EvdevEvent]) {
        apply(.canvas(canvas, time: time), into: &out)
    }

    /// Whether a press is being held back (the grab must stay while it is).
    public var holdsPress: Bool { held.contains { $0 != .none } }

    /// The clone is about to go while its node is given back to the desktop:
    /// a withheld click is written, and every button the clone has down goes
    /// up, so that nothing stays held on the desktop. (A press still held
    /// back while its button is down is dropped: the desktop never saw it,
    /// and gets the button's release from the real node.)
    public mutating func releaseEverything(at time: Microseconds, into out: inout [EvdevEvent]) {
        for s in held.indices {
            if case .clicked = held[s] { writeHeld(s, at: time, into: &out) } else { held[s] = .none }
        }
        var released = false
        for s in codes.indices where cloneHas(s) {
            write(EvdevEvent(type: EV.key, code: codes[s], value: 0, time: time), into: &out)
            released = true
        }
        if released { report(at: time, into: &out) }
    }

    // MARK: Effects

    public mutating func apply(_ effect: OutputEffect, into out: inout [EvdevEvent]) {
        switch effect {
        case .frame(let f):
            guard f.device == device else { return }
            adjusted = f.isAdjusted ? (units(f.adjustedX, xInfo), units(f.adjustedY, yInfo)) : nil
            onPalette = f.onPalette
        case .button(let d):
            guard d.device == device, let s = slot(of: d.button) else { return }
            decide(d, slot: s)
        case .pendingCleared(let p):
            guard p.device == device, let s = slot(of: p.button) else { return }
            writeHeld(s, at: p.time, into: &out)
        case .canvas(let state, let time):
            let wanted = capture && state != .minimized
            guard wanted != captured else { return }
            captured = wanted
            if wanted { leaveProximity(at: time, into: &out) } else { returnToProximity(at: time, into: &out) }
        }
    }

    private func slot(of button: ButtonID) -> Int? {
        switch button {
        case .side(let b): b.rawValue
        case .pad(let n): n + SideButton.allCases.count < codes.count ? n + SideButton.allCases.count : nil
        }
    }

    private func slot(ofCode code: UInt16) -> Int? {
        if let b = SideButton(evdevCode: code) { return b.rawValue }
        guard code >= 0x100, code < 0x140 else { return nil }
        let s = padSlots[Int(code - 0x100)]
        return s >= 0 ? Int(s) : nil
    }

    /// Whether the clone has this button down.
    private func cloneHas(_ s: Int) -> Bool {
        s < SideButton.allCases.count ? cloneKeys & (1 << UInt32(codes[s] - 0x140)) != 0
            : padDown & (1 << UInt64(s - SideButton.allCases.count)) != 0
    }

    private mutating func drop(_ s: Int) { if !dropSlots.contains(s) { dropSlots.append(s) } }

    private mutating func decide(_ d: ButtonDecision, slot s: Int) {
        // Bound or not is the engine's word, for the pen in proximity: its own bindings count.
        switch d.bound ? modes[s] : .immediate {
        case .immediate:
            return
        case .never:
            if !d.implicit { drop(s) }
            return
        case .deferred:
            break
        }
        guard !d.implicit else { return }   // no event behind it; a held press is written by the pendingCleared that follows
        switch (d.pressed, d.verdict) {
        case (true, .first):
            // Held until the engine says what it was: half of a double press
            // (dropped), or not (`pendingCleared`: written then, which is
            // also how a held press starts a button-drag, before the tip).
            held[s] = .pressed(d.time)
            drop(s)
        case (true, .drag):
            // The tip touches at the end of this frame: the press goes out
            // with its frame, and the engine pairs it with nothing.
            break
        case (true, .doublePress):
            held[s] = .none      // the first press belongs to the double press
            drop(s)
        case (_, .bounce), (false, .doublePress):
            drop(s)
        case (false, .passed):
            if case .pressed(let t) = held[s] {
                held[s] = .clicked(t)
                drop(s)
            }
        case (true, .ignored):
            // A press repeating a held one (only a damaged stream has it) stays with it.
            if held[s] != .none { drop(s) }
        case (false, .ignored), (false, .first), (false, .drag):
            break
        case (true, .passed):
            break
        }
    }

    private mutating func writeHeld(_ s: Int, at time: Microseconds, into out: inout [EvdevEvent]) {
        let h = held[s]
        held[s] = .none
        guard h != .none, !captured else { return }
        // Already down on the clone (a damaged stream pressed it twice): the release is all that may be missing.
        if !cloneHas(s) {
            write(EvdevEvent(type: EV.key, code: codes[s], value: 1, time: time), into: &out)
            report(at: time, into: &out)
        }
        if case .clicked = h {
            write(EvdevEvent(type: EV.key, code: codes[s], value: 0, time: time), into: &out)
            report(at: time, into: &out)
        }
    }

    // MARK: Raw frames

    /// The real node's frame (without its SYN_REPORT), after its inputs'
    /// effects went through `apply`.
    public mutating func rawFrame(_ events: [EvdevEvent], at time: Microseconds, into out: inout [EvdevEvent]) {
        defer { dropSlots.removeAll(keepingCapacity: true) }
        for e in events { track(e) }
        guard !captured else { return }
        let start = out.count
        var wroteX = false, wroteY = false
        for (n, var e) in events.enumerated() {
            if e.type == EV.key, let s = slot(ofCode: e.code) {
                if !dropSlots.isEmpty, dropSlots.contains(s) { continue }
                // A button pressed and released in one frame: only its state at SYN_REPORT counts, as for the engine.
                if events[(n + 1)...].contains(where: { $0.type == EV.key && $0.code == e.code }) { continue }
                // The clone already has it so (a press the rule ignored): the kernel would drop it anyway.
                if cloneHas(s) == (e.value != 0) { continue }
            }
            // A tap on the palette selects; with capture off the desktop would
            // otherwise click under it. No touch, and no pressure either: libinput
            // takes a tablet's tip from its pressure where it has one.
            if e.type == EV.key, e.code == BTN.touch {
                if e.value != 0, onPalette {
                    touchWithheld = true
                    continue
                }
                if e.value == 0, touchWithheld {
                    touchWithheld = false
                    continue
                }
            }
            if e.type == EV.abs, e.code == ABS.pressure, onPalette || touchWithheld { e.value = 0 }
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
        } else if e.type == EV.key, e.code >= 0x100, e.code < 0x140, padSlots[Int(e.code - 0x100)] >= 0 {
            let bit: UInt64 = 1 << UInt64(Int(padSlots[Int(e.code - 0x100)]) - SideButton.allCases.count)
            padDown = e.value != 0 ? padDown | bit : padDown & ~bit
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
