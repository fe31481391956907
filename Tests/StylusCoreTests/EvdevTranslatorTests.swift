// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Evdev frames to pen input")
struct EvdevTranslatorTests {
    static func penDescription(buttons: [UInt16] = [BTN.stylus, BTN.stylus2], resolution: Int32 = 0) -> DeviceDescription {
        var d = DeviceDescription(name: "Test Pen")
        for code in [BTN.toolPen, BTN.toolRubber, BTN.touch] + buttons { d.enable(type: EV.key, code: code) }
        for code in [ABS.x, ABS.y, ABS.pressure, ABS.tiltX, ABS.tiltY] { d.enable(type: EV.abs, code: code) }
        d.absInfo[ABS.x] = AbsInfo(minimum: 0, maximum: 1000, resolution: resolution)
        d.absInfo[ABS.y] = AbsInfo(minimum: 0, maximum: 500, resolution: resolution)
        d.absInfo[ABS.pressure] = AbsInfo(minimum: 0, maximum: 2047)
        d.absInfo[ABS.tiltX] = AbsInfo(minimum: 0, maximum: 127)
        d.absInfo[ABS.tiltY] = AbsInfo(minimum: 0, maximum: 127)
        return d
    }

    struct Feeder {
        var translator: EvdevTranslator
        var out: [TimedPenInput] = []
        init(_ d: DeviceDescription) { translator = EvdevTranslator(device: DeviceID(1), description: d) }
        mutating func frame(_ t: Microseconds, _ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events { translator.feed(type: type, code: code, value: value, time: t, into: &out) }
            translator.feed(type: EV.syn, code: SYN.report, value: 0, time: t, into: &out)
        }
        var kinds: [String] {
            out.map {
                switch $0.input {
                case .proximityIn(_, let tool, _): "in:\(tool.type.rawValue)"
                case .proximityOut: "out"
                case .tipDown: "down"
                case .tipUp: "up"
                case .motion: "motion"
                case .button(_, let b, let pressed): "\(b)\(pressed ? "+" : "-")"
                case .deviceAdded, .deviceRemoved: "device"
                }
            }
        }
    }

    @Test func aFrameIsReadAsItsStateProximityInThenTipThenButtonsThenProximityOut() {
        var f = Feeder(Self.penDescription())
        f.frame(100, [(EV.key, BTN.stylus, 1), (EV.abs, ABS.x, 10), (EV.key, BTN.touch, 1), (EV.abs, ABS.pressure, 500), (EV.key, BTN.toolPen, 1)])
        f.frame(200, [(EV.key, BTN.stylus, 0), (EV.key, BTN.touch, 0), (EV.abs, ABS.pressure, 0), (EV.key, BTN.toolPen, 0)])
        #expect(f.kinds == ["in:pen", "down", "BTN_STYLUS+", "up", "BTN_STYLUS-", "out"])
        #expect(f.out.map(\.time) == [100, 100, 100, 200, 200, 200])
    }

    @Test func aPressInTheFrameThatLiftsTheTipComesAfterTheTipUpInEitherOrder() {
        let orders: [[(UInt16, UInt16, Int32)]] = [[(EV.key, BTN.stylus, 1), (EV.key, BTN.touch, 0), (EV.abs, ABS.pressure, 0)],
                                                   [(EV.abs, ABS.pressure, 0), (EV.key, BTN.touch, 0), (EV.key, BTN.stylus, 1)]]
        for events in orders {
            var f = Feeder(Self.penDescription())
            f.frame(100, [(EV.key, BTN.toolPen, 1), (EV.abs, ABS.pressure, 500), (EV.key, BTN.touch, 1)])
            f.frame(200, events)
            #expect(f.kinds == ["in:pen", "down", "up", "BTN_STYLUS+"])
        }
    }

    @Test func aButtonPressedAndReleasedInOneFrameChangedNothing() {
        var f = Feeder(Self.penDescription())
        f.frame(100, [(EV.key, BTN.toolPen, 1)])
        f.frame(200, [(EV.key, BTN.stylus, 1), (EV.key, BTN.stylus, 0)])
        f.frame(300, [(EV.key, BTN.stylus, 1)])
        f.frame(400, [(EV.key, BTN.stylus, 0), (EV.key, BTN.stylus, 1)])   // still down at SYN_REPORT
        f.frame(500, [(EV.key, BTN.stylus, 0)])
        #expect(f.kinds == ["in:pen", "BTN_STYLUS+", "BTN_STYLUS-"])
        #expect(f.out.map(\.time) == [100, 300, 500])
    }

    @Test func axesAreNormalisedAndConvertedToMillimetresAndDegrees() {
        var f = Feeder(Self.penDescription(resolution: 100))
        f.frame(1, [(EV.key, BTN.toolPen, 1), (EV.abs, ABS.x, 250), (EV.abs, ABS.y, 500), (EV.abs, ABS.pressure, 2047),
                    (EV.abs, ABS.tiltX, 127), (EV.abs, ABS.tiltY, 0)])
        guard case .proximityIn(_, _, let axes) = f.out.first?.input else { Issue.record("no proximity"); return }
        #expect(axes.x == 0.25)
        #expect(axes.y == 1)
        #expect(axes.xMM == 2.5)
        #expect(axes.pressure == 1)
        #expect(axes.tiltX == 64, "no resolution: the range spans -64...64 degrees")
        #expect(axes.tiltY == -64)
    }

    @Test func millimetresAreUnknownWithoutResolution() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.key, BTN.toolPen, 1), (EV.abs, ABS.x, 250)])
        guard case .proximityIn(_, _, let axes) = f.out.first?.input else { Issue.record("no proximity"); return }
        #expect(axes.xMM == nil)
    }

    @Test func aStreamThatStartsMidHoverIsTreatedAsAPenInProximity() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.abs, ABS.x, 10)])
        f.frame(2, [(EV.abs, ABS.x, 20)])
        f.frame(3, [(EV.key, BTN.toolPen, 0)])
        #expect(f.kinds == ["in:pen", "motion", "out"])
    }

    @Test func aToolChangeWithinOneFrameLeavesThenEnters() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.key, BTN.toolPen, 1), (EV.msc, MSC.serial, 7)])
        f.frame(2, [(EV.key, BTN.toolPen, 0), (EV.key, BTN.toolRubber, 1), (EV.msc, MSC.serial, -2)])
        #expect(f.kinds == ["in:pen", "out", "in:eraser"])
        guard case .proximityIn(_, let tool, _) = f.out.last?.input else { Issue.record("no proximity"); return }
        #expect(tool.serial == 0xffff_fffe, "MSC_SERIAL is an unsigned 32-bit serial")
    }

    @Test func sideButtonsReportedOutOfProximityStillReachTheEngine() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.key, BTN.toolPen, 1)])
        f.frame(2, [(EV.key, BTN.toolPen, 0)])
        f.frame(3, [(EV.key, BTN.stylus, 1)])
        f.frame(4, [(EV.abs, ABS.x, 5)])
        #expect(f.kinds == ["in:pen", "out", "BTN_STYLUS+"], "axes out of proximity are dropped, buttons are not")
    }

    @Test func leavingProximityWhileTouchingLiftsTheTipFirst() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.key, BTN.toolPen, 1), (EV.key, BTN.touch, 1), (EV.abs, ABS.pressure, 300)])
        f.frame(2, [(EV.key, BTN.toolPen, 0)])
        #expect(f.kinds == ["in:pen", "down", "up", "out"])
    }

    /// libinput's contact for a pen with a pressure axis: touching from 5 % of the range,
    /// lifted at 1 % or less; BTN_TOUCH is not looked at. The desktop sees that tip.
    @Test func withAPressureAxisTheTipFollowsPressureAsLibinputDecidesIt() {
        var f = Feeder(Self.penDescription())   // pressure 0...2047: touches at 102, lifts at 20
        f.frame(1, [(EV.key, BTN.toolPen, 1)])
        f.frame(2, [(EV.key, BTN.touch, 1), (EV.abs, ABS.pressure, 101)])   // BTN_TOUCH, too light: hovering
        f.frame(3, [(EV.abs, ABS.pressure, 102)])
        f.frame(4, [(EV.abs, ABS.pressure, 21)])                            // between the two: still touching
        f.frame(5, [(EV.abs, ABS.pressure, 20)])
        f.frame(6, [(EV.key, BTN.touch, 0), (EV.abs, ABS.pressure, 0)])
        #expect(f.kinds == ["in:pen", "motion", "down", "motion", "up", "motion"])
    }

    @Test func eventsAfterSynDroppedAreDiscardedUntilTheNextReport() {
        var f = Feeder(Self.penDescription())
        f.frame(1, [(EV.key, BTN.toolPen, 1)])
        f.translator.feed(type: EV.syn, code: SYN.dropped, value: 0, time: 2, into: &f.out)
        f.frame(2, [(EV.key, BTN.stylus, 1)])
        f.frame(3, [(EV.abs, ABS.x, 5)])
        #expect(f.kinds == ["in:pen", "motion"])
    }

    @Test func timeNeverRunsBackwards() {
        var f = Feeder(Self.penDescription())
        f.frame(100, [(EV.key, BTN.toolPen, 1)])
        f.frame(50, [(EV.abs, ABS.x, 5)])
        #expect(f.out.map(\.time) == [100, 100])
    }

    @Test func padButtonsAreNumberedInKernelCodeOrderLikeLibinput() {
        var d = DeviceDescription(name: "Pad")
        for code in [BTN.n0 + 1, BTN.n0 + 3, BTN.a, BTN.stylus] { d.enable(type: EV.key, code: code) }
        #expect(d.kind == .pad)
        #expect(d.padButtonCodes == [BTN.n0 + 1, BTN.n0 + 3, BTN.a])
        var f = Feeder(d)
        f.frame(1, [(EV.key, BTN.a, 1)])
        f.frame(2, [(EV.key, BTN.stylus, 1)])    // pads advertise BTN_STYLUS; it is not a pen button here
        #expect(f.kinds == ["pad-2+"])
    }
}

@Suite("Configuration validation")
struct EngineConfigTests {
    @Test func theDefaultsAreValid() {
        #expect(EngineConfig().problems().isEmpty)
        let c = EngineConfig()
        #expect(c.doublePressIntervalMS == 500 && c.debounceMS == 25 && c.transitionMS == 250)
        #expect(c.binding(for: .side(.stylus)) == .toggleCanvas)
        #expect(c.binding(for: .side(.stylus2)) == .togglePrecision)
        #expect(c.binding(for: .side(.stylus3)) == .none)
        #expect(c.binding(for: .pad(0)) == .none)
    }

    @Test func anIntervalOutOfRangeIsOneProblemNotAlsoTheDebounces() {
        var c = EngineConfig()
        c.doublePressIntervalMS = 5
        #expect(c.problems().map(\.key) == ["interval_ms"], "\(c.problems())")
    }

    @Test func eachOutOfRangeValueIsNamedByItsKey() {
        var c = EngineConfig()
        c.doublePressIntervalMS = 149
        c.debounceMS = 101
        c.precision.minimumScale = 0
        c.precision.curve.x1 = 1.5
        c.padBindings[64] = .toggleCanvas
        let keys = c.problems().map(\.key)
        #expect(keys.contains("interval_ms"))
        #expect(keys.contains("debounce_ms"))
        #expect(keys.contains("precision.minimum_scale"))
        #expect(keys.contains("precision.curve.x1"))
        #expect(keys.contains("bindings.pad-64"))
        #expect(c.problems().first { $0.key == "interval_ms" }?.message == "149 ms is outside 150-1000 ms")
    }

    @Test func theIntervalBoundsAreInclusive() {
        for ms in [150, 1000] {
            var c = EngineConfig()
            c.doublePressIntervalMS = ms
            #expect(c.problems().isEmpty)
        }
        var c = EngineConfig()
        c.doublePressIntervalMS = 1001
        #expect(!c.problems().isEmpty)
    }

    @Test func buttonNamesParse() {
        #expect(ButtonID(name: "BTN_STYLUS2") == .side(.stylus2))
        #expect(ButtonID(name: "pad-12") == .pad(12))
        #expect(ButtonID(name: "pad-64") == nil)
        #expect(ButtonID(name: "pad-x") == nil)
        #expect(ButtonID(name: "BTN_LEFT") == nil)
    }
}
