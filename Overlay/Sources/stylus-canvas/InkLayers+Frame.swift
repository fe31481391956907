// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

extension InkLayers {
    /// Paints the rectangle [x0, x1) × [y0, y1) of a frame's image afresh: cleared, then the
    /// layers at `alpha` and the hover rings; the rest of the image keeps what it showed.
    func repaint(_ image: OpaquePointer, x0: Int32, y0: Int32, x1: Int32, y1: Int32, alpha: Double, hover: some Collection<InkPoint>) {
        let cr = cairo_create(image)!
        cairo_rectangle(cr, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        compose(onto: cr, alpha: alpha, hover: hover)
        cairo_destroy(cr)
        cairo_surface_flush(image)
    }
}
