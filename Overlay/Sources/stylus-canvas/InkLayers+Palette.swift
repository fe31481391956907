// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The palette, drawn over the ink on every frame: a strip of 20 small
/// buttons costs less than keeping a layer for it, and it changes only with the style.
extension InkLayers {
    /// Shows `buttons` (empty: no palette) with the current style's choices marked.
    func setPalette(_ buttons: [PaletteButton], style: InkStyle) {
        guard buttons != palette.buttons || style != palette.style else { return }
        if let old = PaletteLayout.background(of: palette.buttons) { addDamage(Self.covering(old)) }
        if style.color != palette.style.color { damageIndicator() }
        palette = (buttons, style)
        if let new = PaletteLayout.background(of: buttons) { addDamage(Self.covering(new)) }
    }

    private static func covering(_ r: PixelRect) -> PixelRect {
        let x = (r.x - 2).rounded(.down), y = (r.y - 2).rounded(.down)
        return PixelRect(x: x, y: y, width: (r.x + r.width + 2).rounded(.up) - x, height: (r.y + r.height + 2).rounded(.up) - y)
    }

    func drawPalette(_ cr: OpaquePointer, alpha: Double) {
        guard let strip = PaletteLayout.background(of: palette.buttons), alpha > 0 else { return }
        cairo_save(cr)
        roundedRectangle(cr, strip, radius: strip.height / 4)
        cairo_set_source_rgba(cr, 0.16, 0.16, 0.18, 0.88 * alpha)
        cairo_fill(cr)
        for button in palette.buttons {
            drawButton(cr, button, selected: button.isSelected(in: palette.style), alpha: alpha)
        }
        cairo_restore(cr)
    }

    func roundedRectangle(_ cr: OpaquePointer, _ r: PixelRect, radius: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.x + r.width - radius, r.y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(cr, r.x + r.width - radius, r.y + r.height - radius, radius, 0, Double.pi / 2)
        cairo_arc(cr, r.x + radius, r.y + r.height - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.x + radius, r.y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    private func drawButton(_ cr: OpaquePointer, _ button: PaletteButton, selected: Bool, alpha: Double) {
        let r = button.rect, s = r.width
        // A glyph's box: the button less a margin, so neighbours stay apart.
        let inset = s * CanvasSpec.paletteGlyphInsetShare
        let box = PixelRect(x: r.x + inset, y: r.y + inset, width: s - 2 * inset, height: s - 2 * inset)
        if selected {
            roundedRectangle(cr, PixelRect(x: r.x + 2, y: r.y + 2, width: s - 4, height: s - 4), radius: s / 6)
            cairo_set_source_rgba(cr, 1, 1, 1, alpha)
            cairo_set_line_width(cr, 2.5)
            cairo_stroke(cr)
        }
        func white(_ width: Double) {
            cairo_set_source_rgba(cr, 0.95, 0.95, 0.95, alpha)
            cairo_set_line_width(cr, width)
        }
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            cairo_move_to(cr, box.x + x0 * box.width, box.y + y0 * box.height)
            cairo_line_to(cr, box.x + x1 * box.width, box.y + y1 * box.height)
        }
        cairo_new_path(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        switch button.kind {
        case .color(let c):
            // Opaque and the exact colour: what a tap picks is what the swatch shows.
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
            cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 0.6, 0.6, 0.6, alpha)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
        case .tool(let tool):
            switch tool {
            case .pen:
                // A freehand wave, unlike the line tool's straight segment.
                white(2)
                cairo_move_to(cr, box.x + 0.05 * box.width, box.y + 0.7 * box.height)
                cairo_curve_to(cr, box.x + 0.35 * box.width, box.y - 0.1 * box.height, box.x + 0.6 * box.width, box.y + 1.1 * box.height,
                               box.x + 0.95 * box.width, box.y + 0.3 * box.height)
                cairo_stroke(cr)
            case .highlighter:
                cairo_set_source_rgba(cr, 0.93, 0.83, 0, 0.6 * alpha)
                cairo_set_line_width(cr, box.height * 0.35)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                line(0.05, 0.55, 0.95, 0.45); cairo_stroke(cr)
            case .eraser:
                white(1.5)
                cairo_rectangle(cr, box.x + box.width * 0.1, box.y + box.height * 0.3, box.width * 0.8, box.height * 0.4)
                cairo_stroke(cr)
                cairo_rectangle(cr, box.x + box.width * 0.1, box.y + box.height * 0.3, box.width * 0.3, box.height * 0.4)
                cairo_fill(cr)
            case .laser:
                cairo_arc(cr, box.x + box.width / 2, box.y + box.height / 2, box.width * 0.42, 0, 2 * Double.pi)
                cairo_set_source_rgba(cr, 1, 0.2, 0.2, 0.35 * alpha)
                cairo_fill(cr)
                cairo_arc(cr, box.x + box.width / 2, box.y + box.height / 2, box.width * 0.18, 0, 2 * Double.pi)
                cairo_set_source_rgba(cr, 1, 0.15, 0.15, alpha)
                cairo_fill(cr)
            case .line:
                white(2); line(0.1, 0.9, 0.9, 0.1); cairo_stroke(cr)
                cairo_arc(cr, box.x + 0.1 * box.width, box.y + 0.9 * box.height, 2.5, 0, 2 * Double.pi)
                cairo_arc(cr, box.x + 0.9 * box.width, box.y + 0.1 * box.height, 2.5, 0, 2 * Double.pi)
                cairo_fill(cr)
            case .arrow:
                white(2); line(0.1, 0.9, 0.9, 0.1); line(0.9, 0.1, 0.45, 0.15); line(0.9, 0.1, 0.85, 0.55); cairo_stroke(cr)
            case .rectangle:
                white(2)
                cairo_rectangle(cr, box.x + box.width * 0.05, box.y + box.height * 0.2, box.width * 0.9, box.height * 0.6)
                cairo_stroke(cr)
            case .ellipse:
                white(2)
                cairo_save(cr)
                cairo_translate(cr, box.x + box.width / 2, box.y + box.height / 2)
                cairo_scale(cr, box.width * 0.47, box.height * 0.33)
                cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
                cairo_restore(cr)
                cairo_stroke(cr)
            case .text:
                // A letter T.
                white(2.5); line(0.2, 0.15, 0.8, 0.15); line(0.5, 0.15, 0.5, 0.85); cairo_stroke(cr)
            }
        case .board:
            drawBoardGlyph(cr, box, alpha: alpha)
        case .narrower, .wider:
            white(2.5)
            line(0.15, 0.5, 0.85, 0.5)
            if button.kind == .wider { line(0.5, 0.15, 0.5, 0.85) }
            cairo_stroke(cr)
        }
    }
}
