// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Text strokes (the text command)")
struct TextStrokeTests {
    typealias P = DrawRequest.Point

    static func text(_ h: inout EngineHarness, _ string: String, x: Double = 0.2, y: Double = 0.3, size: Double? = nil,
                     color: StrokeColor? = nil, at ms: Double) -> CommandOutcome {
        h.command(.text(TextRequest(string: string, x: x, y: y, size: size, color: color)), at: ms)
    }

    @Test func aTextIsAStrokeOfTheKeyboardInTheCurrentStyleAndAnnounced() {
        var h = EngineHarness.open()
        h.command(.style(.set(tool: nil, color: StrokeColor(hex: "#3465a4"), width: 12)), at: 5)
        #expect(Self.text(&h, "Hello\nworld", at: 10) == .done)
        let stroke = h.engine.canvas.strokes.first
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.pointCount == 1)
        #expect(stroke?.style.tool == .text && stroke?.style.color.hex == "#3465a4")
        #expect(stroke?.source == .keyboard && stroke?.device == StrokeSource.keyboard.device)
        #expect(stroke?.text == StrokeText(string: "Hello\nworld", size: 36), "3 × the width 12")
        #expect(stroke?.points.map(\.x) == [0.2] && stroke?.points.map(\.y) == [Float(0.3)])
        let event = h.events.compactMap { if case .stroke(let e) = $0 { e } else { nil } }.last
        #expect(event?.index == 0 && event?.points == 1 && event?.source == .keyboard)
        #expect(h.engine.canvas.hasContent)
    }

    @Test func sizeAndColourGivenWinAndTheSizeRuleClamps() {
        var h = EngineHarness.open()
        #expect(Self.text(&h, "a", size: 100, color: StrokeColor(hex: "#000000"), at: 10) == .done)
        #expect(h.engine.canvas.strokes[0].text?.size == 100 && h.engine.canvas.strokes[0].style.color.hex == "#000000")
        #expect(StrokeText.size(forWidth: 1) == 8 && StrokeText.size(forWidth: 8) == 24 && StrokeText.size(forWidth: 64) == 192)
    }

    @Test func undoRedoAndClearTakeATextAsAStroke() {
        var h = EngineHarness.open()
        _ = Self.text(&h, "one", at: 10)
        let drawn = h.engine.canvas.strokes
        #expect(h.command(.undo, at: 20) == .done && h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.redo, at: 30) == .done && h.engine.canvas.strokes == drawn)
        #expect(h.command(.clearCanvas, at: 40) == .done && h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 50) == .done && h.engine.canvas.strokes == drawn)
    }

    @Test(arguments: [
        ("", "empty"), (String(repeating: "x", count: StrokeText.maxLength + 1), "at most 1000"),
        (Array(repeating: "l", count: StrokeText.maxLines + 1).joined(separator: "\n"), "at most 50"),
        ("tab\there", "U+0009"), ("bell\u{7}", "U+0007"), ("cr\r\n", "U+000D"), ("c1\u{85}", "U+0085"), (" \n ", "blanks"),
    ])
    func badTextIsRefusedByNameAndChangesNothing(string: String, named: String) {
        var h = EngineHarness.open()
        let before = h.engine.canvas
        guard case .refused(let reason) = Self.text(&h, string, at: 10) else { Issue.record("accepted \(string.debugDescription)"); return }
        #expect(reason.contains(named), "\(reason)")
        #expect(h.engine.canvas == before)
    }

    @Test(arguments: [(Double.nan, 0.5), (0.5, Double.infinity), (1e300, 0.5), (-0.01, 0.5), (0.5, 1.01)])
    func anAnchorOffTheCanvasIsRefused(x: Double, y: Double) {
        var h = EngineHarness.open()
        guard case .refused(let reason) = Self.text(&h, "x", x: x, y: y, at: 10) else { Issue.record("accepted (\(x), \(y))"); return }
        #expect(reason.contains("outside the canvas"))
        #expect(h.engine.canvas.strokes.isEmpty)
    }

    @Test func aBadSizeIsRefused() {
        var h = EngineHarness.open()
        for size in [Double.nan, 7.9, 193, 1e9] {
            guard case .refused(let reason) = Self.text(&h, "x", size: size, at: 10) else { Issue.record("accepted size \(size)"); continue }
            #expect(reason.contains("\"size\""))
        }
        #expect(h.engine.canvas.strokes.isEmpty)
    }

    @Test func aMinimizedCanvasRefusesATextAndAFullOneToo() {
        var h = EngineHarness()
        guard case .refused(let reason) = Self.text(&h, "x", at: 10) else { Issue.record("placed a text on a minimized canvas"); return }
        #expect(reason.contains("minimized"))
        #expect(h.engine.canvas.strokes.isEmpty)
        var config = EngineConfig()
        config.canvasLimits.maxStrokes = 1
        var full = EngineHarness.open(config: config)
        _ = Self.text(&full, "a", at: 10)
        guard case .refused(let why) = Self.text(&full, "b", at: 20) else { Issue.record("placed a text on a full canvas"); return }
        #expect(why.contains("full") && full.engine.canvas.strokes.count == 1)
    }

    @Test func theStrokeEraserRemovesATextItsPathCrossesAndNotOneItMisses() {
        var config = EngineConfig()
        config.eraser = .stroke
        var h = EngineHarness.open(config: config)
        // At width 8: size 24, "Hello" about 5 × 14.4 = 72 reference px wide, 30 tall from (320, …).
        _ = Self.text(&h, "Hello", x: 0.2, y: 0.2, at: 10)
        _ = Self.text(&h, "far away", x: 0.7, y: 0.7, at: 11)
        h.command(.style(.set(tool: .eraser, color: nil, width: 1)), at: 12)
        // A short stroke inside the first text's box, touching no edge.
        _ = CanvasDrawingTests.draw(&h, .down, [P(x: 0.215, y: 0.2 + 15.0 / 1600 / 0.5625)], aspect: 0.5625, at: 20)
        _ = CanvasDrawingTests.draw(&h, .up, [P(x: 0.225, y: 0.2 + 15.0 / 1600 / 0.5625)], at: 21)
        #expect(h.engine.canvas.strokes.map { $0.text?.string } == ["far away"])
        #expect(h.command(.undo, at: 30) == .done && h.engine.canvas.strokes.count == 2)
    }

    @Test func theTextToolRecordsNoPenOrPointerStroke() {
        var h = EngineHarness.open()
        h.command(.style(.set(tool: .text, color: nil, width: nil)), at: 5)
        h.send(.tipDown(h.pen, PenAxes(x: 0.1, y: 0.1, pressure: 0.4)), at: 10)
        h.send(.motion(h.pen, PenAxes(x: 0.2, y: 0.1, pressure: 0.4)), at: 12)
        h.send(.tipUp(h.pen, PenAxes(x: 0.3, y: 0.1, pressure: 0)), at: 15)
        #expect(CanvasDrawingTests.draw(&h, .down, [P(x: 0.5, y: 0.5)], at: 20) == .done, "the canvas's click places its caret")
        #expect(CanvasDrawingTests.draw(&h, .up, [P(x: 0.5, y: 0.5)], at: 21) == .done)
        #expect(h.engine.canvas.strokes.isEmpty)
    }

    @Test func aTextGoesBelowAStrokeInProgress() {
        var h = EngineHarness.open()
        _ = CanvasDrawingTests.draw(&h, .down, [P(x: 0.5, y: 0.5)], at: 10)
        #expect(Self.text(&h, "under", at: 11) == .done)
        _ = CanvasDrawingTests.draw(&h, .up, [P(x: 0.6, y: 0.5)], at: 12)
        #expect(h.engine.canvas.strokes.map(\.style.tool) == [.text, .pen])
        #expect(h.engine.canvas.strokes[1].points.count == 2, "the stroke in progress went on")
    }
}
