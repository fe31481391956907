// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

@Suite("Undo")
struct UndoTests {
    static let line = CanvasTests.line

    /// A harness with the canvas open and `count` finished strokes on it.
    static func openWithStrokes(_ count: Int) -> EngineHarness {
        var h = EngineHarness.open()
        for i in 0..<count {
            h.stroke(at: 10 + Double(i) * 100, through: line.map { ($0.0 + Double(i) / 100, $0.1, $0.2) })
        }
        return h
    }

    func undoEvents(_ h: EngineHarness) -> [CanvasEvent] { h.canvasEvents.filter { $0.cause == .undo } }

    @Test func undoRemovesTheLastStrokeReportsItAndAsksToPersist() {
        var h = Self.openWithStrokes(3)
        let drawn = h.engine.canvas.strokes
        let saves = h.persistRequests
        #expect(h.command(.undo, at: 1000) == .done)
        #expect(h.engine.canvas.strokes == Array(drawn.prefix(2)))
        #expect(h.engine.canvas.pointCount == drawn.prefix(2).reduce(0) { $0 + $1.points.count })
        #expect(h.persistRequests == saves + 1)
        let event = undoEvents(h).last
        #expect(event?.strokeCount == 2 && event?.hasContent == true)
        #expect(event?.state == .open && event?.source == .command)
        #expect(event?.time == EngineHarness.us(1000))
    }

    @Test func undoingEveryStrokeLeavesAnEmptyCanvasThenReportsUnchanged() {
        var h = Self.openWithStrokes(2)
        #expect(h.command(.undo, at: 1000) == .done)
        #expect(h.command(.undo, at: 1001) == .done)
        #expect(undoEvents(h).last?.hasContent == false)
        #expect(undoEvents(h).last?.strokeCount == 0)
        let saves = h.persistRequests
        let events = h.events.count
        #expect(h.command(.undo, at: 1002) == .unchanged(reason: "canvas is empty; nothing to undo"))
        #expect(h.events.count == events, "nothing changed, no event")
        #expect(h.persistRequests == saves)
    }

    @Test func undoWhileDrawingRemovesTheLastFinishedStrokeAndTheStrokeInProgressGoesOn() {
        var h = Self.openWithStrokes(2)
        let first = h.engine.canvas.strokes[0]
        h.send(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0.5)), at: 1000)
        h.send(.motion(h.pen, PenAxes(x: 0.6, y: 0.5, pressure: 0.5)), at: 1005)
        #expect(h.command(.undo, at: 1007) == .done)
        h.send(.motion(h.pen, PenAxes(x: 0.7, y: 0.5, pressure: 0.5)), at: 1010)
        h.send(.tipUp(h.pen, PenAxes(x: 0.7, y: 0.5, pressure: 0)), at: 1015)
        let strokes = h.engine.canvas.strokes
        #expect(strokes.count == 2)
        #expect(strokes[0] == first)
        #expect(strokes[1].points.map(\.x) == [0.5, 0.6, 0.7, 0.7].map(Float.init))
        let ended = h.events.compactMap { if case .stroke(let e) = $0 { e } else { nil } }.last
        #expect(ended?.index == 1, "the stroke in progress moved down one place")
        #expect(h.engine.canvas.pointCount == strokes.reduce(0) { $0 + $1.points.count })
    }

    @Test func undoWithOnlyAStrokeInProgressIsUnchangedAndKeepsIt() {
        var h = Self.openWithStrokes(0)
        h.send(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0.5)), at: 1000)
        #expect(h.command(.undo, at: 1002) == .unchanged(reason: "no finished stroke to undo; the stroke in progress is kept"))
        h.send(.tipUp(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0)), at: 1005)
        #expect(h.engine.canvas.strokes.count == 1)
    }

    @Test func undoWorksWhileMinimizedLikeClear() {
        var h = Self.openWithStrokes(2)
        h.command(.minimizeCanvas, at: 1000)
        h.advance(to: 2000)
        #expect(h.command(.undo, at: 2000) == .done)
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(undoEvents(h).last?.state == .minimized)
    }

    @Test func undoOnAFullCanvasMakesRoomAgain() {
        var config = EngineConfig()
        config.canvasLimits.maxStrokes = 2
        var h = EngineHarness.open(config: config)
        for i in 0..<3 { h.stroke(at: 10 + Double(i) * 100, through: Self.line) }
        #expect(h.engine.canvas.isFull)
        #expect(h.engine.canvas.strokes.count == 2)
        h.command(.undo, at: 1000)
        #expect(!h.engine.canvas.isFull)
        h.stroke(at: 1100, through: Self.line)
        #expect(h.engine.canvas.strokes.count == 2)
    }

    @Test func aDoublePressBoundToUndoRemovesTheLastStroke() {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: .undo)
        var h = EngineHarness.open(config: config)
        h.stroke(at: 10, through: Self.line)
        h.stroke(at: 100, through: Self.line)
        h.doubleClick(.stylus2, at: 500)
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(h.doublePresses.last?.action == .undo)
        #expect(h.doublePresses.last?.outcome == .applied)
        #expect(undoEvents(h).last?.source == .pen)
        h.doubleClick(.stylus2, at: 1500)
        h.doubleClick(.stylus2, at: 2500)
        #expect(h.doublePresses.last?.outcome == .ignored(reason: "canvas is empty; nothing to undo"))
    }

    @Test func undoAfterNStrokesLeavesTheFirstNMinusOneBitForBit() async {
        await propertyCheck(count: 60, input: EngineProperties.drawing, Gen.int(in: 1...6)) { strokes, undos in
            var h = EngineHarness.open()
            var t = h.draw(strokes, from: 10)
            let drawn = h.engine.canvas.strokes
            #expect(drawn.count == strokes.count)
            for k in 1...undos {
                let outcome = h.command(.undo, at: t)
                t += 1
                let kept = max(drawn.count - k, 0)
                #expect(outcome == (k <= drawn.count ? .done : .unchanged(reason: "canvas is empty; nothing to undo")))
                let now = h.engine.canvas.strokes
                #expect(now.count == kept)
                for (a, b) in zip(now, drawn.prefix(kept)) {
                    #expect(a.device == b.device && a.style == b.style)
                    #expect(a.points.map(\.x.bitPattern) == b.points.map(\.x.bitPattern))
                    #expect(a.points.map(\.y.bitPattern) == b.points.map(\.y.bitPattern))
                    #expect(a.points.map(\.pressure.bitPattern) == b.points.map(\.pressure.bitPattern))
                    #expect(a.points.map(\.tiltX.bitPattern) == b.points.map(\.tiltX.bitPattern))
                    #expect(a.points.map(\.tiltY.bitPattern) == b.points.map(\.tiltY.bitPattern))
                    #expect(a.points.map(\.time) == b.points.map(\.time))
                }
                #expect(h.engine.canvas.pointCount == now.reduce(0) { $0 + $1.points.count })
            }
        }
    }
}
