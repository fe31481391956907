// SPDX-License-Identifier: MIT
@testable import StylusCore

/// Drives an engine the way the daemon's loop does: due timers fire before
/// each input, and every event is kept for the test to inspect.
struct EngineHarness {
    var engine: Engine
    var events: [EngineEvent] = []
    var output: [OutputEffect] = []
    var samples: [PenSample] = []
    var effects = Effects()
    var persistRequests = 0
    let pen = DeviceID(1)
    /// Milliseconds since an arbitrary origin; inputs take ms, the engine sees µs.
    static let origin: Microseconds = 1_000_000_000

    init(config: EngineConfig = EngineConfig()) {
        engine = Engine(config: config)
        send(.deviceAdded(pen, DeviceInfo(name: "test pen", kind: .pen)), atUS: 0)
        events.removeAll()
        output.removeAll()
    }

    /// A pen in proximity over a canvas opened, and acknowledged, at 0-1 ms.
    static func open(config: EngineConfig = EngineConfig()) -> EngineHarness {
        var h = EngineHarness(config: config)
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.command(.acknowledgeTransition, at: 1)
        return h
    }

    static func us(_ ms: Double) -> Microseconds { origin + Microseconds((ms * 1000).rounded()) }

    mutating func fireTimers(untilUS time: Microseconds) {
        while let deadline = engine.nextDeadline, deadline <= time {
            engine.fireTimers(at: deadline, into: &effects)
            collect()
        }
    }

    mutating func send(_ input: PenInput, atUS time: Microseconds) {
        fireTimers(untilUS: time)
        engine.handle(input, at: time, into: &effects)
        collect()
    }

    mutating func send(_ input: PenInput, at ms: Double) { send(input, atUS: Self.us(ms)) }

    @discardableResult
    mutating func command(_ command: Command, at ms: Double) -> CommandOutcome {
        fireTimers(untilUS: Self.us(ms))
        let outcome = engine.perform(command, at: Self.us(ms), into: &effects)
        collect()
        return outcome
    }

    mutating func advance(to ms: Double) { fireTimers(untilUS: Self.us(ms)) }

    private mutating func collect() {
        events += effects.events
        output += effects.output
        samples += effects.samples
        if effects.stateChanged { persistRequests += 1 }
        effects.removeAll()
    }

    // Pen vocabulary

    mutating func enter(_ tool: ToolType = .pen, serial: UInt64 = 0, toolID: UInt64 = 0, at ms: Double, axes: PenAxes = PenAxes(x: 0.5, y: 0.5)) {
        send(.proximityIn(pen, Tool(type: tool, serial: serial, toolID: toolID), axes), at: ms)
    }

    mutating func leave(at ms: Double) { send(.proximityOut(pen), at: ms) }

    mutating func press(_ button: SideButton = .stylus, at ms: Double) { send(.button(pen, .side(button), pressed: true), at: ms) }
    mutating func release(_ button: SideButton = .stylus, at ms: Double) { send(.button(pen, .side(button), pressed: false), at: ms) }

    /// A click: press at `ms`, release `hold` ms later.
    mutating func click(_ button: SideButton = .stylus, at ms: Double, hold: Double = 80) {
        press(button, at: ms)
        release(button, at: ms + hold)
    }

    /// Two clicks `gap` ms apart, press to press.
    mutating func doubleClick(_ button: SideButton = .stylus, at ms: Double, gap: Double = 300) {
        click(button, at: ms)
        click(button, at: ms + gap)
    }

    /// A stroke from tip-down to tip-up through the given points, 5 ms apart.
    mutating func stroke(at ms: Double, through points: [(Double, Double, Double)]) {
        guard let first = points.first else { return }
        send(.tipDown(pen, PenAxes(x: first.0, y: first.1, pressure: first.2)), at: ms)
        for (i, p) in points.dropFirst().enumerated() {
            send(.motion(pen, PenAxes(x: p.0, y: p.1, pressure: p.2)), at: ms + Double(i + 1) * 5)
        }
        let last = points.last!
        send(.tipUp(pen, PenAxes(x: last.0, y: last.1, pressure: 0)), at: ms + Double(points.count) * 5)
    }

    /// Strokes of generated `[x, y, pressure]` points, 100 ms apart from
    /// `ms`; returns the time after the last.
    @discardableResult
    mutating func draw(_ strokes: [[[Double]]], from ms: Double) -> Double {
        var t = ms
        for stroke in strokes {
            self.stroke(at: t, through: stroke.map { ($0[0], $0[1], $0[2]) })
            t += 100
        }
        return t
    }

    // Event views

    var doublePresses: [DoublePressEvent] {
        events.compactMap { if case .doublePress(let e) = $0 { e } else { nil } }
    }

    var canvasEvents: [CanvasEvent] {
        events.compactMap { if case .canvas(let e) = $0 { e } else { nil } }
    }

    var frames: [PenFrame] {
        output.compactMap { if case .frame(let f) = $0 { f } else { nil } }
    }

    var decisions: [ButtonDecision] {
        output.compactMap { if case .button(let b) = $0 { b } else { nil } }
    }

    var precisionEvents: [PrecisionEvent] {
        events.compactMap { if case .precision(let e) = $0 { e } else { nil } }
    }

    /// Undo until nothing changes, then redo until nothing changes, from `ms` on:
    /// whether the canvas was empty between, and whether the drawing came back whole.
    mutating func undoToEmptyAndRedoToEnd(at ms: Double) -> (emptied: Bool, restored: Bool) {
        let drawing = engine.canvas.strokes
        var steps = 0
        while command(.undo, at: ms + Double(steps)) == .done { steps += 1 }
        let emptied = engine.canvas.strokes.isEmpty
        while command(.redo, at: ms + 1000 + Double(steps)) == .done { steps += 1 }
        let restored = engine.canvas.strokes == drawing && engine.canvas.pointCount == drawing.reduce(0) { $0 + $1.points.count }
        return (emptied, restored)
    }
}
