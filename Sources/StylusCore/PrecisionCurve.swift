// SPDX-License-Identifier: MIT
/// Pressure -> cursor scale. The Bezier is sampled once into a table when the
/// configuration changes, so a pen sample costs one lookup and one lerp.
struct PrecisionCurve: Equatable {
    static let tableSize = 256
    let config: PrecisionConfig
    /// curve(f) for f = i / tableSize, i in 0...tableSize.
    private let table: [Double]

    init(_ config: PrecisionConfig) {
        self.config = config
        self.table = Self.sample(config.curve)
    }

    /// Cursor scale for a pressure: minimumScale at no pressure, 1 from
    /// fullSpeedPressure up.
    func scale(pressure: Double) -> Double {
        let fraction = pressure / config.fullSpeedPressure
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let position = f * Double(Self.tableSize)
        let i = min(Int(position), Self.tableSize - 1)
        let t = position - Double(i)
        let shaped = table[i] + (table[i + 1] - table[i]) * t
        return config.minimumScale + (1 - config.minimumScale) * shaped
    }

    /// Solves the Bezier for y at evenly spaced x. x(t) never decreases when
    /// both control points lie in the unit square, so a forward sweep in t
    /// finds each x in order.
    private static func sample(_ c: PressureCurve) -> [Double] {
        func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        let steps = tableSize * 32
        var result = [Double](repeating: 1, count: tableSize + 1)
        result[0] = 0
        var previousX = 0.0, previousY = 0.0
        var next = 1
        for s in 1...steps {
            let t = Double(s) / Double(steps)
            let x = bezier(c.x1, c.x2, t), y = bezier(c.y1, c.y2, t)
            while next <= tableSize, Double(next) / Double(tableSize) <= x {
                let target = Double(next) / Double(tableSize)
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

public enum PrecisionRequest: String, Sendable, CaseIterable {
    case enable, disable, toggle
}
