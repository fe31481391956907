// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput
import Testing

/// Filter mode holds a side button's presses back only when a double press of
/// it does something for the pen in proximity: with `[pens.NAME.bindings]`
/// one pen's double press is consumed where another's reaches the desktop.
@Suite("Per-pen bindings in filter mode")
struct PenBindingsCloneTests {
    static let penA: UInt64 = 0xA1
    static let penB: UInt64 = 0xB2

    /// `[bindings]`: BTN_STYLUS toggles the canvas, BTN_STYLUS3 nothing;
    /// pen A swaps them: BTN_STYLUS3 clears, BTN_STYLUS does nothing.
    static let config: EngineConfig = {
        var c = EngineConfig()
        c.sideButtonBindings = [.toggleCanvas, .togglePrecision, .none]
        c.pens = [PenConfig(name: "a", serial: penA, bindings: ["BTN_STYLUS3": .clearCanvas, "BTN_STYLUS": .none])]
        return c
    }()

    static let description: DeviceDescription = {
        var d = CloneFilterProperties.description
        d.enable(type: EV.msc, code: MSC.serial)
        return d
    }()

    struct Run {
        var clone: [EvdevEvent] = []
        var fired: [DoublePressEvent] = []
    }

    /// The pen with `serial` comes in, double-presses `button` (100 ms apart), and leaves.
    static func doublePress(_ button: UInt16, serial: UInt64) -> Run {
        var replay = CloneReplay(description: description, config: config)
        var run = Run()
        var t: Microseconds = 1_000_000
        func frame(_ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events + [(EV.syn, SYN.report, 0)] {
                replay.feed(type: type, code: code, value: value, time: t, onEvent: { event in
                    if case .doublePress(let d) = event { run.fired.append(d) }
                }, onFrames: { run.clone += $0 })
            }
            t += 50_000
        }
        frame([(EV.abs, ABS.x, 10000), (EV.abs, ABS.y, 6000), (EV.key, BTN.toolPen, 1),
               (EV.msc, MSC.serial, Int32(truncatingIfNeeded: serial))])
        frame([(EV.abs, ABS.x, 10010)])
        frame([(EV.key, button, 1)])
        frame([(EV.key, button, 0)])
        frame([(EV.key, button, 1)])
        frame([(EV.key, button, 0)])
        t += 1_000_000
        frame([(EV.abs, ABS.x, 10020)])
        frame([(EV.key, BTN.toolPen, 0)])
        replay.finish(onFrames: { run.clone += $0 })
        return run
    }

    static func presses(_ run: Run, _ code: UInt16) -> Int {
        run.clone.filter { $0.type == EV.key && $0.code == code && $0.value == 1 }.count
    }

    @Test func aButtonOnlyThePenBindsIsWithheldForThatPenAndPassesForAnother() {
        let a = Self.doublePress(BTN.stylus3, serial: Self.penA)
        #expect(a.fired.map(\.action) == [.clearCanvas], "pen A's own binding fires")
        #expect(Self.presses(a, BTN.stylus3) == 0, "pen A's double press reached the desktop: \(a.clone)")
        let b = Self.doublePress(BTN.stylus3, serial: Self.penB)
        #expect(b.fired.allSatisfy { $0.action == .none }, "pen B has BTN_STYLUS3 unbound")
        #expect(Self.presses(b, BTN.stylus3) == 2, "pen B's presses are the desktop's: \(b.clone)")
    }

    @Test func aButtonThePenUnbindsPassesAtOnceForThatPenOnly() {
        let a = Self.doublePress(BTN.stylus, serial: Self.penA)
        #expect(!a.fired.contains { $0.action == .toggleCanvas }, "pen A unbinds BTN_STYLUS")
        #expect(Self.presses(a, BTN.stylus) == 2, "pen A's double press was withheld although it does nothing: \(a.clone)")
        let b = Self.doublePress(BTN.stylus, serial: Self.penB)
        #expect(b.fired.map(\.action) == [.toggleCanvas])
        #expect(Self.presses(b, BTN.stylus) == 0, "pen B's double press toggles the canvas, the desktop must not see it")
    }

    /// Unbound, a press is written with the frame it came in, not at the interval's end.
    @Test func anUnboundPressReachesTheCloneInItsOwnFrame() {
        let a = Self.doublePress(BTN.stylus, serial: Self.penA)
        let first = a.clone.first { $0.type == EV.key && $0.code == BTN.stylus && $0.value == 1 }
        #expect(first?.time == 1_100_000)
    }
}
