// SPDX-License-Identifier: MIT
import CanvasModel
import Testing

private func p(_ x: Double, _ pressure: Double = 0.5) -> InkPoint { InkPoint(x: x, y: x, pressure: pressure) }
private func stroke(_ n: Int) -> InkStroke { InkStroke(device: 1, tool: .pen, points: (0..<n).map { p(Double($0) / 100) }) }

@Test func widthFollowsTheSvgRule() {
    let g = InkGeometry(width: 1600, height: 1000)
    #expect(g.lineWidth(p(0, 0), p(0, 0)) == 0.5)
    #expect(g.lineWidth(p(0, 1), p(0, 1)) == 8)
    #expect(g.lineWidth(p(0, 0.2), p(0, 0.6)) == 0.5 + 7.5 * 0.4)
    #expect(InkGeometry(width: 3200, height: 1000).lineWidth(p(0, 1), p(0, 1)) == 16)
    #expect(g.pixel(InkPoint(x: 0.25, y: 0.5, pressure: 0)) == (400, 500))
}

@Test func damageCoversTheSegmentAndItsCaps() {
    let g = InkGeometry(width: 1600, height: 1000)
    let r = g.damage(InkPoint(x: 0.5, y: 0.5, pressure: 1), InkPoint(x: 0.5, y: 0.5, pressure: 1))
    #expect(r == PixelRect(x: 795, y: 495, width: 10, height: 10))
}

@Test func liveStrokesBecomeSegmentsAndEndOnTipUp() {
    var book = StrokeBook()
    #expect(book.penSample(device: 1, tool: .pen, point: p(0.1), tip: true) == .none)
    #expect(book.penSample(device: 1, tool: .pen, point: p(0.2), tip: true) == .segment(p(0.1), p(0.2), InkStyle()))
    #expect(book.penSample(device: 1, tool: .pen, point: p(0.3), tip: false) == .none)
    #expect(book.liveDone.count == 1 && book.liveCurrent.isEmpty)
}

@Test func reconcileAppendsConfirmsAndRebuilds() {
    var book = StrokeBook()
    _ = book.penSample(device: 1, tool: .pen, point: p(0.1), tip: true)
    _ = book.penSample(device: 1, tool: .pen, point: p(0.2), tip: true)
    _ = book.penSample(device: 1, tool: .pen, point: p(0.2), tip: false)
    let first = book.reconcile([stroke(2)])
    #expect(first.finished == .append(0..<1) && first.liveChanged && book.liveDone.isEmpty)
    #expect(book.reconcile([stroke(2)]).finished == .unchanged)
    #expect(book.reconcile([stroke(2), stroke(5)]).finished == .append(1..<2))
    // A different history (a clear and new strokes, another daemon): everything again.
    #expect(book.reconcile([stroke(3)]).finished == .rebuild)
}

@Test func aConfirmationBeforeTheTipUpDropsThatLiveStroke() {
    var book = StrokeBook()
    _ = book.penSample(device: 1, tool: .pen, point: p(0.1), tip: true)
    _ = book.penSample(device: 1, tool: .pen, point: p(0.2), tip: true)
    _ = book.reconcile([stroke(2)])               // the `stroke` event overtook the tip-up sample
    #expect(book.penSample(device: 1, tool: .pen, point: p(0.2), tip: false) == .redrawLive)
    #expect(book.liveStrokes.isEmpty)
}

@Test func anAnswerAfterAnUndoIsDrawnAgainWholeEvenWhenItLooksLikeAnExtension() {
    var book = StrokeBook()
    _ = book.reconcile([stroke(2), stroke(4)])
    // Undo removed the 4-point stroke and a new 4-point stroke took its place before the answer.
    #expect(book.reconcile([stroke(2), stroke(4)], rebuild: true).finished == .rebuild)
    #expect(book.reconcile([stroke(2)]).finished == .rebuild, "fewer strokes: drawn again")
    #expect(book.finished == [stroke(2)])
}
