// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

/// How a drawing ends: `submit` (kept), `minimize` (put away) and `discard`
/// (thrown away, undoable). Clients read the result off the canvas events.
@Suite("Submit, discard and the result of a drawing")
struct KeepAndDiscardTests {
    @Test func minimizeSaysMinimizedOnBothOfItsEvents() {
        var h = UndoTests.openWithStrokes(1)
        #expect(h.command(.minimizeCanvas, at: 1000) == .done)
        h.advance(to: 2000)
        let ends = h.canvasEvents.filter { $0.state == .minimizing || $0.state == .minimized }
        #expect(ends.count == 2 && ends.allSatisfy { $0.result == .minimized })
        // Opening is no end: no result.
        #expect(h.command(.openCanvas, at: 3000) == .done)
        #expect(h.canvasEvents.last?.result == nil)
    }

    @Test func discardMinimizesAndClearsAndUndoBringsTheDrawingBack() {
        var h = UndoTests.openWithStrokes(2)
        let drawn = h.engine.canvas.strokes
        let before = h.canvasEvents.count
        #expect(h.command(.discard, at: 1000) == .done)
        let events = Array(h.canvasEvents.dropFirst(before))
        #expect(events.first?.cause == .discard && events.first?.result == .cancelled)
        #expect(events.first?.hasContent == true && events.first?.strokeCount == 2, "the ending event describes the drawing that ended")
        #expect(events.contains { $0.cause == .clear })
        #expect(events.last?.state == .minimizing && events.last?.result == .cancelled)
        #expect(h.engine.canvas.strokes.isEmpty)
        h.advance(to: 2000)
        #expect(h.engine.canvas.state == .minimized && h.canvasEvents.last?.result == .cancelled)
        #expect(h.command(.undo, at: 2100) == .done)
        #expect(h.engine.canvas.strokes == drawn, "nothing lost: the discarded drawing comes back with undo")
    }

    @Test func aStrokeInProgressEndsWithTheDrawingAndNoneBeginsAfter() {
        var h = UndoTests.openWithStrokes(1)
        h.send(.tipDown(h.pen, PenAxes(x: 0.2, y: 0.2, pressure: 0.5)), at: 500)
        h.send(.motion(h.pen, PenAxes(x: 0.3, y: 0.2, pressure: 0.5)), at: 505)
        #expect(h.command(.discard, at: 510) == .done)
        #expect(h.engine.canvas.strokes.isEmpty, "the pen still touching starts no stroke on a canvas that is going away")
        #expect(h.command(.undo, at: 600) == .done)
        #expect(h.engine.canvas.strokes.count == 2, "the stroke in progress was part of the discarded drawing")
    }

    @Test func discardOfNothingChangesNothingAndWhileOpeningIsRefused() {
        var h = EngineHarness()
        #expect(h.command(.discard, at: 10) == .unchanged(reason: "nothing to discard: the canvas is minimized and empty"))
        #expect(h.canvasEvents.isEmpty)
        #expect(h.command(.openCanvas, at: 20) == .done)
        #expect(h.command(.discard, at: 30) == .refused(reason: "canvas is opening; wait for the transition to end"))
        #expect(h.engine.canvas.state == .opening && h.canvasEvents.allSatisfy { $0.cause != .discard })
    }

    @Test func submitNamesItsFileThenClearsAndMinimizes() {
        var h = UndoTests.openWithStrokes(1)
        let before = h.canvasEvents.count
        #expect(h.command(.submit(path: "/tmp/x.png"), at: 1000) == .done)
        let events = Array(h.canvasEvents.dropFirst(before))
        #expect(events.first?.cause == .submit && events.first?.result == .submitted && events.first?.path == "/tmp/x.png")
        #expect(events.first?.hasContent == true)
        #expect(events.filter { $0.path != nil }.count == 1, "only the submit's own event names the file")
        #expect(events.last?.state == .minimizing && events.last?.result == .submitted)
        #expect(h.engine.canvas.strokes.isEmpty)
        #expect(h.command(.undo, at: 1100) == .done)
        #expect(h.engine.canvas.strokes.count == 1)
    }

    @Test func submitOfAMinimizedCanvasClearsIt() {
        var h = UndoTests.openWithStrokes(1)
        _ = h.command(.minimizeCanvas, at: 1000)
        h.advance(to: 2000)
        #expect(h.command(.submit(path: "/p/a.png"), at: 2100) == .done)
        #expect(h.engine.canvas.strokes.isEmpty && h.engine.canvas.state == .minimized)
    }

    @Test func doublePressDiscardIsTheEnginesAndSubmitTheShells() throws {
        #expect(try Action.parse("submit").get() == .submit && Action.submit.isPerformedByShell)
        #expect(try Action.parse("discard").get() == .discard && !Action.discard.isPerformedByShell)
        #expect(Action(rawValue: "submit")?.rawValue == "submit" && Action(rawValue: "discard")?.rawValue == "discard")
    }
}
