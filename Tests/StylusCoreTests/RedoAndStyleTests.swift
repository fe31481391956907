// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

@Suite("Redo, undoable clear and the style of strokes")
struct RedoAndStyleTests {
    static let line = CanvasTests.line

    @Test func redoPutsBackWhatUndoTookUntilANewStroke() {
        var h = UndoTests.openWithStrokes(3)
        let drawn = h.engine.canvas.strokes
        #expect(h.command(.undo, at: 1000) == .done)
        #expect(h.command(.undo, at: 1001) == .done)
        #expect(h.command(.redo, at: 1002) == .done)
        #expect(h.engine.canvas.strokes == Array(drawn.prefix(2)))
        #expect(h.canvasEvents.last?.cause == .redo && h.canvasEvents.last?.strokeCount == 2)
        h.stroke(at: 1100, through: Self.line)
        #expect(h.command(.redo, at: 1300) == .unchanged(reason: "nothing to redo; redo takes again what undo took back, until a stroke, an erase, a clear, a discard or a submit changes the drawing"))
        #expect(h.engine.canvas.strokes.count == 3)
    }

    @Test func clearIsUndoneAndRedone() {
        var h = UndoTests.openWithStrokes(2)
        let drawn = h.engine.canvas.strokes
        #expect(h.command(.clearCanvas, at: 1000) == .done)
        #expect(h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 1001) == .done)
        #expect(h.engine.canvas.strokes == drawn)
        #expect(h.engine.canvas.pointCount == drawn.reduce(0) { $0 + $1.points.count })
        #expect(h.command(.redo, at: 1002) == .done)
        #expect(h.engine.canvas.strokes.isEmpty && h.engine.canvas.pointCount == 0)
        #expect(h.command(.undo, at: 1003) == .done)
        #expect(h.engine.canvas.strokes == drawn)
    }

    @Test func clearedStrokesKeptForUndoStayWithinTheCanvasPointLimit() {
        var config = EngineConfig()
        config.canvasLimits.maxPoints = 6
        var h = EngineHarness.open(config: config)
        var t = 10.0
        for _ in 0..<3 {
            h.stroke(at: t, through: Self.line)
            t += 200
            #expect(h.command(.clearCanvas, at: t) == .done)
            t += 10
        }
        let held = h.engine.canvas.history.reduce(0) { total, step in
            if case .clear(let strokes) = step { total + strokes.reduce(0) { $0 + $1.points.count } } else { total }
        }
        #expect(held > 0 && held <= 6, "cleared strokes held for undo: \(held) points, over three clears of \(h.engine.canvas.strokes.count) strokes")
        // The newest clear can still be undone.
        #expect(h.command(.undo, at: t) == .done)
        #expect(h.engine.canvas.strokes.count == 1)
    }

    @Test func strokesAfterAClearAreUndoneBeforeTheClear() {
        var h = UndoTests.openWithStrokes(2)
        let before = h.engine.canvas.strokes
        #expect(h.command(.clearCanvas, at: 1000) == .done)
        h.stroke(at: 1100, through: Self.line)
        #expect(h.command(.undo, at: 1300) == .done)
        #expect(h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 1301) == .done)
        #expect(h.engine.canvas.strokes == before)
    }

    /// Any drawing, then undo until nothing changes and redo until nothing changes: the same drawing.
    @Test func undoToTheStartAndRedoToTheEndGiveBackTheSameDrawing() async {
        await propertyCheck(count: 40, input: EngineProperties.drawing, Gen.int(in: 0...3)) { strokes, clearAfter in
            var h = EngineHarness.open()
            var t = h.draw(Array(strokes.prefix(clearAfter)), from: 10)
            if clearAfter < strokes.count {
                _ = h.command(.clearCanvas, at: t)
                t = h.draw(Array(strokes.dropFirst(clearAfter)), from: t + 10)
            }
            let (emptied, restored) = h.undoToEmptyAndRedoToEnd(at: t)
            #expect(emptied, "undo goes back to the empty canvas")
            #expect(restored, "redo gives back the same drawing")
        }
    }

    /// The eraser end is a tool of its own (issue 39): it starts as the eraser whatever the pen
    /// end chose, and erasing with it leaves the pen end's style as it was.
    @Test func aStrokeTakesTheCurrentStyleAndTheEraserEndErases() {
        var h = EngineHarness.open()
        let marker = StrokeStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 12)
        #expect(h.command(.style(.set(tool: .highlighter, color: marker.color, width: 12)), at: 5) == .done)
        #expect(h.events.contains { if case .tool(let e) = $0 { e.style == marker && e.source == .command } else { false } })
        h.stroke(at: 10, through: Self.line)
        #expect(h.engine.canvas.strokes.last?.style == marker)
        h.enter(.eraser, at: 300)
        h.stroke(at: 310, through: Self.line)
        #expect(h.engine.canvas.strokes.last?.style.tool == .eraser)
        h.leave(at: 590)
        h.enter(.pen, at: 600)
        h.stroke(at: 610, through: Self.line)
        #expect(h.engine.canvas.strokes.last?.style == marker, "the pen end draws as it did before the eraser end erased")
    }

    /// `[canvas] tool`, `color`, `width` are where each start begins: each key the file sets
    /// over the style the state file kept, the others as they were kept.
    @Test func theConfiguredKeysWinOverTheSavedStyleAtEachStart() {
        let blue = StrokeColor(hex: "#3465a4")!
        var saved = Canvas()
        saved.style = StrokeStyle(tool: .arrow, color: StrokeColor(hex: "#edd400")!, width: 12)
        var config = EngineConfig()
        config.style = ConfiguredStyle(tool: .pen, color: blue)
        var configured = Engine(config: config)
        configured.restore(canvas: saved, precisionEnabled: true)
        #expect(configured.canvas.style == StrokeStyle(tool: .pen, color: blue, width: 12))
        #expect(configured.canvas.previousTool == .arrow)
        var colourOnly = EngineConfig()
        colourOnly.style.color = blue
        var coloured = Engine(config: colourOnly)
        coloured.restore(canvas: saved, precisionEnabled: true)
        #expect(coloured.canvas.style == StrokeStyle(tool: .arrow, color: blue, width: 12))
        var plain = Engine()
        plain.restore(canvas: saved, precisionEnabled: true)
        #expect(plain.canvas.style == saved.style)
    }

    /// A reload that changes the style keys makes that style current and says so; one that
    /// leaves them alone keeps what was chosen since.
    @Test func aReloadAppliesTheStyleKeysOnlyWhenTheyChange() {
        var h = EngineHarness.open()
        #expect(h.command(.style(.set(tool: .highlighter, color: nil, width: nil)), at: 5) == .done)
        var effects = Effects()
        var unchanged = EngineConfig()
        unchanged.debounceMS = 30
        h.engine.reconfigure(unchanged, at: EngineHarness.us(10), into: &effects)
        #expect(h.engine.canvas.style.tool == .highlighter)
        #expect(!effects.events.contains { if case .tool = $0 { true } else { false } })
        var blue = unchanged
        blue.style.color = StrokeColor(hex: "#3465a4")!
        let expected = StrokeStyle(tool: .highlighter, color: blue.style.color!, width: StrokeStyle.defaultWidth)
        h.engine.reconfigure(blue, at: EngineHarness.us(20), into: &effects)
        #expect(h.engine.canvas.style == expected, "the colour applied, the tool chosen kept")
        #expect(effects.stateChanged)
        #expect(effects.events.contains { if case .tool(let e) = $0 { e.style == expected } else { false } })
        // The same keys again: the style chosen meanwhile stays, and nothing is said or saved.
        #expect(h.command(.style(.set(tool: .arrow, color: StrokeColor(hex: "#000000")!, width: nil)), at: 30) == .done)
        var again = Effects()
        h.engine.reconfigure(blue, at: EngineHarness.us(40), into: &again)
        #expect(h.engine.canvas.style.tool == .arrow && h.engine.canvas.style.color.hex == "#000000")
        #expect(!again.stateChanged && !again.events.contains { if case .tool = $0 { true } else { false } })
        // A key added: it alone applies; the colour the file already had does not come back.
        var wider = blue
        wider.style.width = 4
        var added = Effects()
        h.engine.reconfigure(wider, at: EngineHarness.us(50), into: &added)
        #expect(h.engine.canvas.style == StrokeStyle(tool: .arrow, color: StrokeColor(hex: "#000000")!, width: 4))
    }

    /// The palette's colours change with a reload, and the canvases hear the new ones.
    @Test func aReloadThatChangesThePaletteSendsItsColours() {
        var h = EngineHarness.open()
        var config = EngineConfig()
        config.palette = ["#000000", "#ffffff"].map { StrokeColor(hex: $0)! }
        var effects = Effects()
        h.engine.reconfigure(config, at: EngineHarness.us(10), into: &effects)
        #expect(effects.events.contains { if case .tool(let e) = $0 { e.colors == config.palette } else { false } })
        #expect(h.command(.style(.set(tool: nil, color: config.palette[0], width: nil)), at: 20) == .done)
        #expect(h.command(.style(.nextColor), at: 30) == .done)
        #expect(h.engine.canvas.style.color == config.palette[1])
    }

    @Test func theLaserIsNeverRecorded() {
        var h = EngineHarness.open()
        #expect(h.command(.style(.set(tool: .laser, color: nil, width: nil)), at: 5) == .done)
        h.stroke(at: 10, through: Self.line)
        #expect(h.engine.canvas.strokes.isEmpty && !h.engine.canvas.hasContent)
    }

    @Test func anEraserStrokeAloneIsNoContent() {
        var h = EngineHarness.open()
        h.enter(.eraser, at: 1)
        h.stroke(at: 10, through: Self.line)
        #expect(h.engine.canvas.strokes.count == 1 && !h.engine.canvas.hasContent)
    }

    @Test func toolPreviousSwitchesBetweenTheLastTwoTools() {
        var h = EngineHarness.open()
        #expect(h.command(.style(.set(tool: .eraser, color: nil, width: nil)), at: 1) == .done)
        #expect(h.command(.style(.previousTool), at: 2) == .done)
        #expect(h.engine.canvas.style.tool == .pen)
        #expect(h.command(.style(.previousTool), at: 3) == .done)
        #expect(h.engine.canvas.style.tool == .eraser)
    }

    @Test func coloursGoRoundThePaletteAndWidthsStepToTheirEnds() {
        var h = EngineHarness.open()
        let palette = StyleRequest.defaultPalette
        #expect(h.command(.style(.nextColor), at: 1) == .done)
        #expect(h.engine.canvas.style.color == palette[1])
        #expect(h.command(.style(.previousColor), at: 2) == .done)
        #expect(h.command(.style(.previousColor), at: 3) == .done)
        #expect(h.engine.canvas.style.color == palette[palette.count - 1])
        var t = 10.0
        while h.command(.style(.wider), at: t) == .done { t += 1 }
        #expect(h.engine.canvas.style.width == 64)
        #expect(h.command(.style(.wider), at: t + 1) == .unchanged(reason: "the width is already 64, the widest"))
        while h.command(.style(.narrower), at: t + 2) == .done { t += 1 }
        #expect(h.engine.canvas.style.width == 1)
    }

    @Test func theNewActionsParseAndSpellBack() {
        for text in ["redo", "tool:highlighter", "tool:previous", "color:#3465a4", "color:next", "color:previous", "width:+", "width:-"] {
            #expect(Action(rawValue: text)?.rawValue == text, "\(text)")
        }
        for (text, message) in [("tool:brush", "unknown tool \"brush\""), ("color:#12345", "\"#12345\" is not a colour"), ("width:65", "the width is 1 to 64"), ("width:x", "the width is 1 to 64")] {
            guard case .failure(let error) = Action.parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }
}
