// SPDX-License-Identifier: MIT
import StylusCore

/// Named starting points; keys in the file override them.
public enum Preset: String, CaseIterable, Sendable {
    case `default`, precision, fast, accessibility

    public var config: EngineConfig {
        var c = EngineConfig()
        switch self {
        case .default:
            break
        case .precision:
            // Slower at light pressure, and slow up to firmer pressure.
            c.precision.minimumScale = 0.2
            c.precision.fullSpeedPressure = 0.75
        case .fast:
            c.doublePressIntervalMS = 350
            c.transitionMS = 150
            c.debounceMS = 15
        case .accessibility:
            // Slower hands: a wider double-press window, more debounce, calmer transitions.
            c.doublePressIntervalMS = 900
            c.debounceMS = 40
            c.transitionMS = 600
            c.precision.minimumScale = 0.4
        }
        return c
    }
}
