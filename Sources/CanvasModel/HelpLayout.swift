// SPDX-License-Identifier: MIT
/// Where the help overlay goes on a monitor of this size, in window pixels: a
/// panel centred on it, the title's baseline, and each line's two columns and
/// baseline. Columns are fixed widths (no font metrics), so the Swift and GNOME
/// renderers place every line alike; held with the extension's `helpLayout` to
/// the spec's `help` vectors. Lines that do not fit the height go into blocks
/// side by side, each as many lines long.
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

    public init(lines: Int, width: Double, height: Double) {
        let s = CanvasSpec.self
        let fit = max(1, Int(((height - 2 * s.helpMargin - 2 * s.helpPadding) / s.helpLineHeight).rounded(.down)) - 1)
        let blocks = max(1, (lines + fit - 1) / fit)
        let perBlock = (lines + blocks - 1) / blocks
        let blockWidth = s.helpKeyColumnWidth + s.helpActionColumnWidth
        let panelWidth = 2 * s.helpPadding + Double(blocks) * blockWidth + Double(blocks - 1) * s.helpBlockGap
        let panelHeight = 2 * s.helpPadding + Double(1 + perBlock) * s.helpLineHeight
        let x = ((width - panelWidth) / 2).rounded(.down)
        let y = ((height - panelHeight) / 2).rounded(.down)
        panel = PixelRect(x: x, y: y, width: panelWidth, height: panelHeight)
        titleX = x + s.helpPadding
        titleBaseline = y + s.helpPadding + s.helpBaseline
        rows = (0..<max(0, lines)).map { i in
            let keyX = x + s.helpPadding + Double(i / perBlock) * (blockWidth + s.helpBlockGap)
            return Row(keyX: keyX, labelX: keyX + s.helpKeyColumnWidth,
                       baseline: y + s.helpPadding + Double(1 + i % perBlock) * s.helpLineHeight + s.helpBaseline)
        }
    }
}
