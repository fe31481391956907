// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusCore

/// Texts (`"tool":"text"`), drawn with cairo's toy text API in the spec's one
/// font, as the GNOME extension draws them: the same font, size and baselines
/// (`StrokeText`) give the same pixels on every canvas and in the PNG export.
/// A text is drawn whole (never clipped to a region), so a partial redraw
/// grows to hold it, as for a shape.
extension InkLayers {
    func drawText(_ text: StrokeText, _ style: InkStyle, at anchor: InkPoint, into layer: OpaquePointer) {
        let cr = cairo_create(layer)!
        defer { cairo_destroy(cr) }
        let (x, y) = geometry.pixel(anchor)
        let c = style.color
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, 1)
        addDamage(Self.showText(cr, text, x: x, y: y, size: geometry.pixels(text.size), draw: true))
    }

    /// The layer pixels a text stroke inks, measured with cairo (no drawing); nil when none.
    func textBounds(_ stroke: InkStroke) -> PixelRegion? {
        guard let text = stroke.text, let anchor = stroke.points.first, let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return nil }
        defer { cairo_surface_destroy(scratch) }
        let cr = cairo_create(scratch)!
        defer { cairo_destroy(cr) }
        let (x, y) = geometry.pixel(anchor)
        let box = Self.showText(cr, text, x: x, y: y, size: geometry.pixels(text.size), draw: false)
        let scale = key.scale
        let width = Double(InkLayers.pixels(key.width, scale)), height = Double(InkLayers.pixels(key.height, scale))
        let left = max(0, min(width, (box.x * scale).rounded(.down))), right = max(0, min(width, ((box.x + box.width) * scale).rounded(.up)))
        let top = max(0, min(height, (box.y * scale).rounded(.down))), bottom = max(0, min(height, ((box.y + box.height) * scale).rounded(.up)))
        guard left < right, top < bottom else { return nil }
        return (x: Int(left)..<Int(right), y: Int(top)..<Int(bottom))
    }

    /// Shows (or, `draw` false, only measures) the lines from (x, y), the first line's top
    /// left, at `size` window pixels in the current source; where they ink, in window
    /// pixels: cairo's ink extents with two pixels of antialiasing around them.
    static func showText(_ cr: OpaquePointer, _ text: StrokeText, x: Double, y: Double, size: Double, draw: Bool) -> PixelRect {
        cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        var x0 = x, y0 = y, x1 = x, y1 = y
        for (i, line) in text.lines.enumerated() where !line.isEmpty {
            let baseline = y + StrokeText.baseline(line: i, size: size)
            let string = String(line)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, string, &extents)
            x0 = min(x0, x + extents.x_bearing); x1 = max(x1, x + extents.x_bearing + extents.width)
            y0 = min(y0, baseline + extents.y_bearing); y1 = max(y1, baseline + extents.y_bearing + extents.height)
            if draw {
                cairo_move_to(cr, x, baseline)
                cairo_show_text(cr, string)
            }
        }
        let left = (x0 - 2).rounded(.down), top = (y0 - 2).rounded(.down)
        return PixelRect(x: left, y: top, width: (x1 + 2).rounded(.up) - left, height: (y1 + 2).rounded(.up) - top)
    }
}
