// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

/// What the engine hands an output stage, example by example.
@Suite("Output effects")
struct OutputEffectTests {
    typealias H = EngineHarness

    @Test func aDoublePressConsumesItsSecondPressAndReleaseAndNamesTheFirstPress() {
        var h = H()
        h.enter(at: 0)
        h.output.removeAll()
        h.doubleClick(at: 100, gap: 300)
        #expect(h.decisions.map(\.verdict) == [
            .first(pendingUntil: H.us(600)), .passed,
            .doublePress(firstPress: H.us(100)), .doublePress(firstPress: H.us(100)),
        ])
        #expect(h.decisions.map(\.pressed) == [true, false, true, false])
        #expect(h.decisions.map(\.consumed) == [false, false, true, true])
        #expect(h.decisions.allSatisfy { $0.button == .side(.stylus) && !$0.implicit && $0.device == h.pen })
        // The second press comes first, then the canvas change it caused.
        guard case .button(let second) = h.output[2], case .canvas(.opening, let time) = h.output[3] else {
            Issue.record("expected the second press, then the canvas opening: \(h.output)")
            return
        }
        #expect(second.time == H.us(400))
        #expect(time == H.us(400))
    }

    @Test func aBouncedPressAndItsReleaseAreConsumedAsBounce() {
        var h = H()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 200)
        h.press(at: 210)
        h.release(at: 215)
        #expect(h.decisions.map(\.verdict) == [.first(pendingUntil: H.us(600)), .passed, .bounce, .bounce])
        #expect(h.decisions.map(\.consumed) == [false, false, true, true])
    }

    @Test func aPressWhileDownAndAReleaseWhileUpAreOutsideTheRule() {
        var h = H()
        h.enter(at: 0)
        h.release(at: 50)
        h.press(at: 100)
        h.press(at: 120)
        h.release(at: 200)
        #expect(h.decisions.map(\.verdict) == [.ignored, .first(pendingUntil: H.us(600)), .ignored, .passed])
    }

    @Test func padButtonsGetDecisionsToo() {
        var h = H()
        h.send(.button(h.pen, .pad(3), pressed: true), at: 100)
        h.send(.button(h.pen, .pad(3), pressed: false), at: 150)
        h.send(.button(h.pen, .pad(3), pressed: true), at: 400)
        h.send(.button(h.pen, .pad(ButtonID.maxPadButtons), pressed: true), at: 450)
        #expect(h.decisions.map(\.button) == [.pad(3), .pad(3), .pad(3), .pad(ButtonID.maxPadButtons)])
        #expect(h.decisions.map(\.verdict) == [.first(pendingUntil: H.us(600)), .passed, .doublePress(firstPress: H.us(100)), .ignored])
    }

    @Test func leavingProximityReleasesHeldButtonsImplicitlyAndClearsPendingPresses() {
        var h = H()
        h.enter(at: 0)
        h.click(.stylus2, at: 100)         // pending until 600
        h.press(at: 200)                   // held, pending until 700
        h.output.removeAll()
        h.leave(at: 300)
        h.release(at: 320)                 // the kernel's own release comes later
        #expect(h.output == [
            .button(ButtonDecision(device: h.pen, button: .side(.stylus), pressed: false, implicit: true, verdict: .passed, time: H.us(300))),
            .pendingCleared(PendingPress(device: h.pen, button: .side(.stylus), firstPress: H.us(200), time: H.us(300))),
            .pendingCleared(PendingPress(device: h.pen, button: .side(.stylus2), firstPress: H.us(100), time: H.us(300))),
            .frame(PenFrame(device: h.pen, kind: .proximityOut, inProximity: false, tipDown: false,
                            x: 0.5, y: 0.5, adjustedX: 0.5, adjustedY: 0.5, time: H.us(300))),
            .button(ButtonDecision(device: h.pen, button: .side(.stylus), pressed: false, verdict: .ignored, time: H.us(320))),
        ])
    }

    @Test func aHeldSecondPressStaysConsumedWhenLeavingProximityReleasesIt() {
        var h = H()
        h.enter(at: 0)
        h.click(at: 100)
        h.press(at: 300)
        h.leave(at: 400)
        let last = h.decisions.last
        #expect(last?.implicit == true)
        #expect(last?.verdict == .doublePress(firstPress: H.us(100)))
    }

    @Test func aPendingPressWhoseIntervalEndedIsNotReportedWhenCleared() {
        var h = H()
        h.enter(at: 0)
        h.click(at: 100)
        h.leave(at: 700)
        #expect(!h.output.contains { if case .pendingCleared = $0 { true } else { false } })
    }

    @Test func aDifferentToolClearsPendingPresses() {
        var h = H()
        h.enter(.pen, at: 0)
        h.click(at: 100)
        h.enter(.eraser, at: 250)
        let cleared = h.output.compactMap { if case .pendingCleared(let p) = $0 { p } else { nil } }
        #expect(cleared == [PendingPress(device: h.pen, button: .side(.stylus), firstPress: H.us(100), time: H.us(250))])
        #expect(h.frames.last?.kind == .proximityIn)
    }

    @Test func everyPenInputGivesOneFrameWithoutPenSubscribers() {
        var h = H()
        #expect(!h.engine.publishesSamples)
        h.enter(at: 0, axes: PenAxes(x: 0.1, y: 0.2))
        h.send(.motion(h.pen, PenAxes(x: 0.15, y: 0.25)), at: 5)
        h.stroke(at: 10, through: [(0.2, 0.3, 0.4), (0.3, 0.3, 0.5)])
        h.leave(at: 50)
        h.leave(at: 60)                    // not in proximity: still a frame
        #expect(h.frames.map(\.kind) == [.proximityIn, .motion, .tipDown, .motion, .tipUp, .proximityOut, .proximityOut])
        #expect(h.frames.map(\.tipDown) == [false, false, true, true, false, false, false])
        #expect(h.frames.map(\.inProximity) == [true, true, true, true, true, false, false])
        #expect(h.frames.map(\.x) == [0.1, 0.15, 0.2, 0.3, 0.3, 0.3, 0.3])
        #expect(h.frames.allSatisfy { !$0.isAdjusted })
        #expect(h.samples.isEmpty)
    }

    @Test func aLightStrokeWithPrecisionMovesTheAdjustedPositionLessAndLiftingGivesTheRawBack() {
        var h = H()
        h.command(.precision(.enable), at: 0)
        h.enter(at: 1, axes: PenAxes(x: 0.5, y: 0.5))
        h.output.removeAll()
        h.stroke(at: 10, through: [(0.5, 0.5, 0.1), (0.6, 0.5, 0.1), (0.7, 0.5, 0.1)])
        let frames = h.frames
        #expect(frames.map(\.kind) == [.tipDown, .motion, .motion, .tipUp])
        #expect(!frames[0].isAdjusted, "tip-down starts from the raw position")
        #expect(frames[2].adjustedX < 0.6 && frames[2].adjustedX > 0.5)
        #expect(frames[2].adjustedY == 0.5)
        #expect(!frames[3].isAdjusted)
    }

    @Test func canvasChangesFromCommandsAndTimersReachTheOutput() {
        var h = H()
        h.command(.toggleCanvas, at: 0)
        h.advance(to: 300)
        h.command(.toggleCanvas, at: 400)
        h.command(.acknowledgeTransition, at: 410)
        #expect(h.output == [
            .canvas(.opening, time: H.us(0)), .canvas(.open, time: H.us(250)),
            .canvas(.minimizing, time: H.us(400)), .canvas(.minimized, time: H.us(410)),
        ])
    }

    @Test func anOutputJoiningLaterLearnsTheCanvasState() {
        var engine = Engine()
        engine.restore(canvas: Canvas(state: .open, strokes: []), precisionEnabled: false)
        var effects = Effects()
        engine.describeState(forOutputAt: 42, into: &effects)
        #expect(effects.output == [.canvas(.open, time: 42)])
        #expect(effects.events.isEmpty)
        effects.removeAll()
        #expect(effects.output.isEmpty)
    }
}
