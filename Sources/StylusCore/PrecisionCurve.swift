// SPDX-License-Identifier: MIT
/// Pressure -> cursor scale, of the curve sampled once (`PressureTable`).
struct PrecisionCurve: Equatable {
    let config: PrecisionConfig
    private let shape: PressureTable

    init(_ config: PrecisionConfig) {
        self.config = config
        self.shape = PressureTable(config.curve)
    }

    /// Cursor scale for a pressure: minimumScale at no pressure, 1 from
    /// fullSpeedPressure up.
    func scale(pressure: Double) -> Double {
        config.minimumScale + (1 - config.minimumScale) * shape.value(at: pressure / config.fullSpeedPressure)
    }
}

public enum PrecisionRequest: String, Sendable, CaseIterable {
    case enable, disable, toggle
}
