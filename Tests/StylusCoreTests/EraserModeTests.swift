// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

@Suite("The eraser: pixel-wise by default, whole strokes with eraser = \"stroke\"")
struct EraserModeTests {
    static func strokeEraser() -> EngineHarness {
        var config = EngineConfig()
        config.eraser = .stroke
        return EngineHarness.open(config: config)
    }

    /// Three vertical strokes, left, middle and right, drawn in that order.
    static func threeStrokes() -> EngineHarness {
        var h = strokeEraser()
        h.stroke(at: 10, through: left)
        h.stroke(at: 100, through: middle)
        h.stroke(at: 200, through: right)
        return h
    }

    static let left: [(Double, Double, Double)] = [(0.1, 0.2, 0.5), (0.1, 0.4, 0.5), (0.1, 0.6, 0.5)]
    static let middle: [(Double, Double, Double)] = [(0.5, 0.2, 0.5), (0.5, 0.4, 0.5), (0.5, 0.6, 0.5)]
    static let right: [(Double, Double, Double)] = [(0.9, 0.2, 0.5), (0.9, 0.4, 0.5), (0.9, 0.6, 0.5)]
    /// Across the middle stroke only.
    static let rubOverMiddle: [(Double, Double, Double)] = [(0.4, 0.4, 0.5), (0.6, 0.4, 0.5)]

    @Test func anEraserStrokeRemovesEveryStrokeItTouchesWholeAndIsNotKept() {
        var h = Self.threeStrokes()
        let drawn = h.engine.canvas.strokes
        h.enter(.eraser, at: 300)
        h.stroke(at: 310, through: Self.rubOverMiddle)
        #expect(h.engine.canvas.strokes == [drawn[0], drawn[2]])
        #expect(h.engine.canvas.pointCount == drawn[0].points.count + drawn[2].points.count)
        #expect(h.canvasEvents.last?.cause == .erase && h.canvasEvents.last?.strokeCount == 2)
    }

    @Test func undoPutsErasedStrokesBackWhereTheyWereAndRedoErasesThemAgain() {
        var h = Self.threeStrokes()
        let drawn = h.engine.canvas.strokes
        h.enter(.eraser, at: 300)
        // From the left stroke to the right one: all three go in one step.
        h.stroke(at: 310, through: [(0.05, 0.3, 0.5), (0.95, 0.3, 0.5)])
        #expect(h.engine.canvas.strokes.isEmpty && !h.engine.canvas.hasContent)
        #expect(h.command(.undo, at: 400) == .done)
        #expect(h.engine.canvas.strokes == drawn)
        #expect(h.command(.redo, at: 401) == .done)
        #expect(h.engine.canvas.strokes.isEmpty && h.engine.canvas.pointCount == 0)
        #expect(h.command(.undo, at: 402) == .done)
        #expect(h.engine.canvas.strokes == drawn)
    }

    @Test func anEraserThatTouchesNothingChangesNothingAndTakesNoUndoStep() {
        var h = Self.strokeEraser()
        h.stroke(at: 10, through: Self.left)
        h.enter(.eraser, at: 100)
        h.stroke(at: 110, through: [(0.7, 0.8, 0.5), (0.8, 0.9, 0.5)])
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.strokes[0].style.tool == .pen)
        #expect(h.engine.canvas.history == [.stroke])
    }

    @Test func aRectangleIsErasedAlongItsEdgesNotInside() {
        var h = Self.strokeEraser()
        _ = h.command(.style(.set(tool: .rectangle, color: nil, width: nil)), at: 5)
        h.stroke(at: 10, through: [(0.2, 0.2, 0.5), (0.8, 0.8, 0.5)])
        h.enter(.eraser, at: 100)
        h.stroke(at: 110, through: [(0.45, 0.45, 0.5), (0.55, 0.55, 0.5)])
        #expect(h.engine.canvas.strokes.count == 1, "a rub inside the rectangle leaves it")
        h.stroke(at: 200, through: [(0.75, 0.5, 0.5), (0.85, 0.5, 0.5)])
        #expect(h.engine.canvas.strokes.isEmpty, "a rub across its right edge removes it")
    }

    @Test func thePixelEraserKeepsItsStrokeAsBefore() {
        var h = EngineHarness.open()
        h.stroke(at: 10, through: Self.middle)
        h.enter(.eraser, at: 100)
        h.stroke(at: 110, through: Self.rubOverMiddle)
        #expect(h.engine.canvas.strokes.map(\.style.tool) == [.pen, .eraser])
    }

    /// Any drawing with stroke erasers among its strokes: undo back to empty, redo forward, the same drawing.
    @Test func undoAndRedoThroughStrokeErasesGiveBackTheSameDrawing() async {
        await propertyCheck(count: 40, input: EngineProperties.drawing, Gen.int(in: 0...5)) { strokes, eraserEvery in
            var h = Self.strokeEraser()
            var t = 10.0
            for (k, stroke) in strokes.enumerated() {
                let rubs = eraserEvery > 0 && k % (eraserEvery + 1) == eraserEvery
                h.enter(rubs ? .eraser : .pen, at: t)
                h.stroke(at: t + 5, through: stroke.map { ($0[0], $0[1], $0[2]) })
                t += 100
            }
            #expect(!h.engine.canvas.strokes.contains { $0.style.tool == .eraser }, "a stroke eraser is never kept")
            let (emptied, restored) = h.undoToEmptyAndRedoToEnd(at: t)
            #expect(emptied, "undo goes back to the empty canvas")
            #expect(restored, "redo gives back the same drawing")
        }
    }

    /// Pen A holds a stroke open while pen B draws and erases; after A finishes, undoing
    /// A and then the erase puts B's stroke back below where it was: redo must take it off
    /// from there, and a second round of undo must not bring it back twice.
    @Test func redoOfAnEraseTakesTheStrokeFromWhereUndoPutItBack() {
        var h = Self.strokeEraser()
        let other = DeviceID(2)
        h.send(.deviceAdded(other, DeviceInfo(name: "second pen", kind: .pen)), at: 2)
        h.stroke(at: 10, through: Self.left)                                   // S0 by pen A
        h.send(.tipDown(h.pen, PenAxes(x: 0.9, y: 0.9, pressure: 0.5)), at: 100)   // A starts and holds
        h.send(.proximityIn(other, Tool(type: .pen), PenAxes(x: 0.5, y: 0.2)), at: 110)
        h.send(.tipDown(other, PenAxes(x: 0.5, y: 0.2, pressure: 0.5)), at: 120)
        h.send(.motion(other, PenAxes(x: 0.5, y: 0.6, pressure: 0.5)), at: 130)
        h.send(.tipUp(other, PenAxes(x: 0.5, y: 0.6, pressure: 0)), at: 140)       // S2 by pen B
        let s2 = h.engine.canvas.strokes.last!
        h.send(.proximityOut(other), at: 150)
        h.send(.proximityIn(other, Tool(type: .eraser), PenAxes(x: 0.4, y: 0.4)), at: 160)
        h.send(.tipDown(other, PenAxes(x: 0.4, y: 0.4, pressure: 0.5)), at: 170)
        h.send(.motion(other, PenAxes(x: 0.6, y: 0.4, pressure: 0.5)), at: 180)
        h.send(.tipUp(other, PenAxes(x: 0.6, y: 0.4, pressure: 0)), at: 190)       // erases S2
        #expect(!h.engine.canvas.strokes.contains(s2))
        h.send(.tipUp(h.pen, PenAxes(x: 0.9, y: 0.9, pressure: 0)), at: 200)       // A finishes
        #expect(h.command(.undo, at: 300) == .done)    // A's stroke
        #expect(h.command(.undo, at: 301) == .done)    // the erase: S2 back, now at index 1
        #expect(h.engine.canvas.strokes.filter { $0 == s2 }.count == 1)
        #expect(h.command(.redo, at: 302) == .done)    // the erase again
        #expect(!h.engine.canvas.strokes.contains(s2), "redo left the erased stroke on the canvas")
        #expect(h.command(.undo, at: 303) == .done)
        #expect(h.engine.canvas.strokes.filter { $0 == s2 }.count == 1, "the erased stroke came back twice")
        #expect(h.engine.canvas.pointCount == h.engine.canvas.strokes.reduce(0) { $0 + $1.points.count })
    }

    /// A canvas full of points takes no stroke, but a stroke eraser still starts, and what
    /// it removes makes room: the next pen stroke is recorded.
    @Test func aStrokeEraserMakesRoomOnAFullCanvas() {
        var config = EngineConfig()
        config.eraser = .stroke
        config.canvasLimits.maxPoints = 8
        var h = EngineHarness.open(config: config)
        h.stroke(at: 10, through: Self.left)
        h.stroke(at: 100, through: Self.middle)
        h.stroke(at: 150, through: Self.right)
        #expect(h.engine.canvas.strokes.count == 2 && h.engine.canvas.isFull, "two strokes fill a canvas of 8 points")
        h.enter(.eraser, at: 200)
        h.stroke(at: 210, through: Self.rubOverMiddle)
        #expect(h.engine.canvas.strokes.count == 1 && !h.engine.canvas.isFull, "the eraser made no room")
        h.enter(.pen, at: 300)
        h.stroke(at: 310, through: Self.right)
        #expect(h.engine.canvas.strokes.count == 2, "no stroke after the eraser made room")
    }

    @Test func touchingIsMeasuredWithBothInksWidths() {
        func stroke(_ tool: DrawingTool, width: Double, _ points: [(Float, Float)]) -> Stroke {
            Stroke(device: DeviceID(0), style: StrokeStyle(tool: tool, width: width),
                   points: points.map { StrokePoint(x: $0.0, y: $0.1, pressure: 1, tiltX: 0, tiltY: 0, time: 0) })
        }
        // A vertical pen line at x = 800 px (of 1600), width 8 at full pressure; an eraser point beside it, 24 wide.
        let ink = stroke(.pen, width: 8, [(0.5, 0.1), (0.5, 0.5)])
        let near = stroke(.eraser, width: 8, [(Float(815.0 / 1600), 0.3)])   // 15 px away: within 4 + 12
        let far = stroke(.eraser, width: 8, [(Float(817.0 / 1600), 0.3)])    // 17 px away: beyond 16
        #expect(EraserHit.touches(near, ink, aspect: 0.625))
        #expect(!EraserHit.touches(far, ink, aspect: 0.625))
        #expect(abs(EraserHit.cosine(1.0) - 0.5403023058681398) < 1e-6 && abs(EraserHit.sine(2.0) - 0.9092974268256817) < 1e-6)
    }
}
