// SPDX-License-Identifier: MIT
/// Where the help overlay goes on a monitor of this size, in window pixels: a
/// panel centred on it, the title's baseline, and each line's two columns and
/// baseline. Columns are fixed widths (no font metrics), so the Swift and GNOME
/// renderers place every line alike; held with the extension's `helpLayout` to
/// the spec's `help` vectors. Lines that do not fit the height go into blocks
/// side by side, each as many lines long; blocks wider than the monitor shrink
/// the whole panel, text included, by `scale` (a small or portrait monitor
/// would otherwise cut the table's first and last columns off).
public struct HelpLayout: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var keyX: Double
        public var labelX: Double
        public var baseline: Double
    }

    public var panel: PixelRect
    public var titleX: Double
    public var titleBaseline: Double
    public var rows: [Row]
    /// The factor every length of the spec's `help` is drawn at (font size and corner
    /// radius too): 1, or less where the panel would be wider than the monitor
    /// less its margins; in thousandths, so both renderers get the same number.
    public var scale: Double

    public init(lines: Int, width: Double, height: Double) {
        let s = CanvasSpec.self
        let fit = max(1, Int(((height - 2 * s.helpMargin - 2 * s.helpPadding) / s.helpLineHeight).rounded(.down)) - 1)
        let blocks = max(1, (lines + fit - 1) / fit)
        let perBlock = (lines + blocks - 1) / blocks
        let blockWidth = s.helpKeyColumnWidth + s.helpActionColumnWidth
        let fullWidth = 2 * s.helpPadding + Double(blocks) * blockWidth + Double(blocks - 1) * s.helpBlockGap
        let scale = max(0.001, min(1, ((width - 2 * s.helpMargin) / fullWidth * 1000).rounded(.down) / 1000))
        let padding = s.helpPadding * scale, lineHeight = s.helpLineHeight * scale
        let panelWidth = fullWidth * scale
        let panelHeight = (2 * s.helpPadding + Double(1 + perBlock) * s.helpLineHeight) * scale
        let x = ((width - panelWidth) / 2).rounded(.down)
        let y = ((height - panelHeight) / 2).rounded(.down)
        self.scale = scale
        panel = PixelRect(x: x, y: y, width: panelWidth, height: panelHeight)
        titleX = x + padding
        titleBaseline = y + padding + s.helpBaseline * scale
        let blockStep = (blockWidth + s.helpBlockGap) * scale
        rows = (0..<max(0, lines)).map { i in
            let keyX = x + padding + Double(i / perBlock) * blockStep
            return Row(keyX: keyX, labelX: keyX + s.helpKeyColumnWidth * scale,
                       baseline: y + padding + Double(1 + i % perBlock) * lineHeight + s.helpBaseline * scale)
        }
    }
}
