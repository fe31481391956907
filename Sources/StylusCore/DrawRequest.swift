// SPDX-License-Identifier: MIT
/// A piece of a pointer or touch stroke a canvas streams (`draw`): a stroke
/// is a `down`, any `move`s, then an `up` (kept) or a `cancel` (thrown away:
/// a second finger on a touchscreen). Points are in the normalised space the
/// pen's strokes are recorded in: (0, 0) the top left and (1, 1) the bottom
/// right of the area the tablet maps to, which the canvas covers.
public struct DrawRequest: Equatable, Sendable {
    public enum Phase: String, Sendable, CaseIterable { case down, move, up, cancel }

    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double
        /// 0...1 where the device reports it; nil: `DrawRequest.defaultPressure`.
        public var pressure: Double?
        public init(x: Double, y: Double, pressure: Double? = nil) {
            self.x = x
            self.y = y
            self.pressure = pressure
        }
    }

    public var source: StrokeSource
    public var phase: Phase
    public var points: [Point]
    /// The canvas surface's height / width, with `down`: what the stroke eraser
    /// measures distances at (nil: 10/16, as for a pen of unknown size).
    public var aspect: Double?

    public init(source: StrokeSource, phase: Phase, points: [Point], aspect: Double? = nil) {
        self.source = source
        self.phase = phase
        self.points = points
        self.aspect = aspect
    }

    /// A point without pressure draws at full pressure: exactly the style's width.
    public static let defaultPressure = 1.0
    /// The most points one request carries: a canvas sends what piled up in a
    /// frame or so, a few dozen.
    public static let maxPoints = 1024
    /// How far outside 0...1 a coordinate may lie and be clamped onto the edge
    /// (a drag that leaves the window a little); beyond that it is refused.
    public static let clampMargin = 0.05
    public static let aspectRange = 0.01...100.0

    /// Why these fields cannot be drawn, or nil; the points come back clamped.
    public static func check(source: StrokeSource, phase: Phase, points: [Point], aspect: Double?) -> (problem: String?, points: [Point]) {
        if !StrokeSource.drawing.contains(source) { return ("\"source\" must be \"pointer\" or \"touch\": the pen draws through the daemon's own input, text comes with `text`", points) }
        if points.count > maxPoints { return ("\(points.count) points in one draw request; at most \(maxPoints)", points) }
        switch phase {
        case .down where points.isEmpty: return ("\"down\" needs its first point", points)
        case .cancel where !points.isEmpty: return ("\"cancel\" takes no points", points)
        default: break
        }
        if let aspect, !(aspect.isFinite && aspectRange.contains(aspect)) {
            return ("\"aspect\" (the canvas's height / width) must be from \(aspectRange.lowerBound) to \(Int(aspectRange.upperBound)), not \(aspect)", points)
        }
        let range = -clampMargin...(1 + clampMargin)
        var clamped = points
        for (i, p) in points.enumerated() {
            guard p.x.isFinite, p.y.isFinite, range.contains(p.x), range.contains(p.y) else {
                return ("points[\(i)] (\(p.x), \(p.y)) is outside the canvas: x and y must be from \(-clampMargin) to \(1 + clampMargin) (clamped to 0-1)", points)
            }
            if let pressure = p.pressure, !(pressure.isFinite && (0...1).contains(pressure)) {
                return ("points[\(i)]'s pressure must be from 0 to 1, not \(pressure)", points)
            }
            clamped[i].x = min(max(p.x, 0), 1)
            clamped[i].y = min(max(p.y, 0), 1)
        }
        return (nil, clamped)
    }
}
