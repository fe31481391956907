// SPDX-License-Identifier: MIT
import CanvasModel
@testable import stylus_canvas
import Testing

/// A canvas fetches the strokes from the last one it holds on and joins them to those before.
@Suite("Joining a strokes answer from an index")
struct StrokesTailTests {
    static func stroke(_ n: Int) -> InkStroke {
        InkStroke(device: 1, style: InkStyle(), points: (0...n).map { InkPoint(x: Double($0) / 10, y: 0.5, pressure: 1) })
    }

    @Test func theTailFollowsTheStrokesBeforeItsFirstIndex() {
        let known = [Self.stroke(1), Self.stroke(2), Self.stroke(3)]
        let tail = StrokesTail(from: 2, count: 4, strokes: [Self.stroke(3), Self.stroke(4)])
        #expect(tail.whole(after: known) == [Self.stroke(1), Self.stroke(2), Self.stroke(3), Self.stroke(4)])
    }

    @Test func aDaemonThatListsTheWholeDrawingIsTakenAsIs() {
        let all = [Self.stroke(5)]
        #expect(StrokesTail(from: nil, count: nil, strokes: all).whole(after: [Self.stroke(1), Self.stroke(2)]) == all)
    }

    /// An undo (or an erase) took strokes meanwhile: the tail cannot say which.
    @Test func aDrawingShorterThanTheIndexAskedOrAHolderShorterThanItNeedsTheWhole() {
        #expect(StrokesTail(from: 2, count: 1, strokes: []).whole(after: [Self.stroke(1), Self.stroke(2), Self.stroke(3)]) == nil)
        #expect(StrokesTail(from: 2, count: 3, strokes: [Self.stroke(3)]).whole(after: [Self.stroke(1)]) == nil)
    }
}
