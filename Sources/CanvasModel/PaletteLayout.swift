// SPDX-License-Identifier: MIT
import StylusCore

/// One button of the canvas's palette: where it is in window pixels and what a pen tap on it selects.
public struct PaletteButton: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case color(StrokeColor)
        case tool(DrawingTool)
        case narrower
        case wider
        /// The board under the ink: a tap goes on to the next (`background:next`); its
        /// glyph shows the current board, so it is never marked as chosen.
        case board
    }

    public var kind: Kind
    public var rect: PixelRect

    public init(kind: Kind, rect: PixelRect) {
        self.kind = kind
        self.rect = rect
    }

    /// What the daemon applies for a tap here, as the matching action would.
    public var selection: PaletteSelection {
        switch kind {
        case .color(let c): .style(.set(tool: nil, color: c, width: nil))
        case .tool(let t): .style(.set(tool: t, color: nil, width: nil))
        case .narrower: .style(.narrower)
        case .wider: .style(.wider)
        case .board: .board(.next)
        }
    }

    /// Marked as chosen: the current colour and tool (widths are steps, never chosen).
    public func isSelected(in style: StrokeStyle) -> Bool {
        switch kind {
        case .color(let c): c == style.color
        case .tool(let t): t == style.tool
        case .narrower, .wider, .board: false
        }
    }
}

/// Where the palette's buttons go, the same for every canvas (stylus-canvas on
/// X11 and Wayland; the GNOME extension's palette.js, from canvas-spec.json): one
/// row along the bottom-left corner of a monitor: the colours, a gap, the
/// tools, a gap, width - and +, a gap, the board. Computed in the window's pixels, then turned
/// into the tablet's coordinates with the mapping ink uses, since the daemon,
/// not the window, hears the pen's taps.
public enum PaletteLayout {
    /// A button's side: a share of the monitor's shorter side, within a range
    /// a pen tip can hit and that leaves the drawing room.
    public static let shareOfShorterSide = 0.045
    public static let sideRange = 24.0...64.0
    /// The margin around the row and between its groups, as a share of a button's side.
    public static let marginShare = 0.5
    /// How far the strip behind the buttons reaches past them, as a share of a side.
    public static let backgroundPadShare = 1.0 / 6

    /// Every button, on a monitor of `width` × `height` window pixels.
    public static func buttons(colors: [StrokeColor], width: Double, height: Double) -> [PaletteButton] {
        let kinds: [[PaletteButton.Kind]] = [colors.map { .color($0) }, DrawingTool.allCases.map { .tool($0) }, [.narrower, .wider], [.board]]
        let count = Double(kinds.reduce(0) { $0 + $1.count })
        guard count > 0, width > 0, height > 0 else { return [] }
        var side = min(max(min(width, height) * shareOfShorterSide, sideRange.lowerBound), sideRange.upperBound)
        // Room for a margin before each group and after the last, and one more to spare.
        side = min(side, width / (count + Double(kinds.count + 2) * marginShare))
        let margin = side * marginShare
        var x = margin
        let y = height - margin - side
        var buttons: [PaletteButton] = []
        for group in kinds {
            for kind in group {
                buttons.append(PaletteButton(kind: kind, rect: PixelRect(x: x, y: y, width: side, height: side)))
                x += side
            }
            x += margin
        }
        return buttons
    }

    /// The strip behind the buttons, drawn as their background.
    public static func background(of buttons: [PaletteButton]) -> PixelRect? {
        guard let first = buttons.first else { return nil }
        let area = buttons.dropFirst().reduce(first.rect) { $0.union($1.rect) }
        let pad = first.rect.width * backgroundPadShare
        return PixelRect(x: area.x - pad, y: area.y - pad, width: area.width + 2 * pad, height: area.height + 2 * pad)
    }

    /// The buttons as the daemon's regions: a window pixel (px, py) is the
    /// tablet's ((px + originX) / width, (py + originY) / height), the inverse of
    /// `InkGeometry.pixel`. Parts outside the tablet's area are cut off, and a
    /// button wholly outside is left out.
    public static func regions(_ buttons: [PaletteButton], geometry g: InkGeometry) -> [PaletteRegion] {
        guard g.width > 0, g.height > 0 else { return [] }
        return buttons.compactMap { b in
            let x0 = max(0, (b.rect.x + g.originX) / g.width), y0 = max(0, (b.rect.y + g.originY) / g.height)
            let x1 = min(1, (b.rect.x + b.rect.width + g.originX) / g.width), y1 = min(1, (b.rect.y + b.rect.height + g.originY) / g.height)
            guard x1 > x0, y1 > y0 else { return nil }
            return PaletteRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0, selection: b.selection)
        }
    }
}
