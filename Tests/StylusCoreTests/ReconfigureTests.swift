// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

/// A reload replaces the configuration; the precision curve is sampled again
/// only when the precision settings changed (sampling it was most of what a
/// reload cost the engine), and a change must still take effect at once.
@Suite("reconfigure")
struct ReconfigureTests {
    /// Adjusted x after 0.1 of raw motion at no pressure: 0.1 × the minimum scale.
    static func stepAtNoPressure(_ h: inout EngineHarness, from x: Double, at ms: Double) -> Double {
        var effects = Effects()
        h.engine.handle(.motion(h.pen, PenAxes(x: x + 0.1, y: 0.5, pressure: 0)), at: EngineHarness.us(ms), into: &effects)
        return effects.samples.last!.adjustedX
    }

    @Test func aNewMinimumScaleAppliesAtOnceAndAChangeOfTheIntervalKeepsTheScale() {
        var h = EngineHarness()
        h.enter(at: 0, axes: PenAxes(x: 0.1, y: 0.5))
        h.engine.publishesSamples = true
        h.command(.precision(.enable), at: 1)
        h.send(.tipDown(h.pen, PenAxes(x: 0.1, y: 0.5, pressure: 0)), at: 10)
        var config = h.engine.config
        let steps: [(change: (inout EngineConfig) -> Void, scale: Double, why: String)] = [
            ({ _ in }, 0.3, "the default minimum scale"),
            ({ $0.precision.minimumScale = 0.5 }, 0.5, "the new minimum scale"),
            ({ $0.doublePressIntervalMS = 700 }, 0.5, "unchanged by a change of the interval only"),
        ]
        var raw = 0.1, adjusted = 0.1
        for (i, step) in steps.enumerated() {
            step.change(&config)
            h.engine.reconfigure(config)
            let moved = Self.stepAtNoPressure(&h, from: raw, at: Double(20 + 10 * i))
            #expect(abs(moved - (adjusted + step.scale * 0.1)) < 1e-12, "\(step.why)")
            raw += 0.1
            adjusted = moved
        }
        #expect(h.engine.config.doublePressIntervalMS == 700)
    }
}
