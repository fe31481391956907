// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

/// What an output is handed, over random input: every button event gets one
/// decision, consumed events are exactly the double presses' and bounce's,
/// and the adjusted position is the raw one wherever precision cannot apply.
@Suite("Output effect properties")
struct OutputEffectProperties {
    enum ButtonStep: CaseIterable, Sendable {
        case pressStylus, releaseStylus, pressStylus2, releaseStylus2, pressPad, releasePad, leave, enterPen, enterEraser
    }

    struct Key: Equatable {
        var button: ButtonID
        var pressed: Bool
        var time: Microseconds
    }

    @Test func everyButtonEventGetsOneDecisionAndConsumedEventsComeInPressReleasePairs() async {
        // A third of the gaps are under 24 ms, so bounce and repeated events happen often.
        await propertyCheck(input: Gen<ButtonStep>.case.array(of: 1...60), Gen.int(in: 0...700).array(of: 60)) { steps, gaps in
            var h = EngineHarness()
            var sent: [Key] = []
            var t = 0.0
            for (step, gap) in zip(steps, gaps) {
                t += gap % 3 == 0 ? Double(gap) / 30 : Double(gap)
                func button(_ b: ButtonID, _ pressed: Bool) {
                    h.send(.button(h.pen, b, pressed: pressed), at: t)
                    sent.append(Key(button: b, pressed: pressed, time: EngineHarness.us(t)))
                }
                switch step {
                case .pressStylus: button(.side(.stylus), true)
                case .releaseStylus: button(.side(.stylus), false)
                case .pressStylus2: button(.side(.stylus2), true)
                case .releaseStylus2: button(.side(.stylus2), false)
                case .pressPad: button(.pad(2), true)
                case .releasePad: button(.pad(2), false)
                case .leave: h.leave(at: t)
                case .enterPen: h.enter(.pen, at: t)
                case .enterEraser: h.enter(.eraser, at: t)
                }
            }
            let decisions = h.decisions
            // Exactly one decision per button input, in order.
            #expect(decisions.filter { !$0.implicit }.map { Key(button: $0.button, pressed: $0.pressed, time: $0.time) } == sent)
            #expect(decisions.allSatisfy { $0.device == h.pen })
            // The engine's own releases are side-button releases on leaving proximity.
            #expect(decisions.filter(\.implicit).allSatisfy { !$0.pressed && $0.button != .pad(2) })

            // Per button: an accepted press is down until one release, which
            // shares its fate (a first press's release is passed).
            var down: [ButtonID: ButtonDecision.Verdict] = [:]
            for d in decisions {
                let held = down[d.button]
                switch (d.pressed, d.verdict) {
                case (true, .ignored):
                    #expect(held != nil, "a press is outside the rule only while the button is down")
                case (true, let verdict):
                    #expect(held == nil)
                    down[d.button] = verdict
                case (false, .ignored):
                    #expect(held == nil, "a release is outside the rule only while the button is up")
                case (false, let verdict):
                    if case .first = held {
                        #expect(verdict == .passed)
                    } else {
                        #expect(held != nil && verdict == held)
                    }
                    down[d.button] = nil
                }
            }

            // The consumed second presses are exactly the double presses, and
            // each names a real first press that was pending at that time.
            let consumedSeconds = decisions.compactMap { d -> DoublePressEvent? in
                guard d.pressed, case .doublePress(let first) = d.verdict else { return nil }
                return DoublePressEvent(device: d.device, button: d.button, time: d.time, firstPress: first, action: .none, outcome: .applied)
            }
            #expect(consumedSeconds.map(\.time) == h.doublePresses.map(\.time))
            #expect(consumedSeconds.map(\.firstPress) == h.doublePresses.map(\.firstPress))
            #expect(consumedSeconds.map(\.button) == h.doublePresses.map(\.button))
            for second in consumedSeconds {
                let first = decisions.first { $0.pressed && $0.button == second.button && $0.time == second.firstPress }
                guard case .first(let until) = first?.verdict else {
                    Issue.record("double press at \(second.time) pairs with no first press at \(second.firstPress)")
                    continue
                }
                #expect(second.time <= until)
            }
        }
    }

    @Test func theBouncedPressesAreExactlyTheOnesConsumedAsBounce() async {
        await propertyCheck(input: Gen.int(in: 60...900).array(of: 1...25), Gen.int(in: 1...24).array(of: 25), Gen.bool.array(of: 25)) { gaps, bounceDelays, bounces in
            var h = EngineHarness()
            h.enter(at: 0)
            var injected: [Microseconds] = []
            var t = 0.0
            for (i, gap) in gaps.enumerated() {
                let hold = 30.0
                h.click(at: t, hold: hold)
                let bounceAt = t + hold + Double(bounceDelays[i])          // under 25 ms after the release
                if bounces[i], bounceAt + 1 < t + Double(gap) {
                    h.press(at: bounceAt)
                    h.release(at: bounceAt + 0.5)
                    injected.append(EngineHarness.us(bounceAt))
                }
                t += Double(gap)
            }
            let bounced = h.decisions.filter { $0.verdict == .bounce }
            #expect(bounced.filter(\.pressed).map(\.time) == injected)
            #expect(bounced.filter { !$0.pressed }.map(\.time) == injected.map { $0 + 500 })
            #expect(h.decisions.filter(\.consumed).count == bounced.count + 2 * h.doublePresses.count)
        }
    }

    enum PenStep: CaseIterable, Sendable { case hover, stroke, togglePrecision, leave, enter }

    @Test func theAdjustedPositionIsTheRawOneWhilePrecisionIsOffOrThePenHovers() async {
        await propertyCheck(input: Gen<PenStep>.case.array(of: 1...30), Gen.double(in: 0...1).array(of: 97), Gen.bool) { steps, pool, startEnabled in
            var h = EngineHarness()
            h.engine.publishesSamples = true
            if startEnabled { h.command(.precision(.enable), at: 0) }
            var next = 0
            func value() -> Double {
                next += 1
                return pool[next % pool.count]
            }
            var t = 1.0
            var inputs = 0
            for step in steps {
                t += 10
                let enabled = h.engine.precisionEnabled
                let seen = h.frames.count
                switch step {
                case .hover:
                    h.send(.motion(h.pen, PenAxes(x: value(), y: value())), at: t)
                    inputs += 1
                case .stroke:
                    let points = (0..<(1 + Int(value() * 8))).map { _ in (value(), value(), value()) }
                    h.stroke(at: t, through: points)
                    t += Double(points.count) * 5
                    inputs += points.count + 1
                case .togglePrecision:
                    h.command(.precision(.toggle), at: t)
                case .leave:
                    h.leave(at: t)
                    inputs += 1
                case .enter:
                    h.enter(at: t, axes: PenAxes(x: value(), y: value()))
                    inputs += 1
                }
                for frame in h.frames[seen...] {
                    #expect((0...1).contains(frame.adjustedX) && (0...1).contains(frame.adjustedY))
                    guard !enabled || !frame.tipDown else { continue }
                    #expect(frame.adjustedX.bitPattern == frame.x.bitPattern && frame.adjustedY.bitPattern == frame.y.bitPattern,
                            "precision \(enabled ? "enabled" : "disabled"), tip \(frame.tipDown ? "down" : "up")")
                }
            }
            #expect(h.frames.count == inputs, "one frame per pen input")
            // The `pen` topic's samples carry the same adjusted position
            // (every input here has its own time).
            for sample in h.samples {
                guard let frame = h.frames.first(where: { $0.time == sample.time }) else {
                    Issue.record("no frame for the sample at \(sample.time)")
                    continue
                }
                #expect(frame.tipDown == sample.tipDown)
                #expect(frame.adjustedX.bitPattern == sample.adjustedX.bitPattern && frame.adjustedY.bitPattern == sample.adjustedY.bitPattern)
            }
        }
    }
}
