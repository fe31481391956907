// SPDX-License-Identifier: MIT
import StylusCore

/// A configuration problem, located: "FILE:LINE: KEY: what is wrong".
/// When a file has several (that the parser could tell apart: keys, types,
/// ranges), the first is this one and the rest are `others`, in file order.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String
    /// The further problems found in the same file.
    public var others: [ConfigError] = []

    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// Every problem, this one first.
    public var all: [ConfigError] { [ConfigError(file: file, line: line, key: key, message: message)] + others }

    /// One line per problem.
    public var description: String {
        all.map { problem in
            var text = problem.file
            if let line = problem.line { text += ":\(line)" }
            text += ": "
            if let key = problem.key { text += key.isEmpty ? "\"\": " : "\(key): " }
            return text + problem.message
        }.joined(separator: "\n")
    }
}

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

/// Reads `config.toml`:
///
///     preset = "default"          # default | precision | fast | accessibility
///     interval_ms = 500           # 150-1000
///     debounce_ms = 25            # 0-100
///     transition_ms = 250         # 0-5000
///     [bindings]                  # BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3, pad-N
///     BTN_STYLUS = "toggle-canvas"
///     [precision]
///     minimum_scale = 0.3
///     full_speed_pressure = 0.6
///     hysteresis = 0.05
///     curve = [0, 0, 100, 100]    # Bezier control points, xf86-input-wacom style
///     [canvas]
///     max_points = 262144
///     max_strokes = 16384
///     [output]
///     mode = "auto"               # observe | filter | auto
///     capture_while_canvas_open = true
///     [output.passthrough]        # per side button: defer | immediate | never
///     BTN_STYLUS = "defer"
public enum ConfigFile {}
