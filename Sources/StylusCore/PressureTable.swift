// SPDX-License-Identifier: MIT
/// A `PressureCurve` sampled once into a table, so that a pen sample costs
/// one lookup and one lerp: what precision mode's scale and a pen's own curve
/// (`[pens.NAME] curve`) both read.
struct PressureTable: Equatable, Sendable {
    static let size = 256
    let curve: PressureCurve
    /// curve(f) for f = i / size, i in 0...size.
    private let table: [Double]

    init(_ curve: PressureCurve) {
        self.curve = curve
        self.table = Self.sample(curve)
    }

    /// The curve at `f`, taken into 0...1 first (NaN reads as 0).
    func value(at f: Double) -> Double {
        let f = f.isNaN ? 0 : min(max(f, 0), 1)
        let position = f * Double(Self.size)
        let i = min(Int(position), Self.size - 1)
        let t = position - Double(i)
        return table[i] + (table[i + 1] - table[i]) * t
    }

    /// Solves the Bezier for y at evenly spaced x. x(t) never decreases when
    /// both control points lie in the unit square, so a forward sweep in t
    /// finds each x in order.
    private static func sample(_ c: PressureCurve) -> [Double] {
        func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        let steps = size * 32
        var result = [Double](repeating: 1, count: size + 1)
        result[0] = 0
        var previousX = 0.0, previousY = 0.0
        var next = 1
        for s in 1...steps {
            let t = Double(s) / Double(steps)
            let x = bezier(c.x1, c.x2, t), y = bezier(c.y1, c.y2, t)
            while next <= size, Double(next) / Double(size) <= x {
                let target = Double(next) / Double(size)
                let span = x - previousX
                result[next] = span > 0 ? previousY + (y - previousY) * (target - previousX) / span : y
                next += 1
            }
            previousX = x
            previousY = y
        }
        return result
    }
}
