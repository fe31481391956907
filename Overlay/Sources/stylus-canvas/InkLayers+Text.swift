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

/// The text being typed: its words as they will be drawn, and a thin caret after them;
/// an input method's preedit at its end (TextEntry.preeditLength) is underlined, one device
/// pixel in the text's colour, so that what is not typed yet shows as such.
extension InkLayers {
    static let caretWidth = 2.0
    /// The underline's top below the baseline, as a share of the size: clear of the glyphs' feet, above the caret's bottom.
    static let underlineDropShare = 0.15

    func textEntryChanged() {
        if let drawnEntry { addDamage(drawnEntry) }
        drawnEntry = textEntry.map(entryBox)
        if let drawnEntry { addDamage(drawnEntry) }
    }

    /// Where the entry draws: its ink and the caret, with the caret's width to spare.
    private func entryBox(_ entry: TextEntry) -> PixelRect {
        let (x, y) = geometry.pixel(entry.anchor)
        let size = geometry.pixels(entry.size)
        let caret = caretPlace(entry)
        guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return PixelRect(x: x, y: y, width: 1, height: 1) }
        defer { cairo_surface_destroy(scratch) }
        let cr = cairo_create(scratch)!
        defer { cairo_destroy(cr) }
        let ink = Self.showText(cr, entry.text, x: x, y: y, size: size, draw: false)
        var x0 = min(ink.x, caret.x - 2), y0 = min(ink.y, caret.top - 2)
        var x1 = max(ink.x + ink.width, caret.x + Self.caretWidth + 2), y1 = max(ink.y + ink.height, caret.bottom + 2)
        for line in preeditUnderlines(entry) {
            x0 = min(x0, line.x - 2); x1 = max(x1, line.x + line.width + 2)
            y0 = min(y0, line.y - 2); y1 = max(y1, line.y + line.height + 2)
        }
        return PixelRect(x: x0.rounded(.down), y: y0.rounded(.down), width: x1.rounded(.up) - x0.rounded(.down), height: y1.rounded(.up) - y0.rounded(.down))
    }

    /// The caret's x and its top and bottom: after the last line's advance, from its ascent to its descent.
    func caretPlace(_ entry: TextEntry) -> (x: Double, top: Double, bottom: Double) {
        let (x, y) = geometry.pixel(entry.anchor)
        let size = geometry.pixels(entry.size)
        let lines = entry.text.lines
        var advance = 0.0
        if let last = lines.last, !last.isEmpty, let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) {
            let cr = cairo_create(scratch)!
            cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, size)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, String(last), &extents)
            advance = extents.x_advance
            cairo_destroy(cr)
            cairo_surface_destroy(scratch)
        }
        let baseline = y + StrokeText.baseline(line: max(lines.count - 1, 0), size: size)
        return (x + advance, baseline - StrokeText.baselineShare * size, baseline + (StrokeText.lineHeightShare - StrokeText.baselineShare) * size)
    }

    func drawTextEntry(_ cr: OpaquePointer, alpha: Double) {
        guard let entry = textEntry else { return }
        let (x, y) = geometry.pixel(entry.anchor)
        let c = entry.color
        cairo_save(cr)
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
        _ = Self.showText(cr, entry.text, x: x, y: y, size: geometry.pixels(entry.size), draw: true)
        let caret = caretPlace(entry)
        cairo_rectangle(cr, caret.x, caret.top, Self.caretWidth, caret.bottom - caret.top)
        for line in preeditUnderlines(entry) { cairo_rectangle(cr, line.x, line.y, line.width, line.height) }
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// The preedit's underline on each line it spans: from where it starts on the line to the
    /// line's advance, one device pixel high, on device pixels (window pixels × the layers' scale).
    func preeditUnderlines(_ entry: TextEntry) -> [PixelRect] {
        guard entry.preeditLength > 0, let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return [] }
        defer { cairo_surface_destroy(scratch) }
        let cr = cairo_create(scratch)!
        defer { cairo_destroy(cr) }
        let (x, y) = geometry.pixel(entry.anchor)
        let size = geometry.pixels(entry.size)
        cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        func advance(_ scalars: some Sequence<Unicode.Scalar>) -> Double {
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, String(String.UnicodeScalarView(scalars)), &extents)
            return extents.x_advance
        }
        let scale = key.scale > 0 ? key.scale : 1
        let start = entry.string.unicodeScalars.count - entry.preeditLength
        var offset = 0
        var lines: [PixelRect] = []
        for (i, line) in entry.text.lines.enumerated() {
            let scalars = line.unicodeScalars
            defer { offset += scalars.count + 1 }
            guard offset + scalars.count > start, !scalars.isEmpty else { continue }
            let left = x + advance(scalars.prefix(max(0, start - offset))), right = x + advance(scalars)
            let top = ((y + StrokeText.baseline(line: i, size: size) + Self.underlineDropShare * size) * scale).rounded() / scale
            lines.append(PixelRect(x: left, y: top, width: right - left, height: 1 / scale))
        }
        return lines
    }
}
