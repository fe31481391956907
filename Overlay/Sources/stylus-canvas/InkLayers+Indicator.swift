// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The sign that the canvas is open (`[canvas] indicator`), drawn over everything in each frame
/// and never into the ink's layers, so no export or eraser ever meets it. Its colour is the
/// current style's: the sign also says what the next stroke will be drawn in.
extension InkLayers {
    func setIndicator(_ kind: InkIndicator) {
        guard kind != indicator else { return }
        damageIndicator()
        indicator = kind
        damageIndicator()
    }

    var indicatorRects: [PixelRect] { OpenIndicator.rects(indicator, width: Double(key.width), height: Double(key.height)) }

    func damageIndicator() {
        for rect in indicatorRects { addDamage(rect) }
    }

    func drawIndicator(_ cr: OpaquePointer, alpha: Double) {
        guard indicator != .none, alpha > 0 else { return }
        let c = palette.style.color
        let (r, g, b) = (Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        switch indicator {
        case .none:
            return
        case .frame:
            for rect in indicatorRects { cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height) }
            cairo_set_source_rgba(cr, r, g, b, CanvasSpec.indicatorFrameOpacity * alpha)
            cairo_fill(cr)
        case .badge:
            let (x, y) = OpenIndicator.badgeCentre(width: Double(key.width))
            cairo_new_path(cr)
            cairo_arc(cr, x, y, CanvasSpec.indicatorBadgeRadius, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, r, g, b, alpha)
            cairo_fill_preserve(cr)
            cairo_set_line_width(cr, CanvasSpec.indicatorBadgeOutline)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.9 * alpha)
            cairo_stroke(cr)
        }
    }
}
