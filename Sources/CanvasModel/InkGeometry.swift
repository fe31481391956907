// SPDX-License-Identifier: MIT
import StylusCore

/// One point of a stroke, normalized like the daemon's: x and y in 0…1 of the
/// tablet's surface, pressure in 0…1.
public struct InkPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var pressure: Double

    public init(x: Double, y: Double, pressure: Double) {
        self.x = x
        self.y = y
        self.pressure = pressure
    }
}

/// One stroke as the canvas draws it. An eraser stroke erases: the canvas
/// clears the ink under its path, in the order the strokes were drawn; the
/// daemon keeps it as a stroke, so undo brings the ink back.
public struct InkStroke: Equatable, Sendable {
    public var device: UInt32
    public var style: InkStyle
    public var points: [InkPoint]
    /// A text stroke's words and size (its one point is the anchor); nil for every other stroke.
    public var text: StrokeText?

    public init(device: UInt32, style: InkStyle, points: [InkPoint], text: StrokeText? = nil) {
        self.device = device
        self.style = style
        self.points = points
        self.text = text
    }

    public init(device: UInt32, tool: InkTool, points: [InkPoint]) {
        self.init(device: device, style: .legacy(tool: tool), points: points)
    }

    public var tool: InkTool { style.tool }
}

/// An axis-aligned rectangle in window pixels.
public struct PixelRect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest rectangle of whole pixels that covers both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Where ink lands: normalized (x, y) at (x·width, y·height) of the area the
/// tablet maps to, less `origin`, where the window lies in that area (a window
/// on the second of two monitors side by side starts at the first's width); a
/// segment as wide as its style says in a 1600-unit-wide drawing (the pen at
/// its default width: 0.5 + 7.5 · the pair's mean pressure, as `stylusctl
/// strokes --svg` draws it), scaled by width / 1600, so a stroke crossing two
/// monitors keeps one width.
public struct InkGeometry: Equatable, Sendable {
    public static let referenceWidth = 1600.0
    public var width: Double
    public var height: Double
    public var originX: Double
    public var originY: Double

    public init(width: Double, height: Double, originX: Double = 0, originY: Double = 0) {
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
    }

    public func pixel(_ p: InkPoint) -> (x: Double, y: Double) { (p.x * width - originX, p.y * height - originY) }

    public func pixels(_ reference: Double) -> Double { reference * width / Self.referenceWidth }

    public func lineWidth(_ a: InkPoint, _ b: InkPoint, _ style: InkStyle = InkStyle()) -> Double {
        pixels(style.referenceWidth(a, b))
    }

    /// The pixels a segment (round caps) can touch, with a pixel of antialiasing margin.
    public func damage(_ a: InkPoint, _ b: InkPoint, _ style: InkStyle = InkStyle()) -> PixelRect {
        let (ax, ay) = pixel(a), (bx, by) = pixel(b)
        let r = lineWidth(a, b, style) / 2 + 1
        let x0 = (min(ax, bx) - r).rounded(.down), y0 = (min(ay, by) - r).rounded(.down)
        let x1 = (max(ax, bx) + r).rounded(.up), y1 = (max(ay, by) + r).rounded(.up)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
