// SPDX-License-Identifier: MIT

/// Premultiplied 32-bit ARGB pixels in rows, as cairo's image surfaces keep
/// them (`CAIRO_FORMAT_ARGB32`, native endian): the memory belongs to the
/// caller, who says where it starts and how long a row is.
public struct PixelBuffer {
    public let base: UnsafeMutablePointer<UInt32>
    public let width: Int
    public let height: Int
    /// Pixels from the start of one row to the start of the next.
    public let rowPixels: Int

    public init(base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int) {
        precondition(width >= 0 && height >= 0 && rowPixels >= width)
        self.base = base
        self.width = width
        self.height = height
        self.rowPixels = rowPixels
    }
}

/// What a segment does to the pixels it covers.
public enum SegmentInk: Sendable, Equatable {
    /// An opaque colour laid over them (cairo's OVER with the covered fraction).
    case paint(red: UInt8, green: UInt8, blue: UInt8)
    /// The ink taken away (cairo's CLEAR with the covered fraction).
    case clear
}

/// The segments of pen, laser and eraser strokes: a line with round caps,
/// antialiased by area: a pixel is covered by the share of its square that lies
/// on the line's side of the line's nearest edge, that edge taken as straight
/// across the direction from the pixel's centre to the segment's nearest point
/// (exact along the sides, close at the caps; a line thinner than a pixel's
/// diagonal also loses what lies past its far edge). It looks as cairo's
/// stroker does within the rounding of the edge pixels and costs a fraction:
/// cairo spent 3–8 µs a segment tessellating each segment's round caps, which
/// made redrawing or exporting a drawing near the point limit take seconds.
public enum SegmentRaster {
    /// How far inside the circle a round cap's edge lies: cairo draws a cap as a
    /// polygon within 0.1 px of it (its tolerance), about 0.04 px inside on
    /// average. Caps a shade smaller make these segments' pixels agree with
    /// cairo's (the GNOME extension's) on 99.3–99.8 % of ink pixels, not 98.5–99.5.
    public static let capInset = 0.04

    /// Draws the segment a→b (pixel coordinates, pixel centres at +0.5) of
    /// width `lineWidth` into `buffer`, only into the columns and rows
    /// `within` when given (each pixel exactly as without it); returns the rows
    /// and columns it could have touched, nil when none.
    @discardableResult
    public static func draw(
        into buffer: PixelBuffer, from a: (x: Double, y: Double), to b: (x: Double, y: Double),
        lineWidth: Double, ink: SegmentInk, within: (x: Range<Int>, y: Range<Int>)? = nil
    ) -> (x: Range<Int>, y: Range<Int>)? {
        @inline(__always) func scaled(_ v: UInt32, _ by: UInt32) -> UInt32 {
            let p = v &* by &+ 128
            return (p &+ (p >> 8)) >> 8   // v·by/255, rounded
        }
        let r = lineWidth / 2
        guard r > 0, r.isFinite, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        // A pixel's square reaches at most half its diagonal from its centre:
        // beyond r + that it gets no ink, within r − that all of it.
        let halfDiagonal = 0.5.squareRoot() + 1e-9
        let reach = r + halfDiagonal
        guard let (a, b) = clip(a, b, width: Double(buffer.width), height: Double(buffer.height), margin: reach + 1) else { return nil }
        // Clamped before they become integers: a point far off the buffer is no trap.
        func column(_ x: Double) -> Int { Int(max(-1, min(Double(buffer.width) + 1, x)).rounded(.down)) }
        func row(_ y: Double) -> Int { Int(max(-1, min(Double(buffer.height) + 1, y)).rounded(.down)) }
        let region = within ?? (0..<buffer.width, 0..<buffer.height)
        let x0 = max(0, region.x.lowerBound, column(min(a.x, b.x) - reach))
        let x1 = min(buffer.width, region.x.upperBound, column(max(a.x, b.x) + reach) + 2)
        let y0 = max(0, region.y.lowerBound, row(min(a.y, b.y) - reach))
        let y1 = min(buffer.height, region.y.upperBound, row(max(a.y, b.y) + reach) + 2)
        guard x0 < x1, y0 < y1 else { return nil }
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let inverse = lengthSquared > 0 ? 1 / lengthSquared : 0
        let reachSquared = reach * reach
        let capRadius = max(0, r - capInset)
        let core = capRadius - halfDiagonal
        let solidSquared = core >= 0 ? core * core : -1
        let paint: (r: UInt32, g: UInt32, b: UInt32)?
        switch ink {
        case .paint(let red, let green, let blue): paint = (UInt32(red), UInt32(green), UInt32(blue))
        case .clear: paint = nil
        }
        let solid: UInt32 = paint.map { 0xff00_0000 | $0.r << 16 | $0.g << 8 | $0.b } ?? 0
        let length = lengthSquared.squareRoot()
        for y in y0..<y1 {
            let py = Double(y) + 0.5
            // Where the row crosses the shape (within `reach` of the segment) and
            // its solid core (within `core`): pixels whose centres lie in the
            // core take the ink whole, the rest of the span gets its share.
            guard let outer = span(row: py, a, b, dx, dy, length, radius: reach) else { continue }
            let from = max(x0, column(outer.lo - 0.5) - 1), to = min(x1, column(outer.hi - 0.5) + 2)
            guard from < to else { continue }
            var solidRun = (from: to, to: to)
            if solidSquared >= 0, let inner = span(row: py, a, b, dx, dy, length, radius: core) {
                // Centres strictly inside by a hair: the distances below decide the edge pixels.
                let first = max(from, column(inner.lo - 0.5 + 1e-9) + 1), last = min(to, column(inner.hi - 0.5 - 1e-9) + 1)
                if first < last { solidRun = (first, last) }
            }
            let pixels = buffer.base + y * buffer.rowPixels
            let ey = py - a.y
            var x = from
            while x < to {
                if x == solidRun.from {
                    (pixels + x).update(repeating: solid, count: solidRun.to - solidRun.from)
                    x = solidRun.to
                    continue
                }
                defer { x += 1 }
                let ex = Double(x) + 0.5 - a.x
                let along = (ex * dx + ey * dy) * inverse
                let t = max(0, min(1, along))
                let fx = ex - t * dx, fy = ey - t * dy
                let distanceSquared = fx * fx + fy * fy
                guard distanceSquared < reachSquared else { continue }
                // Inside, or already all ink (this stroke's last segments cover most of this one's edge).
                if distanceSquared <= solidSquared || pixels[x] == solid {
                    pixels[x] = solid
                    continue
                }
                let d = distanceSquared.squareRoot()
                // The line's edges near this pixel as straight, across the direction
                // from the nearest point of the segment (along the segment's normal at a centre on it).
                let inverseD = 1 / d
                let (nx, ny) = d > 0 ? (fx * inverseD, fy * inverseD) : (length > 0 ? (-dy / length, dx / length) : (1, 0))
                let edge = along > 0 && along < 1 ? r : capRadius
                // The far edge reaches into the square only for a line thinner than its diagonal.
                let covered = squareCovered(below: edge - d, nx, ny) - (edge < halfDiagonal ? squareCovered(below: -edge - d, nx, ny) : 0)
                let c = UInt32(max(0, min(1, covered)) * 255 + 0.5)
                guard c > 0 else { continue }
                let old = pixels[x], keep = 255 &- c
                if let paint {
                    let alpha = c &+ scaled(old >> 24, keep)
                    let red = scaled(paint.r, c) &+ scaled((old >> 16) & 0xff, keep)
                    let green = scaled(paint.g, c) &+ scaled((old >> 8) & 0xff, keep)
                    let blue = scaled(paint.b, c) &+ scaled(old & 0xff, keep)
                    pixels[x] = alpha << 24 | red << 16 | green << 8 | blue
                } else {
                    pixels[x] = scaled(old >> 24, keep) << 24 | scaled((old >> 16) & 0xff, keep) << 16
                        | scaled((old >> 8) & 0xff, keep) << 8 | scaled(old & 0xff, keep)
                }
            }
        }
        return (x0..<x1, y0..<y1)
    }

    /// How much of a pixel's unit square lies where n·(p − centre) ≤ t (n a unit
    /// vector): the exact area a straight edge leaves, as cairo's rasterizer
    /// measures it. Along an axis that is t + ½; along a diagonal the square's
    /// corners make it a curve.
    @inline(__always)
    public static func squareCovered(below t: Double, _ nx: Double, _ ny: Double) -> Double {
        let a = max(abs(nx), abs(ny)), b = min(abs(nx), abs(ny))
        let u = t + (a + b) / 2   // from the square's first corner along n
        if u <= 0 { return 0 }
        if u >= a + b { return 1 }
        if u < b { return u * u / (2 * a * b) }
        if u <= a { return (u - b / 2) / a }
        let rest = a + b - u
        return 1 - rest * rest / (2 * a * b)
    }

    /// Where the row at height `py` crosses the points within `radius` of the
    /// segment: the round caps' chords and the band between them. The shape is
    /// convex, so the pieces that exist make one span.
    @inline(__always)
    private static func span(
        row py: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double),
        _ dx: Double, _ dy: Double, _ length: Double, radius: Double
    ) -> (lo: Double, hi: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        @inline(__always) func chord(_ c: (x: Double, y: Double)) {
            let h = radius * radius - (py - c.y) * (py - c.y)
            if h > 0 {
                let w = h.squareRoot()
                lo = min(lo, c.x - w)
                hi = max(hi, c.x + w)
            }
        }
        chord(a)
        chord(b)
        if length > 0 {
            // Along the segment: 0 ≤ (x − a.x)·dx + (py − a.y)·dy ≤ length²;
            // across it: |dx·(py − a.y) − dy·(x − a.x)| ≤ radius·length.
            var bandLo = -Double.infinity, bandHi = Double.infinity
            func within(_ slope: Double, _ offset: Double, _ low: Double, _ high: Double) -> Bool {
                // low ≤ slope·u + offset ≤ high, u = x − a.x
                if slope == 0 { return low <= offset && offset <= high }
                let u0 = (low - offset) / slope, u1 = (high - offset) / slope
                bandLo = max(bandLo, a.x + min(u0, u1))
                bandHi = min(bandHi, a.x + max(u0, u1))
                return true
            }
            let along = within(dx, (py - a.y) * dy, 0, length * length)
            let across = within(-dy, dx * (py - a.y), -radius * length, radius * length)
            if along, across, bandLo < bandHi {
                lo = min(lo, bandLo)
                hi = max(hi, bandHi)
            }
        }
        return lo < hi ? (lo, hi) : nil
    }

    /// The part of a→b within `margin` of the buffer (Liang–Barsky), so that
    /// an end far off the buffer neither costs time nor loses the precision the
    /// distances need; an end cut off lies beyond the reach of every pixel.
    private static func clip(
        _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), width: Double, height: Double, margin: Double
    ) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx.isFinite, dy.isFinite else { return nil }
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x + margin), (dx, width + margin - a.x), (-dy, a.y + margin), (dy, height + margin - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            if t0 > t1 { return nil }
        }
        let from = t0 > 0 ? (x: a.x + t0 * dx, y: a.y + t0 * dy) : a
        let to = t1 < 1 ? (x: a.x + t1 * dx, y: a.y + t1 * dy) : b
        return (from, to)
    }
}
