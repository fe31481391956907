// SPDX-License-Identifier: MIT
public import StylusCore

/// `strokes`: every stroke, each point as [x, y, pressure, tilt_x, tilt_y, time_us].
public struct StrokesResult: Codable, Equatable, Sendable {
    public struct Point: Codable, Equatable, Sendable {
        public var point: StrokePoint
        public init(_ point: StrokePoint) { self.point = point }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(point.x)
            try c.encode(point.y)
            try c.encode(point.pressure)
            try c.encode(point.tiltX)
            try c.encode(point.tiltY)
            try c.encode(point.time)
        }

        public init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            let x = try c.decode(Float.self), y = try c.decode(Float.self), pressure = try c.decode(Float.self)
            let tiltX = try c.decode(Float.self), tiltY = try c.decode(Float.self)
            point = StrokePoint(x: x, y: y, pressure: pressure, tiltX: tiltX, tiltY: tiltY, time: try c.decode(Microseconds.self))
        }
    }
    public struct StrokeResult: Codable, Equatable, Sendable {
        public var device: UInt32
        /// The drawing tool: `pen`, `highlighter`, `eraser`, `line`, … (a daemon before
        /// styles sent the pen's own tool here: `pen`, `eraser`, `brush`, …).
        public var tool: String
        /// `#RRGGBB`; absent from a daemon before styles (its strokes are red).
        public var color: String?
        /// In pixels of a drawing 1600 wide; absent from a daemon before styles (8).
        public var width: Double?
        public var points: [Point]
        /// The name of the pen tool that drew it; absent for a stroke from no pen tool.
        public var pen: String?
        /// What drew it: `pen`, `pointer` or `touch` (`StrokeSource`; `device` is
        /// the source's reserved id for the last two); absent from a daemon before `draw`.
        public var source: String?
        /// A text stroke's words (`tool` is `text`; its one point is the top left of its first line).
        public var text: String?
        /// A text stroke's size in pixels of a drawing 1600 wide.
        public var size: Double?
        public init(device: UInt32, tool: String, color: String? = nil, width: Double? = nil, points: [Point], source: String? = nil) {
            self.device = device
            self.source = source
            self.tool = tool
            self.color = color
            self.width = width
            self.points = points
        }

        /// The stroke's style; a daemon's before styles as it drew them.
        public var style: StrokeStyle {
            StrokeStyle(tool: DrawingTool(name: tool), color: color.flatMap(StrokeColor.init(hex:)) ?? .red,
                        width: width ?? StrokeStyle.defaultWidth)
        }

        /// A text stroke's words and size; nil for every other stroke.
        public var strokeText: StrokeText? {
            guard let text else { return nil }
            return StrokeText(string: text, size: size ?? StrokeText.size(forWidth: width ?? StrokeStyle.defaultWidth))
        }
    }
    /// The canvas state.
    public var canvas: String
    public var strokes: [StrokeResult]
    /// With a `from` request: the index of the first stroke listed, and how many the drawing has
    /// (a `from` past the end lists none). A canvas that follows the drawing fetches only what is new.
    public var from: Int?
    public var count: Int?

    public init(canvas: String, strokes: [StrokeResult], from: Int? = nil, count: Int? = nil) {
        self.canvas = canvas
        self.strokes = strokes
        self.from = from
        self.count = count
    }

    /// Every stroke of the drawing; with `from`, those from that index on.
    public init(canvas: Canvas, from: Int? = nil) {
        self.canvas = canvas.state.rawValue
        if let from {
            self.from = from
            count = canvas.strokes.count
        }
        strokes = canvas.strokes[min(from ?? 0, canvas.strokes.count)...].map {
            var stroke = StrokeResult(device: $0.device.rawValue, tool: $0.style.tool.rawValue, color: $0.style.color.hex, width: $0.style.width,
                                      points: $0.points.map(Point.init), source: $0.source.rawValue)
            stroke.pen = $0.pen
            stroke.text = $0.text?.string
            stroke.size = $0.text?.size
            return stroke
        }
    }
}
