// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Precision mode")
struct PrecisionTests {
    @Test func scaleRunsFromTheMinimumAtNoPressureToOneAtFullSpeedPressure() {
        let curve = PrecisionCurve(PrecisionConfig())
        #expect(curve.scale(pressure: 0) == 0.3)
        #expect(abs(curve.scale(pressure: 0.3) - 0.65) < 1e-9, "linear: halfway to full speed")
        #expect(curve.scale(pressure: 0.6) == 1)
        #expect(curve.scale(pressure: 1) == 1)
        #expect(curve.scale(pressure: .nan) == 0.3, "a broken sample counts as no pressure")
    }

    @Test func scaleNeverDecreasesAsPressureRisesForAnyCurveInTheUnitSquare() {
        var config = PrecisionConfig()
        for c in [PressureCurve(x1: 0, y1: 0.05, x2: 0.95, y2: 1), PressureCurve(x1: 0.05, y1: 0, x2: 1, y2: 0.95),
                  PressureCurve(x1: 1, y1: 0, x2: 0, y2: 1), PressureCurve(x1: 0, y1: 1, x2: 1, y2: 0)] {
            config.curve = c
            let curve = PrecisionCurve(config)
            var previous = 0.0
            for i in 0...1000 {
                let s = curve.scale(pressure: Double(i) / 1000)
                #expect(s >= previous - 1e-12, "curve \(c) at \(i)")
                previous = s
            }
            #expect(curve.scale(pressure: 0) == config.minimumScale)
            #expect(curve.scale(pressure: 1) == 1)
        }
    }

    @Test func aSofterCurveSlowsLessThanLinearAtTheSamePressure() {
        var soft = PrecisionConfig()
        soft.curve = PressureCurve(x1: 0, y1: 0.5, x2: 0.5, y2: 1)
        #expect(PrecisionCurve(soft).scale(pressure: 0.2) > PrecisionCurve(PrecisionConfig()).scale(pressure: 0.2))
    }

    @Test func theAdjustedPositionIntegratesScaledMotionWhileTheTipIsDown() {
        var h = EngineHarness()
        h.engine.publishesSamples = true
        h.command(.precision(.enable), at: 0)
        h.enter(at: 0, axes: PenAxes(x: 0.5, y: 0.5))
        h.send(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0)), at: 10)
        var last: PenSample?
        var engineEffects = Effects()
        h.engine.handle(.motion(h.pen, PenAxes(x: 0.6, y: 0.5, pressure: 0)), at: EngineHarness.us(20), into: &engineEffects)
        last = engineEffects.samples.last
        #expect(abs(last!.adjustedX - 0.53) < 1e-12, "0.1 of raw motion at scale 0.3")
        #expect(last!.adjustedY == 0.5)
        engineEffects.removeAll()
        h.engine.handle(.motion(h.pen, PenAxes(x: 0.7, y: 0.4, pressure: 0.6)), at: EngineHarness.us(30), into: &engineEffects)
        last = engineEffects.samples.last
        #expect(abs(last!.adjustedX - 0.63) < 1e-12, "full pressure: full speed")
        #expect(abs(last!.adjustedY - 0.4) < 1e-12)
        engineEffects.removeAll()
        h.engine.handle(.tipUp(h.pen, PenAxes(x: 0.7, y: 0.4)), at: EngineHarness.us(40), into: &engineEffects)
        last = engineEffects.samples.last
        #expect(last!.adjustedX == 0.7 && last!.adjustedY == 0.4, "hovering: the raw position")
    }

    @Test func theAdjustedPositionIsRawAtTipDownAndWhileDisabled() {
        var h = EngineHarness()
        h.engine.publishesSamples = true
        h.enter(at: 0)
        var fx = Effects()
        h.engine.handle(.tipDown(h.pen, PenAxes(x: 0.2, y: 0.2, pressure: 0.1)), at: EngineHarness.us(10), into: &fx)
        h.engine.handle(.motion(h.pen, PenAxes(x: 0.4, y: 0.3, pressure: 0.1)), at: EngineHarness.us(20), into: &fx)
        #expect(fx.samples.map(\.adjustedX) == [0.2, 0.4], "disabled: no scaling")
        _ = h.engine.perform(.precision(.enable), at: EngineHarness.us(25), into: &fx)
        fx.removeAll()
        h.engine.handle(.tipUp(h.pen, PenAxes(x: 0.4, y: 0.3)), at: EngineHarness.us(30), into: &fx)
        h.engine.handle(.tipDown(h.pen, PenAxes(x: 0.8, y: 0.8, pressure: 0.1)), at: EngineHarness.us(40), into: &fx)
        #expect(fx.samples.last!.adjustedX == 0.8, "a new stroke starts where the pen is: no jump")
    }

    @Test func theAdjustedPositionStaysOnTheSurface() {
        var h = EngineHarness()
        h.engine.publishesSamples = true
        h.command(.precision(.enable), at: 0)
        h.enter(at: 0, axes: PenAxes(x: 0.5, y: 0.5))
        var fx = Effects()
        h.engine.handle(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0)), at: EngineHarness.us(10), into: &fx)
        h.engine.handle(.motion(h.pen, PenAxes(x: 1, y: 0.5, pressure: 0)), at: EngineHarness.us(20), into: &fx)
        h.engine.handle(.motion(h.pen, PenAxes(x: 0, y: 0.5, pressure: 1)), at: EngineHarness.us(30), into: &fx)
        #expect(fx.samples.last!.adjustedX == 0)
    }

    @Test func activeFollowsPressureWithHysteresisAndReportsOnlyChanges() {
        var h = EngineHarness()
        h.command(.precision(.enable), at: 0)
        h.enter(at: 0)
        h.send(.tipDown(h.pen, PenAxes(pressure: 0.1)), at: 10)
        #expect(h.precisionEvents.last?.active == true)
        let afterDown = h.precisionEvents.count
        // Oscillating inside the 0.55-0.6 band never flips the flag.
        for (i, p) in [0.56, 0.58, 0.57, 0.59, 0.56].enumerated() {
            h.send(.motion(h.pen, PenAxes(pressure: p)), at: 20 + Double(i))
        }
        #expect(h.precisionEvents[afterDown...].allSatisfy { $0.active }, "no flicker inside the band")
        h.send(.motion(h.pen, PenAxes(pressure: 0.6)), at: 30)
        #expect(h.precisionEvents.last?.active == false)
        #expect(h.precisionEvents.last?.scale == 1)
        for (i, p) in [0.58, 0.56, 0.57, 0.59].enumerated() {
            h.send(.motion(h.pen, PenAxes(pressure: p)), at: 40 + Double(i))
        }
        #expect(h.precisionEvents.last?.active == false, "re-activates only below 0.55")
        h.send(.motion(h.pen, PenAxes(pressure: 0.5)), at: 50)
        #expect(h.precisionEvents.last?.active == true)
        #expect(h.precisionEvents.count - afterDown < 10)
    }

    @Test func aSteadyStrokeProducesNoPrecisionEventsPerSample() {
        var h = EngineHarness()
        h.command(.precision(.enable), at: 0)
        h.enter(at: 0)
        h.send(.tipDown(h.pen, PenAxes(x: 0, pressure: 0.2)), at: 10)
        let before = h.precisionEvents.count
        for i in 1...200 {
            h.send(.motion(h.pen, PenAxes(x: Double(i) / 400, pressure: 0.2 + Double(i % 3) * 0.01)), at: 10 + Double(i))
        }
        #expect(h.precisionEvents.count == before)
    }

    @Test func liftingThePenEndsActivePrecision() {
        var h = EngineHarness()
        h.command(.precision(.enable), at: 0)
        h.enter(at: 0)
        h.send(.tipDown(h.pen, PenAxes(pressure: 0.1)), at: 10)
        h.send(.tipUp(h.pen, PenAxes()), at: 20)
        #expect(h.precisionEvents.last?.active == false)
        #expect(h.engine.precisionActive == false)
    }

    @Test func commandsEnableDisableAndToggleAndSayWhenUnchanged() {
        var h = EngineHarness()
        #expect(h.command(.precision(.disable), at: 0) == .unchanged(reason: "precision is already disabled"))
        #expect(h.command(.precision(.toggle), at: 1) == .done)
        #expect(h.engine.precisionEnabled)
        #expect(h.precisionEvents.last == PrecisionEvent(device: nil, enabled: true, active: false, scale: 1, source: .command, time: EngineHarness.us(1)))
        #expect(h.command(.precision(.enable), at: 2) == .unchanged(reason: "precision is already enabled"))
        #expect(h.command(.precision(.disable), at: 3) == .done)
        #expect(!h.engine.precisionEnabled)
    }

    @Test func aDoublePressOfTheUpperButtonTogglesPrecisionFromThePen() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.doubleClick(.stylus2, at: 0)
        #expect(h.engine.precisionEnabled)
        #expect(h.precisionEvents.last?.source == .pen)
        h.doubleClick(.stylus2, at: 1000)
        #expect(!h.engine.precisionEnabled)
    }
}
