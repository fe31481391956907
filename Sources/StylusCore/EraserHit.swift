// SPDX-License-Identifier: MIT
/// Whether an eraser stroke touches another stroke's ink (`[canvas] eraser =
/// "stroke"`): some part of the eraser's path comes within half its width plus
/// half the stroke's width of the stroke's path. Measured in the space widths
/// are given in: a drawing 1600 pixels wide, `aspect` (height / width) as tall.
/// A shape is hit along its outline (a rectangle's edges, not its inside);
/// an arrow along its shaft; a text anywhere in its box (`StrokeText.extent`).
public enum EraserHit {
    static let referenceWidth = 1600.0

    struct Point {
        var x: Double
        var y: Double
    }

    /// A piece of a path with the ink's half width at it.
    struct Segment {
        var a: Point
        var b: Point
        var halfWidth: Double
    }

    public static func touches(_ eraser: Stroke, _ stroke: Stroke, aspect: Double) -> Bool {
        let rubs = segments(of: eraser, aspect: aspect)
        if let text = stroke.text, let anchor = stroke.points.first {
            return touches(rubs, textBox(text, at: anchor, aspect: aspect))
        }
        let inks = segments(of: stroke, aspect: aspect)
        guard let rubBox = bounds(rubs), let inkBox = bounds(inks), rubBox.overlaps(inkBox) else { return false }
        for ink in inks {
            let box = Box(ink)
            guard box.overlaps(rubBox) else { continue }
            for rub in rubs where Box(rub).overlaps(box) {
                if distance(rub.a, rub.b, ink.a, ink.b) <= rub.halfWidth + ink.halfWidth { return true }
            }
        }
        return false
    }

    static func textBox(_ text: StrokeText, at anchor: StrokePoint, aspect: Double) -> Box {
        let x = Double(anchor.x) * referenceWidth, y = Double(anchor.y) * referenceWidth * aspect
        let (width, height) = text.extent
        return Box(x0: x, y0: y, x1: x + width, y1: y + height)
    }

    /// Whether a path's ink reaches into a box: an end inside it (the ink's half width
    /// around it), or a piece that crosses or comes near one of its edges.
    static func touches(_ rubs: [Segment], _ box: Box) -> Bool {
        let corners = [Point(x: box.x0, y: box.y0), Point(x: box.x1, y: box.y0), Point(x: box.x1, y: box.y1), Point(x: box.x0, y: box.y1)]
        for rub in rubs where Box(rub).overlaps(box) {
            let inside = { (p: Point) in box.x0 <= p.x && p.x <= box.x1 && box.y0 <= p.y && p.y <= box.y1 }
            if inside(rub.a) || inside(rub.b) { return true }
            for k in 0..<4 where distance(rub.a, rub.b, corners[k], corners[(k + 1) % 4]) <= rub.halfWidth { return true }
        }
        return false
    }

    static func segments(of stroke: Stroke, aspect: Double) -> [Segment] {
        let style = stroke.style
        let points = stroke.points.map { Point(x: Double($0.x) * referenceWidth, y: Double($0.y) * referenceWidth * aspect) }
        guard let first = points.first, let last = points.last else { return [] }
        if style.tool.isShape {
            let half = style.referenceWidth(pressure: 1, 1) / 2
            func path(_ corners: [Point], closed: Bool) -> [Segment] {
                let ends = closed ? corners + [corners[0]] : corners
                return zip(ends, ends.dropFirst()).map { Segment(a: $0, b: $1, halfWidth: half) }
            }
            switch style.tool {
            case .rectangle:
                return path([first, Point(x: last.x, y: first.y), last, Point(x: first.x, y: last.y)], closed: true)
            case .ellipse:
                let cx = (first.x + last.x) / 2, cy = (first.y + last.y) / 2
                let rx = abs(last.x - first.x) / 2, ry = abs(last.y - first.y) / 2
                let steps = 48
                return path((0..<steps).map { k in
                    let t = Double(k) / Double(steps) * 2 * Double.pi
                    return Point(x: cx + rx * cosine(t), y: cy + ry * sine(t))
                }, closed: true)
            default:
                return path([first, last], closed: false)
            }
        }
        if points.count == 1 {
            let p = stroke.points[0].pressure
            return [Segment(a: first, b: first, halfWidth: style.referenceWidth(pressure: Double(p), Double(p)) / 2)]
        }
        return points.indices.dropFirst().map { k in
            let width = style.referenceWidth(pressure: Double(stroke.points[k - 1].pressure), Double(stroke.points[k].pressure))
            return Segment(a: points[k - 1], b: points[k], halfWidth: width / 2)
        }
    }

    struct Box {
        var x0, y0, x1, y1: Double

        init(x0: Double, y0: Double, x1: Double, y1: Double) {
            (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
        }

        /// The segment's pixels, its ink's width included.
        init(_ s: Segment) {
            self.init(x0: min(s.a.x, s.b.x) - s.halfWidth, y0: min(s.a.y, s.b.y) - s.halfWidth,
                      x1: max(s.a.x, s.b.x) + s.halfWidth, y1: max(s.a.y, s.b.y) + s.halfWidth)
        }

        func overlaps(_ o: Box) -> Bool { x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1 }
    }

    static func bounds(_ segments: [Segment]) -> Box? {
        guard let first = segments.first else { return nil }
        return segments.dropFirst().reduce(Box(first)) { box, s in
            let b = Box(s)
            return Box(x0: min(box.x0, b.x0), y0: min(box.y0, b.y0), x1: max(box.x1, b.x1), y1: max(box.y1, b.y1))
        }
    }

    /// The shortest distance between segments ab and cd (0 where they cross).
    static func distance(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        if crosses(a, b, c, d) { return 0 }
        return min(pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b))
    }

    static func pointToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return (ex * ex + ey * ey).squareRoot()
    }

    static func crosses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        func side(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    // StylusCore imports nothing, not even the C library: the ellipse's points
    // come from a short series, exact to well under a pixel at any canvas size.
    static func sine(_ t: Double) -> Double { cosine(t - Double.pi / 2) }

    static func cosine(_ t: Double) -> Double {
        // Into [-π, π], then Taylor terms to x^16.
        var x = t.truncatingRemainder(dividingBy: 2 * Double.pi)
        if x > Double.pi { x -= 2 * Double.pi } else if x < -Double.pi { x += 2 * Double.pi }
        let x2 = x * x
        var term = 1.0, sum = 1.0
        for n in stride(from: 2, through: 16, by: 2) {
            term *= -x2 / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
}
