// SPDX-License-Identifier: MIT
import StylusCore

extension SVGDrawing {
    /// The document on `board`: an opaque `<rect>` and, for the grid, its lines,
    /// under the ink (an eraser cuts the ink only); `none` leaves it transparent.
    public func document(board: CanvasBackground) -> String {
        guard let paper = CanvasBoard.paper(board) else { return document(underlay: "") }
        var underlay = "<rect width=\"100%\" height=\"100%\" fill=\"\(paper.hex)\"/>\n"
        if board == .grid {
            let w = Double(width), h = Double(height)
            let xs = CanvasBoard.gridLines(origin: 0, length: w, areaWidth: w)
            let ys = CanvasBoard.gridLines(origin: 0, length: h, areaWidth: w)
            let lines = xs.map { "M\(Self.r($0)) 0 V\(Self.r(h))" } + ys.map { "M0 \(Self.r($0)) H\(Self.r(w))" }
            underlay += "<path d=\"\(lines.joined(separator: " "))\" stroke=\"\(CanvasBoard.gridLine.hex)\" "
                + "stroke-width=\"\(Self.r(CanvasBoard.gridLineWidth(areaWidth: w)))\" fill=\"none\"/>\n"
        }
        return document(underlay: underlay)
    }
}
