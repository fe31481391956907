// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

@Suite("Engine properties")
struct EngineProperties {
    @Test func anySequenceOfTogglesAlternatesTheCanvasState() async {
        // Each step: milliseconds to wait, then a toggle; some land mid-transition.
        await propertyCheck(input: Gen.int(in: 0...600).array(of: 1...30), Gen.bool.array(of: 30)) { gaps, acks in
            var h = EngineHarness()
            var t = 0.0
            for (i, gap) in gaps.enumerated() {
                t += Double(gap)
                h.advance(to: t)
                let before = h.engine.canvas.state
                let outcome = h.command(.toggleCanvas, at: t)
                if before.isTransition {
                    #expect(outcome != .done, "a toggle mid-transition is refused")
                } else {
                    #expect(outcome == .done)
                    #expect(h.engine.canvas.state == (before == .minimized ? .opening : .minimizing))
                }
                if acks[i], h.engine.canvas.state.isTransition {
                    h.command(.acknowledgeTransition, at: t)
                }
            }
            let requests = h.canvasEvents.filter { $0.cause == .request }.map(\.state)
            for (i, state) in requests.enumerated() {
                #expect(state == (i % 2 == 0 ? .opening : .minimizing))
            }
            let settled = h.canvasEvents.filter { $0.cause != .request }.map(\.state)
            for (i, state) in settled.enumerated() {
                #expect(state == (i % 2 == 0 ? .open : .minimized))
            }
        }
    }

    static let point = Gen.double(in: 0...1)
    static let drawing = Gen.double(in: 0...1).array(of: 3).array(of: 1...12).array(of: 1...6)

    @Test func anyDrawingSurvivesAnyNumberOfMinimizeOpenCyclesBitForBit() async {
        await propertyCheck(count: 60, input: Self.drawing, Gen.int(in: 1...8), Gen.bool.array(of: 8)) { strokes, cycles, useAck in
            var h = EngineHarness.open()
            var t = h.draw(strokes, from: 10)
            let drawn = h.engine.canvas.strokes
            #expect(drawn.count == strokes.count)
            for cycle in 0..<cycles {
                h.command(.minimizeCanvas, at: t)
                if useAck[cycle] { h.command(.acknowledgeTransition, at: t + 1) }
                t += 300
                h.command(.openCanvas, at: t)
                if useAck[cycle] { h.command(.acknowledgeTransition, at: t + 1) }
                t += 300
                h.advance(to: t)
                #expect(h.engine.canvas.state == .open)
            }
            let restored = h.engine.canvas.strokes
            #expect(restored.count == drawn.count)
            for (a, b) in zip(restored, drawn) {
                #expect(a.points.map(\.x.bitPattern) == b.points.map(\.x.bitPattern))
                #expect(a.points.map(\.y.bitPattern) == b.points.map(\.y.bitPattern))
                #expect(a.points.map(\.pressure.bitPattern) == b.points.map(\.pressure.bitPattern))
                #expect(a.points.map(\.time) == b.points.map(\.time))
            }
        }
    }

    enum Step: CaseIterable, Sendable { case stroke, toggle, clear, wait }

    @Test func everyMinimizeReportsHasContentExactlyWhenStrokesExist() async {
        await propertyCheck(input: Gen<Step>.case.array(of: 1...40)) { steps in
            var h = EngineHarness()
            h.enter(at: 0)
            var t = 0.0
            for step in steps {
                t += 100
                func checkNewEvents(since seen: Int) {
                    for case .canvas(let e) in h.events[seen...] where e.state == .minimizing || e.state == .minimized {
                        #expect(e.hasContent == !h.engine.canvas.strokes.isEmpty)
                        #expect(e.strokeCount == h.engine.canvas.strokes.count)
                    }
                }
                var seen = h.events.count
                h.advance(to: t)
                checkNewEvents(since: seen)
                seen = h.events.count
                switch step {
                case .stroke: h.stroke(at: t, through: [(0.1, 0.1, 0.3), (0.2, 0.2, 0.3)])
                case .toggle: h.command(.toggleCanvas, at: t)
                case .clear: h.command(.clearCanvas, at: t)
                case .wait: t += 300; h.advance(to: t)
                }
                checkNewEvents(since: seen)
            }
        }
    }

    @Test func pressesFurtherApartThanTheIntervalNeverMakeADoublePress() async {
        await propertyCheck(input: Gen.int(in: 150...1000), Gen.int(in: 1...3000).array(of: 1...25), Gen.int(in: 1...149).array(of: 25)) { interval, extraGaps, holds in
            var config = EngineConfig()
            config.doublePressIntervalMS = interval
            var h = EngineHarness(config: config)
            h.enter(at: 0)
            var t = 0.0
            for (i, extra) in extraGaps.enumerated() {
                h.click(at: t, hold: Double(holds[i]))
                t += Double(interval) + Double(extra) / 1000 + Double(extra % 7)   // always past the interval
            }
            #expect(h.doublePresses.isEmpty)
        }
    }

    @Test func bounceNeverMakesAPress() async {
        // The same clicks with and without contact bounce after each release
        // give the same double presses.
        await propertyCheck(input: Gen.int(in: 60...900).array(of: 1...25), Gen.int(in: 1...24).array(of: 25)) { gaps, bounceDelays in
            var clean = EngineHarness()
            var bouncy = EngineHarness()
            clean.enter(at: 0)
            bouncy.enter(at: 0)
            var t = 0.0
            for (i, gap) in gaps.enumerated() {
                let hold = 30.0
                clean.click(at: t, hold: hold)
                bouncy.click(at: t, hold: hold)
                let bounceAt = t + hold + Double(bounceDelays[i])          // under 25 ms after the release
                if bounceAt + 1 < t + Double(gap) {
                    bouncy.press(at: bounceAt)
                    bouncy.release(at: bounceAt + 0.5)
                }
                t += Double(gap)
            }
            #expect(clean.doublePresses.map(\.time) == bouncy.doublePresses.map(\.time))
        }
    }
}
