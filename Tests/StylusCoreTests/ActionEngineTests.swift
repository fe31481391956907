// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

/// What the engine does with each action bound to a double press: the canvas
/// ones itself, the others handed to the shell with the event to amend.
@Suite("double-press actions in the engine")
struct ActionEngineTests {
    static func harness(_ action: Action, open: Bool = false) -> EngineHarness {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: action)
        var h = open ? EngineHarness.open(config: config) : EngineHarness(config: config)
        if !open { h.enter(at: 0) }
        return h
    }

    @Test func openAndMinimizeCanvasAreDoneByTheEngineAndSayWhenNothingChanged() {
        var h = Self.harness(.openCanvas)
        h.doubleClick(.stylus2, at: 100)
        #expect(h.engine.canvas.state == .opening || h.engine.canvas.state == .open)
        #expect(h.canvasEvents.first?.source == .pen && h.canvasEvents.first?.cause == .request)
        #expect(h.doublePresses.last?.outcome == .applied)
        h.advance(to: 2000)
        #expect(h.engine.canvas.state == .open)
        h.doubleClick(.stylus2, at: 3000)
        #expect(h.doublePresses.last?.outcome == .ignored(reason: "canvas is already open"))
        #expect(h.engine.canvas.state == .open)

        var m = Self.harness(.minimizeCanvas, open: true)
        m.doubleClick(.stylus2, at: 100)
        #expect(m.engine.canvas.state == .minimizing)
        m.advance(to: 2000)
        m.doubleClick(.stylus2, at: 3000)
        #expect(m.doublePresses.last?.outcome == .ignored(reason: "canvas is already minimized"))
    }

    @Test func clearCanvasRemovesEveryStrokeFromThePen() {
        var h = Self.harness(.clearCanvas, open: true)
        h.stroke(at: 10, through: UndoTests.line)
        h.stroke(at: 200, through: UndoTests.line)
        #expect(h.engine.canvas.strokes.count == 2)
        let saves = h.persistRequests
        h.doubleClick(.stylus2, at: 1000)
        #expect(h.engine.canvas.strokes.isEmpty && h.engine.canvas.pointCount == 0)
        let clear = h.canvasEvents.last
        #expect(clear?.cause == .clear && clear?.source == .pen && clear?.strokeCount == 0)
        #expect(h.doublePresses.last?.outcome == .applied)
        #expect(h.persistRequests > saves)
        h.doubleClick(.stylus2, at: 3000)
        #expect(h.doublePresses.last?.outcome == .ignored(reason: "canvas was already empty"))
    }

    /// A bare engine with `action` bound to BTN_STYLUS2 and a pen in
    /// proximity, after a double press (presses 300 ms apart): the requests it
    /// handed over, each with the event its index points at.
    static func doublePress(_ action: Action) -> (engine: Engine, handed: [(request: ActionRequest, event: EngineEvent)]) {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: action)
        var engine = Engine(config: config)
        var effects = Effects()
        let pen = DeviceID(1)
        engine.handle(.deviceAdded(pen, DeviceInfo(name: "p", kind: .pen)), at: 1_000, into: &effects)
        engine.handle(.proximityIn(pen, Tool(type: .pen, serial: 0), PenAxes(x: 0.5, y: 0.5)), at: 2_000, into: &effects)
        var handed: [(request: ActionRequest, event: EngineEvent)] = []
        for (t, pressed) in [(100_000, true), (180_000, false), (400_000, true), (480_000, false)] as [(Microseconds, Bool)] {
            effects.removeAll()
            engine.handle(.button(pen, .side(.stylus2), pressed: pressed), at: t, into: &effects)
            handed += effects.actionRequests.map { ($0, effects.events[$0.eventIndex]) }
        }
        return (engine, handed)
    }

    @Test(arguments: [Action.preset("fast"), .exec("true"), .key(KeyChord(modifiers: [29], key: 44)), .click(.right)])
    func shellActionsAreHandedOverWithTheirEventAndChangeNothingInTheEngine(action: Action) {
        let (engine, handed) = Self.doublePress(action)
        #expect(handed.count == 1)
        let request = handed.first?.request
        #expect(request?.action == action && request?.button == .side(.stylus2) && request?.device == DeviceID(1))
        #expect(request?.time == 400_000)
        guard case .doublePress(let event)? = handed.first?.event else { Issue.record("the index is not the double-press event: \(handed)"); return }
        #expect(event.action == action && event.outcome == .applied && event.time == 400_000)
        // Against the same pen input bound to nothing: the pen's proximity alone puts it in the table of tools seen.
        #expect(engine.canvas == Self.doublePress(.none).engine.canvas && !engine.precisionEnabled, "the engine itself does nothing for \(action)")
    }

    @Test func engineActionsHandNothingOver() {
        for action in [Action.toggleCanvas, .togglePrecision, .undo, .clearCanvas, .openCanvas, .minimizeCanvas, .none] {
            #expect(!action.isPerformedByShell)
            #expect(Self.doublePress(action).handed.isEmpty, "\(action)")
        }
    }

    @Test func aSinglePressHandsNothingOver() {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: .exec("true"))
        var engine = Engine(config: config)
        var effects = Effects()
        let pen = DeviceID(1)
        engine.handle(.deviceAdded(pen, DeviceInfo(name: "p", kind: .pen)), at: 1_000, into: &effects)
        engine.handle(.button(pen, .side(.stylus2), pressed: true), at: 100_000, into: &effects)
        engine.handle(.button(pen, .side(.stylus2), pressed: false), at: 180_000, into: &effects)
        engine.handle(.button(pen, .side(.stylus2), pressed: true), at: 900_000, into: &effects)
        engine.handle(.button(pen, .side(.stylus2), pressed: false), at: 980_000, into: &effects)
        #expect(effects.actionRequests.isEmpty, "presses 800 ms apart are no double press")
    }

    @Test func keyNamesAreTheKernelsAndAliasesResolve() {
        #expect(KeyChord.code(named: "Z") == 44 && KeyChord.code(named: "KEY_Z") == 44 && KeyChord.code(named: "z") == 44)
        #expect(KeyChord.code(named: "CTRL") == 29 && KeyChord.code(named: "RIGHTCTRL") == 97)
        #expect(KeyChord.code(named: "F12") == 88 && KeyChord.code(named: "ENTER") == 28 && KeyChord.code(named: "RETURN") == 28)
        #expect(KeyChord.code(named: "SUPER") == 125 && KeyChord.code(named: "ESCAPE") == 1)
        #expect(KeyChord.code(named: "NOPE") == nil && KeyChord.code(named: "") == nil)
        // An evdev name is never shadowed by an alias of the same spelling, and KEY_ is never an alias.
        #expect(KeyChord.code(named: "KEY_PRINT") == 210 && KeyChord.code(named: "PRINT") == 210 && KeyChord.code(named: "PRINTSCREEN") == 99)
        #expect(KeyChord.code(named: "KEY_CTRL") == nil, "CTRL is an alias, not an evdev name")
        #expect(KeyChord(modifiers: [29, 56], key: 111).pressOrder == [29, 56, 111])
    }

    @Test func everyFormIsListedWithAnExampleThatParses() {
        #expect(Action.Form.allCases.count == 21)
        for form in Action.Form.allCases {
            guard case .success(let action) = Action.parse(form.example) else { Issue.record("\(form.example) does not parse"); continue }
            #expect(action.form == form)
            #expect(Action.spelledOut.contains(form.spelling))
            for word in form.completions where !word.hasSuffix(":") && !word.hasSuffix("#") {
                #expect(Action(rawValue: word)?.form == form, "\(word)")
            }
        }
    }
}
