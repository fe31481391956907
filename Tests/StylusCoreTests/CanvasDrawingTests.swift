// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Canvas drawing (pointer and touch)")
struct CanvasDrawingTests {
    typealias P = DrawRequest.Point

    static func draw(_ h: inout EngineHarness, _ source: StrokeSource, _ phase: DrawRequest.Phase,
                     _ points: [P] = [], aspect: Double? = nil, at ms: Double) -> CommandOutcome {
        h.command(.draw(DrawRequest(source: source, phase: phase, points: points, aspect: aspect)), at: ms)
    }

    static func draw(_ h: inout EngineHarness, _ phase: DrawRequest.Phase, _ points: [P] = [], aspect: Double? = nil,
                     at ms: Double) -> CommandOutcome {
        draw(&h, .pointer, phase, points, aspect: aspect, at: ms)
    }

    static func strokeEvents(_ h: EngineHarness) -> [StrokeEvent] {
        h.events.compactMap { if case .stroke(let e) = $0 { e } else { nil } }
    }

    @Test func aPointerStrokeIsRecordedWithItsSourceAndTheStyleAndAnnounced() {
        var h = EngineHarness.open()
        #expect(Self.draw(&h, .down, [P(x: 0.1, y: 0.2)], at: 10) == .done)
        #expect(h.engine.strokeInProgress(.pointer) == 0)
        #expect(Self.draw(&h, .move, [P(x: 0.2, y: 0.3), P(x: 0.3, y: 0.4, pressure: 0.5)], at: 20) == .done)
        #expect(Self.draw(&h, .up, [P(x: 0.4, y: 0.5)], at: 30) == .done)
        let stroke = h.engine.canvas.strokes.first
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(stroke?.source == .pointer && stroke?.device == StrokeSource.pointer.device)
        #expect(stroke?.style == h.engine.canvas.style)
        #expect(stroke?.points.map(\.x) == [0.1, 0.2, 0.3, 0.4].map(Float.init))
        #expect(stroke?.points.map(\.pressure) == [1, 1, 0.5, 1])
        #expect(stroke?.points.last?.time == EngineHarness.us(30))
        #expect(h.engine.canvas.pointCount == 4)
        let event = Self.strokeEvents(h).last
        #expect(event?.source == .pointer && event?.index == 0 && event?.points == 4)
        #expect(h.engine.strokeInProgress(.pointer) == nil)
        #expect(h.engine.deviceIDs == [h.pen], "a canvas source is not a device of the tablet")
    }

    @Test func undoRedoAndClearTreatAPointerStrokeAsAPenStroke() {
        var h = EngineHarness.open()
        _ = Self.draw(&h, .touch, .down, [P(x: 0.5, y: 0.5)], at: 10)
        _ = Self.draw(&h, .touch, .up, [P(x: 0.6, y: 0.5)], at: 20)
        let drawn = h.engine.canvas.strokes
        #expect(h.command(.undo, at: 30) == .done && h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.redo, at: 40) == .done && h.engine.canvas.strokes == drawn)
        #expect(h.command(.clearCanvas, at: 50) == .done && h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 60) == .done && h.engine.canvas.strokes == drawn)
    }

    @Test func thePenAndThePointerDrawAtOnce() {
        var h = EngineHarness.open()
        h.send(.tipDown(h.pen, PenAxes(x: 0.1, y: 0.1, pressure: 0.4)), at: 10)
        _ = Self.draw(&h, .down, [P(x: 0.9, y: 0.9)], at: 11)
        h.send(.motion(h.pen, PenAxes(x: 0.2, y: 0.1, pressure: 0.4)), at: 12)
        _ = Self.draw(&h, .move, [P(x: 0.8, y: 0.9)], at: 13)
        _ = Self.draw(&h, .up, [], at: 14)
        h.send(.tipUp(h.pen, PenAxes(x: 0.3, y: 0.1, pressure: 0)), at: 15)
        let strokes = h.engine.canvas.strokes
        #expect(strokes.count == 2)
        #expect(Set(strokes.map(\.source)) == [.pen, .pointer])
        #expect(strokes.first { $0.source == .pointer }?.points.count == 2)
        #expect(strokes.first { $0.source == .pen }?.points.count == 3)
    }

    @Test func cancelThrowsTheStrokeAwayWithoutAStep() {
        var h = EngineHarness.open()
        _ = Self.draw(&h, .down, [P(x: 0.1, y: 0.1)], at: 5)
        _ = Self.draw(&h, .up, [P(x: 0.2, y: 0.1)], at: 6)
        let kept = h.engine.canvas.strokes
        _ = Self.draw(&h, .touch, .down, [P(x: 0.5, y: 0.5)], at: 10)
        _ = Self.draw(&h, .touch, .move, [P(x: 0.6, y: 0.5)], at: 20)
        #expect(Self.draw(&h, .touch, .cancel, at: 30) == .done)
        #expect(h.engine.canvas.strokes == kept && h.engine.canvas.pointCount == 2)
        #expect(Self.strokeEvents(h).count == 1)
        #expect(h.command(.undo, at: 40) == .done && h.engine.canvas.strokes.isEmpty)
    }

    @Test func refusalsNameTheirReasonAndChangeNothing() {
        var closed = EngineHarness()
        guard case .refused(let notOpen) = Self.draw(&closed, .down, [P(x: 0.5, y: 0.5)], at: 1) else { Issue.record("drew on a minimized canvas"); return }
        #expect(notOpen.contains("minimized"))
        var h = EngineHarness.open()
        let before = h.engine.canvas, heard = h.events.count
        let bad: [(DrawRequest, String)] = [
            (DrawRequest(source: .pointer, phase: .move, points: [P(x: 0.5, y: 0.5)]), "move without down"),
            (DrawRequest(source: .pointer, phase: .up, points: []), "up without down"),
            (DrawRequest(source: .touch, phase: .cancel, points: []), "cancel without down"),
            (DrawRequest(source: .pointer, phase: .down, points: [P(x: .nan, y: 0.5)]), "outside the canvas"),
            (DrawRequest(source: .pointer, phase: .down, points: [P(x: .infinity, y: 0.5)]), "outside the canvas"),
            (DrawRequest(source: .pointer, phase: .down, points: [P(x: 0.5, y: 1e300)]), "outside the canvas"),
            (DrawRequest(source: .pointer, phase: .down, points: [P(x: 0.5, y: 0.5, pressure: 2)]), "pressure"),
            (DrawRequest(source: .pointer, phase: .down, points: []), "needs its first point"),
            (DrawRequest(source: .pointer, phase: .down, points: [P(x: 0.5, y: 0.5)], aspect: 0), "aspect"),
            (DrawRequest(source: .pen, phase: .down, points: [P(x: 0.5, y: 0.5)]), "source"),
            (DrawRequest(source: .pointer, phase: .down, points: Array(repeating: P(x: 0.5, y: 0.5), count: DrawRequest.maxPoints + 1)), "at most"),
        ]
        for (i, (request, reason)) in bad.enumerated() {
            guard case .refused(let said) = h.command(.draw(request), at: 10 + Double(i)) else { Issue.record("accepted: \(reason)"); continue }
            #expect(said.contains(reason), "\(said)")
        }
        #expect(h.engine.canvas == before)
        #expect(h.events.count == heard, "a refusal said something")
    }

    @Test func aLittleOutsideIsClampedOntoTheEdge() {
        var h = EngineHarness.open()
        #expect(Self.draw(&h, .down, [P(x: -0.04, y: 1.04)], at: 10) == .done)
        #expect(h.engine.canvas.strokes.first?.points.first.map { ($0.x, $0.y) } ?? (9, 9) == (0, 1))
    }

    @Test func aMinimizeEndsTheStrokeAndTheNextNeedsADown() {
        var h = EngineHarness.open()
        _ = Self.draw(&h, .down, [P(x: 0.1, y: 0.1)], at: 10)
        _ = Self.draw(&h, .move, [P(x: 0.2, y: 0.1)], at: 11)
        h.command(.minimizeCanvas, at: 20)
        #expect(h.engine.canvas.strokes.count == 1 && Self.strokeEvents(h).count == 1)
        guard case .refused = Self.draw(&h, .move, [P(x: 0.3, y: 0.1)], at: 21) else { Issue.record("drew while minimizing"); return }
        h.command(.acknowledgeTransition, at: 22)
        h.command(.openCanvas, at: 30)
        h.command(.acknowledgeTransition, at: 31)
        #expect(h.engine.canvas.strokes.count == 1, "no stroke starts again by itself on opening")
        guard case .refused(let reason) = Self.draw(&h, .move, [P(x: 0.3, y: 0.1)], at: 32) else { Issue.record("a move without down drew"); return }
        #expect(reason.contains("without down"))
    }

    @Test func aFullCanvasRefusesADown() {
        var config = EngineConfig()
        config.canvasLimits.maxStrokes = 1
        var h = EngineHarness.open(config: config)
        _ = Self.draw(&h, .down, [P(x: 0.1, y: 0.1)], at: 10)
        _ = Self.draw(&h, .up, [P(x: 0.2, y: 0.1)], at: 11)
        let before = h.engine.canvas.strokes
        guard case .refused(let reason) = Self.draw(&h, .down, [P(x: 0.5, y: 0.5)], at: 20) else { Issue.record("drew on a full canvas"); return }
        #expect(reason.contains("full"))
        #expect(h.engine.canvas.strokes == before)
        guard case .refused = Self.draw(&h, .move, [P(x: 0.5, y: 0.6)], at: 21) else { Issue.record("a refused down left a stroke in progress"); return }
    }

    @Test func theStrokeEraserRemovesWhatAPointerErasesThrough() {
        var config = EngineConfig()
        config.eraser = .stroke
        var h = EngineHarness.open(config: config)
        _ = Self.draw(&h, .down, [P(x: 0.1, y: 0.5)], at: 10)
        _ = Self.draw(&h, .up, [P(x: 0.9, y: 0.5)], at: 11)
        h.command(.style(.set(tool: .eraser, color: nil, width: nil)), at: 12)
        _ = Self.draw(&h, .down, [P(x: 0.5, y: 0.1)], aspect: 9.0 / 16.0, at: 20)
        _ = Self.draw(&h, .up, [P(x: 0.5, y: 0.9)], at: 21)
        #expect(h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 30) == .done && h.engine.canvas.strokes.count == 1)
    }

    @Test func aClearMidStrokeStartsItAgainAsForThePen() {
        var h = EngineHarness.open()
        _ = Self.draw(&h, .down, [P(x: 0.1, y: 0.1)], at: 10)
        _ = Self.draw(&h, .move, [P(x: 0.2, y: 0.1)], at: 11)
        h.command(.clearCanvas, at: 12)
        #expect(Self.draw(&h, .up, [P(x: 0.3, y: 0.1)], at: 13) == .done)
        #expect(h.engine.canvas.strokes.map(\.points.count) == [2])
    }
}

@Suite("Canvas drawing on the palette")
struct CanvasDrawingPaletteTests {
    typealias P = DrawRequest.Point

    @Test func aPointerPressOnTheShownPaletteSelectsAndRecordsNothing() {
        var h = PaletteTests.withPalette()
        #expect(CanvasDrawingTests.draw(&h, .down, [P(x: 0.02, y: 0.95)], at: 100) == .done)
        #expect(h.engine.strokeInProgress(.pointer) == nil)
        #expect(CanvasDrawingTests.draw(&h, .move, [P(x: 0.3, y: 0.5)], at: 110) == .done, "a drag that slides off draws nothing")
        #expect(CanvasDrawingTests.draw(&h, .up, [P(x: 0.4, y: 0.5)], at: 120) == .done)
        #expect(h.engine.canvas.style.color == PaletteTests.blue)
        #expect(h.engine.canvas.strokes.isEmpty && CanvasDrawingTests.strokeEvents(h).isEmpty)
        // The next press, off the palette, draws in the colour picked.
        _ = CanvasDrawingTests.draw(&h, .down, [P(x: 0.5, y: 0.5)], at: 300)
        _ = CanvasDrawingTests.draw(&h, .up, [P(x: 0.6, y: 0.5)], at: 310)
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.strokes[0].style.color == PaletteTests.blue)
    }

    @Test func aCancelledPressOnThePaletteLeavesTheNextStrokeFree() {
        var h = PaletteTests.withPalette()
        _ = CanvasDrawingTests.draw(&h, .touch, .down, [P(x: 0.07, y: 0.95)], at: 100)
        #expect(CanvasDrawingTests.draw(&h, .touch, .cancel, at: 110) == .done)
        #expect(h.engine.canvas.style.tool == .highlighter)
        _ = CanvasDrawingTests.draw(&h, .touch, .down, [P(x: 0.5, y: 0.5)], at: 200)
        _ = CanvasDrawingTests.draw(&h, .touch, .up, [P(x: 0.6, y: 0.5)], at: 210)
        #expect(h.engine.canvas.strokes.count == 1)
    }
}
