// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusCore

/// The help overlay (F1 or ?): the key table on a panel centred on the surface, where
/// HelpLayout puts it, in the spec's text font with cairo's toy API as the GNOME
/// extension draws it. Drawn over everything in each frame and never into the ink's
/// layers, so no export or eraser meets it.
extension InkLayers {
    /// Shows `lines` (nil hides the help); the panel's old and new places are damage.
    func setHelp(_ lines: [HelpLine]?) {
        guard lines != help else { return }
        if let rect = helpRect { addDamage(rect) }
        help = lines
        if let rect = helpRect { addDamage(rect) }
    }

    var helpLayout: HelpLayout? {
        help.map { HelpLayout(lines: $0.count, width: Double(key.width), height: Double(key.height)) }
    }

    /// The panel, grown by a pixel for its antialiased corners.
    private var helpRect: PixelRect? {
        helpLayout.map { PixelRect(x: $0.panel.x - 1, y: $0.panel.y - 1, width: $0.panel.width + 2, height: $0.panel.height + 2) }
    }

    func drawHelp(_ cr: OpaquePointer, alpha: Double) {
        guard let help, let layout = helpLayout, alpha > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_new_path(cr)
        roundedRectangle(cr, layout.panel, radius: CanvasSpec.helpCornerRadius * layout.scale)
        Self.source(cr, CanvasSpec.helpPanelColor, CanvasSpec.helpPanelOpacity * alpha)
        cairo_fill(cr)

        cairo_set_font_size(cr, CanvasSpec.helpFontSize * layout.scale)
        cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        Self.source(cr, CanvasSpec.helpTitleColor, alpha)
        cairo_move_to(cr, layout.titleX, layout.titleBaseline)
        cairo_show_text(cr, CanvasSpec.helpTitle)
        for (line, row) in zip(help, layout.rows) {
            cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            Self.source(cr, CanvasSpec.helpKeyColor, alpha)
            cairo_move_to(cr, row.keyX, row.baseline)
            cairo_show_text(cr, line.keys)
            cairo_select_font_face(cr, StrokeText.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            Self.source(cr, CanvasSpec.helpActionColor, alpha)
            cairo_move_to(cr, row.labelX, row.baseline)
            cairo_show_text(cr, line.label)
        }
    }

    private static func source(_ cr: OpaquePointer, _ hex: String, _ alpha: Double) {
        let c = StrokeColor(hex: hex) ?? StrokeColor(hex: "#ffffff")!
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
    }
}
