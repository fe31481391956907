// SPDX-License-Identifier: MIT
import CanvasModel
import Testing

private func p(_ x: Double, _ pressure: Double = 0.5) -> InkPoint { InkPoint(x: x, y: x, pressure: pressure) }

@Test func coloursAreHashRRGGBBAndNothingElse() {
    #expect(InkColor(hex: "#D61A1C") == .red)
    #expect(InkColor(hex: "#d61a1c")?.hex == "#d61a1c")
    #expect(InkColor(hex: "#00ff80") == InkColor(red: 0, green: 255, blue: 128))
    for bad in ["", "#", "#12345", "#1234567", "d61a1c", "#gg0000", "# 12345", "#ffffff "] {
        #expect(InkColor(hex: bad) == nil, "\(bad) was taken")
    }
}

@Test func unknownToolNamesInkAsThePen() {
    #expect(InkTool(name: "highlighter") == .highlighter)
    #expect(InkTool(name: "eraser") == .eraser)
    #expect(InkTool(name: "brush") == .pen)
    #expect(InkTool(name: "airbrush") == .pen)
    #expect(InkTool.allCases.filter(\.isShape) == [.line, .arrow, .rectangle, .ellipse])
    #expect(InkTool.allCases.filter(\.drawsWhole) == [.highlighter, .line, .arrow, .rectangle, .ellipse])
}

@Test func thePenAtTheDefaultWidthKeepsTheSvgRuleAndOtherWidthsScaleIt() {
    let g = InkGeometry(width: 1600, height: 1000)
    for pressure in stride(from: 0.0, through: 1.0, by: 0.125) {
        #expect(g.lineWidth(p(0, pressure), p(0, pressure), InkStyle()) == 0.5 + 7.5 * pressure)
        #expect(g.lineWidth(p(0, pressure), p(0, pressure), InkStyle(width: 16)) == 2 * (0.5 + 7.5 * pressure))
    }
}

@Test func theEraserIsThreeTimesThePenTheHighlighterWideAndFlatShapesConstant() {
    let g = InkGeometry(width: 1600, height: 1000)
    let light = p(0, 0.1), hard = p(0, 0.9)
    #expect(g.lineWidth(hard, hard, InkStyle(tool: .eraser)) == 3 * g.lineWidth(hard, hard, InkStyle()))
    #expect(g.lineWidth(light, light, InkStyle(tool: .highlighter)) == 24)
    #expect(g.lineWidth(hard, hard, InkStyle(tool: .highlighter)) == 24)
    for shape in [InkTool.line, .arrow, .rectangle, .ellipse] {
        #expect(g.lineWidth(light, light, InkStyle(tool: shape)) == 4)
        #expect(g.lineWidth(hard, hard, InkStyle(tool: shape, width: 20)) == 10)
    }
    #expect(InkStyle(tool: .highlighter, width: 10).maximumReferenceWidth == 30)
}

@Test func shapesSpanTheStrokesFirstAndLastPoints() {
    let a = PixelPoint(x: 10, y: 20), b = PixelPoint(x: 110, y: 70)
    #expect(ShapeOutline.of(.line, from: a, to: b, lineWidth: 2) == .polylines([[a, b]], closed: false))
    #expect(ShapeOutline.of(.rectangle, from: a, to: b, lineWidth: 2)?.bounds == PixelRect(x: 10, y: 20, width: 100, height: 50))
    #expect(ShapeOutline.of(.ellipse, from: b, to: a, lineWidth: 2) == .ellipse(center: PixelPoint(x: 60, y: 45), radiusX: 50, radiusY: 25))
    #expect(ShapeOutline.of(.pen, from: a, to: b, lineWidth: 2) == nil)
}

@Test func anArrowsHeadSitsAtTheLastPointAndNeverOutgrowsTheShaft() {
    let a = PixelPoint(x: 0, y: 0)
    guard case .polylines(let lines, _)? = ShapeOutline.of(.arrow, from: a, to: PixelPoint(x: 200, y: 0), lineWidth: 4),
          lines.count == 2 else {
        Issue.record("an arrow is its shaft and its head")
        return
    }
    #expect(lines[1][1] == PixelPoint(x: 200, y: 0))
    // Both wings behind the tip, one on each side, 16 px (4 line widths) long.
    #expect(lines[1][0].x < 200 && lines[1][2].x < 200 && lines[1][0].y * lines[1][2].y < 0)
    #expect(abs(((200 - lines[1][0].x) * (200 - lines[1][0].x) + lines[1][0].y * lines[1][0].y).squareRoot() - 16) < 1e-9)
    guard case .polylines(let short, _)? = ShapeOutline.of(.arrow, from: a, to: PixelPoint(x: 10, y: 0), lineWidth: 4) else { return }
    #expect(short[1][0].x >= 5 - 1e-9)
}

@Test func aWholeDrawnToolRedrawsTheLiveLayerAtEachSample() {
    var book = StrokeBook()
    let marker = InkStyle(tool: .highlighter, color: InkColor(red: 255, green: 220, blue: 0))
    #expect(book.penSample(device: 1, style: marker, point: p(0.1), tip: true) == .none)
    #expect(book.penSample(device: 1, style: marker, point: p(0.2), tip: true) == .redrawLive)
    #expect(book.liveStrokes.map(\.style) == [marker])
    // Another style mid-stroke starts a new stroke.
    #expect(book.penSample(device: 1, style: InkStyle(), point: p(0.3), tip: true) == .none)
    #expect(book.liveStrokes.map(\.style) == [marker, InkStyle()])
}

@Test func aLaserStrokeStaysUntilItsTimeIsUpAndIsNeverTakenForAConfirmedStroke() {
    var book = StrokeBook()
    let laser = InkStyle(tool: .laser)
    _ = book.penSample(device: 1, style: laser, point: p(0.1), tip: true)
    _ = book.penSample(device: 1, style: laser, point: p(0.2), tip: true)
    _ = book.penSample(device: 1, style: laser, point: p(0.2), tip: false)
    #expect(book.lasers.count == 1 && book.liveDone.isEmpty)
    #expect(book.liveStrokes.map(\.style) == [laser])
    // A pen stroke after it, confirmed by the daemon: the laser stroke stays.
    _ = book.penSample(device: 1, style: InkStyle(), point: p(0.3), tip: true)
    _ = book.penSample(device: 1, style: InkStyle(), point: p(0.4), tip: true)
    _ = book.penSample(device: 1, style: InkStyle(), point: p(0.4), tip: false)
    _ = book.reconcile([InkStroke(device: 1, style: InkStyle(), points: [p(0.3), p(0.4)])])
    #expect(book.liveDone.isEmpty && book.lasers.count == 1)
    #expect(book.expireOldestLaser() && book.lasers.isEmpty && !book.expireOldestLaser())
}
