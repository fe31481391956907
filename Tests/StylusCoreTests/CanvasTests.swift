// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Canvas overlay")
struct CanvasTests {
    static let line: [(Double, Double, Double)] = [(0.1, 0.1, 0.4), (0.2, 0.15, 0.5), (0.3, 0.2, 0.45)]

    @Test func aToggleOpensThroughOpeningAndEndsAfterTheTransitionTime() {
        var h = EngineHarness()
        #expect(h.engine.canvas.state == .minimized)
        #expect(h.engine.nextDeadline == nil, "nothing pending, no timer")
        h.command(.toggleCanvas, at: 0)
        #expect(h.engine.canvas.state == .opening)
        #expect(h.engine.nextDeadline == EngineHarness.us(250))
        h.advance(to: 249.999)
        #expect(h.engine.canvas.state == .opening)
        h.advance(to: 250)
        #expect(h.engine.canvas.state == .open)
        #expect(h.engine.nextDeadline == nil)
        #expect(h.canvasEvents.map(\.state) == [.opening, .open])
        #expect(h.canvasEvents.map(\.cause) == [.request, .timeout])
        #expect(h.canvasEvents.map(\.source) == [.command, .command])
        #expect(h.canvasEvents[1].time == EngineHarness.us(250), "stamped with the deadline, not a later input")
    }

    @Test func anAckEndsTheTransitionAtOnce() {
        var h = EngineHarness()
        h.command(.toggleCanvas, at: 0)
        #expect(h.command(.acknowledgeTransition, at: 40) == .done)
        #expect(h.engine.canvas.state == .open)
        #expect(h.canvasEvents.last?.cause == .ack)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func anAckWithNoTransitionIsRefused() {
        var h = EngineHarness()
        #expect(h.command(.acknowledgeTransition, at: 0) == .refused(reason: "no transition in progress (canvas is minimized)"))
    }

    @Test func aDoublePressDuringATransitionIsIgnoredWithTheReason() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.doubleClick(at: 0, gap: 200)      // opens at 200
        h.click(at: 310, hold: 30)
        h.press(at: 400)                    // a double press while opening (until 450)
        #expect(h.doublePresses.count == 2)
        #expect(h.doublePresses[1].outcome == .ignored(reason: "canvas is opening; a toggle waits until the transition ends"))
        h.advance(to: 1000)
        #expect(h.engine.canvas.state == .open)
        #expect(h.canvasEvents.map(\.state) == [.opening, .open])
    }

    @Test func strokesAreRecordedOnlyWhileOpen() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.stroke(at: 10, through: Self.line)
        #expect(h.engine.canvas.strokes.isEmpty, "minimized: not recorded")
        h.command(.openCanvas, at: 100)
        h.stroke(at: 120, through: Self.line)
        #expect(h.engine.canvas.strokes.isEmpty, "still opening: not recorded")
        h.advance(to: 400)
        h.stroke(at: 400, through: Self.line)
        #expect(h.engine.canvas.strokes.count == 1)
        let points = h.engine.canvas.strokes[0].points
        #expect(points.count == 4, "tip-down, two motions, tip-up")
        #expect(points[1].x == Float(0.2) && points[1].y == Float(0.15) && points[1].pressure == Float(0.5))
        #expect(points.map(\.time) == [400, 405, 410, 415].map(EngineHarness.us))
    }

    @Test func minimizingReportsContentAndReopeningRestoresTheSameStrokes() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        h.stroke(at: 300, through: Self.line)
        h.stroke(at: 400, through: Self.line.reversed())
        let drawn = h.engine.canvas.strokes
        h.command(.minimizeCanvas, at: 500)
        h.advance(to: 800)
        let minimized = h.canvasEvents.filter { $0.state == .minimizing || $0.state == .minimized }
        #expect(minimized.allSatisfy { $0.hasContent && $0.strokeCount == 2 })
        h.command(.openCanvas, at: 900)
        h.advance(to: 1200)
        #expect(h.engine.canvas.strokes == drawn)
    }

    @Test func minimizingAnEmptyCanvasReportsNoContent() {
        var h = EngineHarness()
        h.command(.openCanvas, at: 0)
        h.command(.minimizeCanvas, at: 300)
        #expect(h.canvasEvents.last?.hasContent == false)
        #expect(h.canvasEvents.last?.strokeCount == 0)
    }

    @Test func minimizingMidStrokeEndsTheStrokeAndKeepsItsPoints() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        h.send(.tipDown(h.pen, PenAxes(x: 0.1, y: 0.1, pressure: 0.5)), at: 300)
        h.send(.motion(h.pen, PenAxes(x: 0.2, y: 0.1, pressure: 0.5)), at: 305)
        h.command(.minimizeCanvas, at: 310)
        h.send(.motion(h.pen, PenAxes(x: 0.3, y: 0.1, pressure: 0.5)), at: 315)
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(h.engine.canvas.strokes[0].points.count == 2)
    }

    @Test func aLongStrokeKeepsEveryPointAndAFinishedShortStrokeGivesBackItsReservation() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        let long = (0..<600).map { i in (Double(i) / 600, 0.5, 0.3) }
        h.stroke(at: 300, through: long)
        h.stroke(at: 5000, through: Self.line)
        #expect(h.engine.canvas.strokes.map(\.points.count) == [601, 4])
        #expect(h.engine.canvas.strokes[0].points.map(\.x) == long.map { Float($0.0) } + [Float(long.last!.0)])
        #expect(h.engine.canvas.strokes[1].points.capacity < Engine.strokeReservation)
    }

    @Test func clearEmptiesTheCanvasAndSaysSo() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        h.stroke(at: 300, through: Self.line)
        #expect(h.command(.clearCanvas, at: 400) == .done)
        #expect(h.engine.canvas.strokes.isEmpty)
        #expect(h.canvasEvents.last?.cause == .clear)
        #expect(h.canvasEvents.last?.hasContent == false)
        #expect(h.command(.clearCanvas, at: 500) == .unchanged(reason: "canvas was already empty"))
    }

    @Test func openAndMinimizeCommandsSayWhenThereIsNothingToDo() {
        var h = EngineHarness()
        #expect(h.command(.minimizeCanvas, at: 0) == .unchanged(reason: "canvas is already minimized"))
        #expect(h.command(.openCanvas, at: 0) == .done)
        #expect(h.command(.openCanvas, at: 10) == .unchanged(reason: "canvas is already opening"))
        #expect(h.command(.minimizeCanvas, at: 20) == .refused(reason: "canvas is opening; wait for the transition to end"))
        #expect(h.command(.toggleCanvas, at: 30) == .refused(reason: "canvas is opening; a toggle waits until the transition ends"))
    }

    @Test func aZeroTransitionTimeSwitchesAtOnce() {
        var config = EngineConfig()
        config.transitionMS = 0
        var h = EngineHarness(config: config)
        h.command(.toggleCanvas, at: 0)
        #expect(h.engine.canvas.state == .open)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func thePointLimitEndsTheStrokeKeepsWhatWasDrawnAndStopsRecording() {
        var config = EngineConfig()
        config.canvasLimits.maxPoints = 6
        var h = EngineHarness(config: config)
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        h.stroke(at: 300, through: Self.line)                      // 4 points
        h.stroke(at: 400, through: Self.line + Self.line)          // would be 7
        let full = h.events.compactMap { if case .canvasFull(let e) = $0 { e } else { nil } }
        #expect(full.count == 1)
        #expect(full.first?.limit == .points)
        #expect(h.engine.canvas.pointCount == 6)
        #expect(h.engine.canvas.strokes.map(\.points.count) == [4, 2])
        h.stroke(at: 600, through: Self.line)
        #expect(h.engine.canvas.strokes.count == 2, "nothing more is recorded")
        h.command(.clearCanvas, at: 700)
        h.stroke(at: 800, through: Self.line)
        #expect(h.engine.canvas.strokes.count == 1, "clearing makes room again")
    }

    @Test func theStrokeLimitIsReportedOnce() {
        var config = EngineConfig()
        config.canvasLimits.maxStrokes = 1
        var h = EngineHarness(config: config)
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        for t in stride(from: 300.0, to: 700, by: 100) { h.stroke(at: t, through: Self.line) }
        let full = h.events.compactMap { if case .canvasFull(let e) = $0 { e } else { nil } }
        #expect(full.map(\.limit) == [.strokes])
        #expect(h.engine.canvas.strokes.count == 1)
    }

    @Test func stateChangesAskForPersistenceButPenMotionDoesNot() {
        var h = EngineHarness()
        h.enter(at: 0)
        #expect(h.persistRequests == 1, "a tool seen for the first time joins the table of tools the state file keeps")
        h.send(.motion(h.pen, PenAxes(x: 0.4, y: 0.4)), at: 10)
        #expect(h.persistRequests == 1)
        h.leave(at: 15)
        h.enter(at: 16)
        #expect(h.persistRequests == 1, "the same tool again changes nothing saved")
        h.command(.toggleCanvas, at: 20)
        #expect(h.persistRequests == 2)
    }

    @Test func aRestoredCanvasLandsWhereItsTransitionWasHeading() {
        let stroke = Stroke(device: DeviceID(1), tool: .pen, points: [StrokePoint(x: 0.5, y: 0.5, pressure: 0.3, tiltX: 0, tiltY: 0, time: 1)])
        #expect(Canvas(state: .opening, strokes: [stroke]).state == .open)
        #expect(Canvas(state: .minimizing, strokes: [stroke]).state == .minimized)
        var engine = Engine()
        engine.restore(canvas: Canvas(state: .open, strokes: [stroke]), precisionEnabled: true)
        #expect(engine.canvas.strokes == [stroke])
        #expect(engine.precisionEnabled)
        #expect(engine.nextDeadline == nil)
    }

    @Test func removingADeviceMidStrokeEndsTheStrokeAndSaysSo() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.command(.openCanvas, at: 0)
        h.advance(to: 300)
        h.send(.tipDown(h.pen, PenAxes(x: 0.1, y: 0.1, pressure: 0.5)), at: 300)
        h.send(.deviceRemoved(h.pen), at: 310)
        let removed = h.events.compactMap { if case .device(let e) = $0, e.change == .removed { e } else { nil } }
        #expect(removed.first?.endedStroke == true)
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(h.engine.deviceIDs.isEmpty)
    }
}
