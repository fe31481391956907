// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The board under the ink (`CanvasBoard`): painted first in every frame and
/// export, never into the ink's layers, so the eraser, which clears those,
/// never takes it away.
extension InkLayers {
    /// Shows `background` from the next frame on; true when it changed.
    @discardableResult
    func setBoard(_ background: InkBoard) -> Bool {
        guard background != board else { return false }
        board = background
        damageEverything()
        return true
    }

    /// Paints the board over the whole surface at `alpha`; nothing for `none`.
    func drawBoard(_ cr: OpaquePointer, alpha: Double) {
        guard let paper = CanvasBoard.paper(board) else { return }
        let width = Double(key.width), height = Double(key.height)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        Self.setSource(cr, paper, alpha: alpha)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_fill(cr)
        guard board == .grid else { return }
        // Whole-pixel rectangles rather than stroked lines: a line of one pixel
        // stroked on a pixel's edge would be two grey pixels.
        let lineWidth = CanvasBoard.gridLineWidth(areaWidth: geometry.width).rounded()
        func band(_ centre: Double) -> Double { (centre - lineWidth / 2).rounded() }
        for x in CanvasBoard.gridLines(origin: geometry.originX, length: width, areaWidth: geometry.width) {
            cairo_rectangle(cr, band(x), 0, lineWidth, height)
        }
        for y in CanvasBoard.gridLines(origin: geometry.originY, length: height, areaWidth: geometry.width) {
            cairo_rectangle(cr, 0, band(y), width, lineWidth)
        }
        Self.setSource(cr, CanvasBoard.gridLine, alpha: alpha)
        cairo_fill(cr)
    }

    private static func setSource(_ cr: OpaquePointer, _ c: InkColor, alpha: Double) {
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
    }
}
