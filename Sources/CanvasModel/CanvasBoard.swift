// SPDX-License-Identifier: MIT
import StylusCore

/// The board under the ink as the canvas names it: StylusCore's, as the daemon sends it.
public typealias InkBoard = CanvasBackground

/// How a board (`CanvasBackground`) is painted under the ink, by every renderer:
/// stylus-canvas's layers, the PNG and SVG exports, and the GNOME extension
/// (canvas-spec.json's `board`, which CanvasSpecTests holds these to). The grid
/// is square, its lines `gridSpacing` reference pixels apart from the tablet
/// area's top left corner, so it scales with the drawing as a stroke does.
public enum CanvasBoard {
    public static let white = StrokeColor(red: 0xff, green: 0xff, blue: 0xff)
    public static let black = StrokeColor(red: 0, green: 0, blue: 0)
    public static let gridPaper = StrokeColor(red: 0xff, green: 0xff, blue: 0xff)
    public static let gridLine = StrokeColor(red: 0xc9, green: 0xd3, blue: 0xdd)
    /// In reference pixels (a drawing `InkGeometry.referenceWidth` wide).
    public static let gridSpacing = 40.0
    public static let gridLineWidth = 1.0

    /// The board's paint; nil for `none` (the desktop shows).
    public static func paper(_ background: CanvasBackground) -> StrokeColor? {
        switch background {
        case .none: nil
        case .white: white
        case .black: black
        case .grid: gridPaper
        case .color(let c): c
        }
    }

    /// The grid's lines across `length` pixels of a window that starts `origin` pixels into
    /// the tablet's area, `areaWidth` pixels wide: each line's centre, in window pixels.
    public static func gridLines(origin: Double, length: Double, areaWidth: Double) -> [Double] {
        let step = gridSpacing * areaWidth / InkGeometry.referenceWidth
        guard step >= 1, length > 0 else { return [] }
        var k = (origin / step).rounded(.up)
        var lines: [Double] = []
        while k * step - origin < length {
            lines.append(k * step - origin)
            k += 1
        }
        return lines
    }

    /// A grid line's width in window pixels, at least one pixel so that it shows on a small canvas.
    public static func gridLineWidth(areaWidth: Double) -> Double {
        max(1, gridLineWidth * areaWidth / InkGeometry.referenceWidth)
    }
}
