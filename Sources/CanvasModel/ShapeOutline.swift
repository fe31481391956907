// SPDX-License-Identifier: MIT
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// A point in window pixels.
public struct PixelPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// What a shape tool draws from its stroke's first point to its last, in
/// window pixels: a line, an arrow (the line and a head at its end), a
/// rectangle or an ellipse inside the rectangle the two points span.
public enum ShapeOutline: Equatable, Sendable {
    case polylines([[PixelPoint]], closed: Bool)
    case ellipse(center: PixelPoint, radiusX: Double, radiusY: Double)

    /// The arrow head's wings, each this far (radians) from the shaft.
    static let wingAngle = 0.5

    /// nil for a tool that is not a shape.
    public static func of(_ tool: InkTool, from a: PixelPoint, to b: PixelPoint, lineWidth: Double) -> ShapeOutline? {
        switch tool {
        case .line:
            return .polylines([[a, b]], closed: false)
        case .arrow:
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { return .polylines([[a, b]], closed: false) }
            // A head that reads at any width, never longer than half the arrow.
            let head = min(max(12, 4 * lineWidth), length / 2)
            let angle = atan2(dy, dx)
            func wing(_ side: Double) -> PixelPoint {
                PixelPoint(x: b.x - head * cos(angle + side * wingAngle), y: b.y - head * sin(angle + side * wingAngle))
            }
            return .polylines([[a, b], [wing(1), b, wing(-1)]], closed: false)
        case .rectangle:
            return .polylines([[a, PixelPoint(x: b.x, y: a.y), b, PixelPoint(x: a.x, y: b.y)]], closed: true)
        case .ellipse:
            return .ellipse(center: PixelPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2),
                            radiusX: abs(b.x - a.x) / 2, radiusY: abs(b.y - a.y) / 2)
        case .pen, .highlighter, .eraser, .laser, .text:
            return nil
        }
    }

    /// The pixels the outline covers, without its line's width.
    public var bounds: PixelRect {
        switch self {
        case .polylines(let lines, _):
            let points = lines.flatMap { $0 }
            let xs = points.map(\.x), ys = points.map(\.y)
            let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
            return PixelRect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
        case .ellipse(let c, let rx, let ry):
            return PixelRect(x: c.x - rx, y: c.y - ry, width: 2 * rx, height: 2 * ry)
        }
    }
}
