// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The palette's board button shows the board now under the ink, as a small
/// landscape sheet (unlike the square colour swatches): its paper, the grid's
/// lines on `grid`, a slash on `none` (the desktop shows). The GNOME
/// extension's palette.js draws the same.
extension InkLayers {
    func drawBoardGlyph(_ cr: OpaquePointer, _ box: PixelRect, alpha: Double) {
        let sheet = PixelRect(x: box.x + 0.05 * box.width, y: box.y + 0.2 * box.height, width: 0.9 * box.width, height: 0.6 * box.height)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_new_path(cr)
        if let paper = CanvasBoard.paper(board) {
            cairo_rectangle(cr, sheet.x, sheet.y, sheet.width, sheet.height)
            cairo_set_source_rgba(cr, Double(paper.red) / 255, Double(paper.green) / 255, Double(paper.blue) / 255, alpha)
            cairo_fill(cr)
        }
        cairo_set_line_width(cr, 1)
        if board == .grid {
            let line = CanvasBoard.gridLine
            for u in [1.0 / 3, 2.0 / 3] {
                cairo_move_to(cr, sheet.x + u * sheet.width, sheet.y)
                cairo_line_to(cr, sheet.x + u * sheet.width, sheet.y + sheet.height)
                cairo_move_to(cr, sheet.x, sheet.y + u * sheet.height)
                cairo_line_to(cr, sheet.x + sheet.width, sheet.y + u * sheet.height)
            }
            cairo_set_source_rgba(cr, Double(line.red) / 255 * 0.8, Double(line.green) / 255 * 0.8, Double(line.blue) / 255 * 0.8, alpha)
            cairo_stroke(cr)
        }
        cairo_rectangle(cr, sheet.x, sheet.y, sheet.width, sheet.height)
        if board == .none {
            cairo_move_to(cr, sheet.x, sheet.y + sheet.height)
            cairo_line_to(cr, sheet.x + sheet.width, sheet.y)
        }
        cairo_set_source_rgba(cr, 0.75, 0.75, 0.75, alpha)
        cairo_stroke(cr)
    }
}
