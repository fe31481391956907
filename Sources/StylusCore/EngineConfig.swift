// SPDX-License-Identifier: MIT
/// A cubic Bezier from (0,0) to (1,1) with two control points, the curve
/// shape tablet users already know from xf86-input-wacom and GNOME
/// ("0 0 100 100" is linear).
public struct PressureCurve: Equatable, Sendable, Codable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let linear = PressureCurve(x1: 0, y1: 0, x2: 1, y2: 1)
}

public struct PrecisionConfig: Equatable, Sendable, Codable {
    /// Cursor scale at the lightest pressure.
    public var minimumScale: Double = 0.3
    /// Pressure (0...1) at and above which the cursor moves at full speed.
    public var fullSpeedPressure: Double = 0.6
    /// Width of the pressure band below `fullSpeedPressure` in which the
    /// `active` flag keeps its previous value.
    public var hysteresis: Double = 0.05
    /// Maps pressure (as a fraction of `fullSpeedPressure`) to slowness.
    public var curve: PressureCurve = .linear
    /// A change of scale smaller than this is not reported as an event.
    public var reportStep: Double = 0.05

    public init() {}
}

/// Bounds on what the canvas keeps. A point is 32 bytes, so the default
/// point limit caps stroke memory at 8 MiB.
public struct CanvasLimits: Equatable, Sendable, Codable {
    public var maxPoints: Int = 262_144
    public var maxStrokes: Int = 16_384
    public init() {}
}

public struct EngineConfig: Equatable, Sendable, Codable {
    public static let intervalRangeMS: ClosedRange<Int> = 150...1000
    public static let debounceRangeMS: ClosedRange<Int> = 0...100
    public static let transitionRangeMS: ClosedRange<Int> = 0...5000

    public var doublePressIntervalMS: Int = 500
    public var debounceMS: Int = 25
    public var transitionMS: Int = 250
    /// Indexed by `SideButton.rawValue`.
    public var sideButtonBindings: [Action] = [.toggleCanvas, .togglePrecision, .none]
    /// Pad button number -> action; unlisted pad buttons do nothing.
    public var padBindings: [Int: Action] = [:]
    public var precision = PrecisionConfig()
    public var canvasLimits = CanvasLimits()
    /// What `color:next` and `color:previous` go round (`[canvas] palette`).
    public var palette = StyleRequest.defaultPalette
    /// What an eraser stroke takes away (`[canvas] eraser`).
    public var eraser = EraserMode.pixel
    /// When the canvas shows its palette (`[canvas] show_palette`).
    public var showPalette = PaletteVisibility.onRequest
    /// Whether an open canvas draws with the mouse and touch (`[canvas] pointer`).
    public var pointer = CanvasPointer.draw
    /// How an open canvas shows it is open (`[canvas] indicator`).
    public var indicator = CanvasIndicator.frame
    /// `[canvas]` tool, color, width, the keys the file sets: applied over the
    /// style the state file kept at each start, and by a reload that changes them.
    public var style = ConfiguredStyle()
    /// `[pens.NAME]`, by name: each pen's name and where its style begins.
    public var pens: [PenConfig] = []
    /// `[canvas] background`, when the file sets it: the board at each start, over the
    /// state file's, and after a reload that changes it.
    public var background: CanvasBackground?
    /// `[canvas] export_dir`: where `submit` writes its PNGs (absolute, or
    /// `~/…`); nil: `$XDG_PICTURES_DIR/stylusd`. Read by the shell.
    public var exportDirectory: String?
    /// `[canvas] submit_scene`: what a `submit` without `scene` shows, `ink` or `screen`
    /// (the names `SubmitScene` takes); nil: the ink. Read by the shell.
    public var submitScene: String?
    /// `[canvas.keys]`: canonical key name (`CanvasKeyName`) -> action, over
    /// the canvas's default keys (CanvasSpec.keys); `none` unbinds one. Read by the shell.
    public var canvasKeys: [String: Action] = [:]
    /// `[output]`: read by the shell, not by the engine.
    public var output = OutputConfig()
    /// The preset these settings started from (`preset` in the file, or a
    /// `preset:NAME` binding since); one of `Action.presetNames`.
    public var preset = "default"
    /// The settings a preset chooses that the file set itself: a switch of
    /// preset keeps them (see `switchingPreset`).
    public var setInFile: Set<PresetSetting> = []

    public init() {}

    /// This configuration with `presetConfig`'s values, the preset called
    /// `name`, for every preset-chosen setting the file left alone: what
    /// parsing the same file with `preset = name` gives.
    public func switchingPreset(to name: String, presetConfig: EngineConfig) -> EngineConfig {
        var c = self
        c.preset = name
        for setting in PresetSetting.allCases where !setInFile.contains(setting) {
            switch setting {
            case .interval: c.doublePressIntervalMS = presetConfig.doublePressIntervalMS
            case .debounce: c.debounceMS = presetConfig.debounceMS
            case .transition: c.transitionMS = presetConfig.transitionMS
            case .minimumScale: c.precision.minimumScale = presetConfig.precision.minimumScale
            case .fullSpeedPressure: c.precision.fullSpeedPressure = presetConfig.precision.fullSpeedPressure
            case .hysteresis: c.precision.hysteresis = presetConfig.precision.hysteresis
            case .curve: c.precision.curve = presetConfig.precision.curve
            case .reportStep: c.precision.reportStep = presetConfig.precision.reportStep
            }
        }
        return c
    }

    public func binding(for button: ButtonID) -> Action {
        switch button {
        case .side(let b): sideButtonBindings[b.rawValue]
        case .pad(let n): padBindings[n] ?? .none
        }
    }

    /// Every button with an action other than `none`: side buttons, then pads by number.
    public var boundButtons: [(button: ButtonID, action: Action)] {
        let sides = SideButton.allCases.map { (button: ButtonID.side($0), action: binding(for: .side($0))) }
        let pads = padBindings.sorted { $0.key < $1.key }.map { (button: ButtonID.pad($0.key), action: $0.value) }
        return (sides + pads).filter { $0.action != .none }
    }

    public mutating func bind(_ button: ButtonID, to action: Action) {
        switch button {
        case .side(let b): sideButtonBindings[b.rawValue] = action
        case .pad(let n): padBindings[n] = action
        }
    }

    /// Every problem with this configuration, each naming the key at fault.
    public func problems() -> [ConfigProblem] {
        var found: [ConfigProblem] = []
        func check(_ key: String, _ value: Int, _ range: ClosedRange<Int>, unit: String) {
            if !range.contains(value) {
                found.append(ConfigProblem(key: key, message: "\(value) \(unit) is outside \(range.lowerBound)-\(range.upperBound) \(unit)"))
            }
        }
        check("interval_ms", doublePressIntervalMS, Self.intervalRangeMS, unit: "ms")
        check("debounce_ms", debounceMS, Self.debounceRangeMS, unit: "ms")
        check("transition_ms", transitionMS, Self.transitionRangeMS, unit: "ms")
        // Only between two values that are each in range: an interval out of range is the one problem.
        if debounceMS >= doublePressIntervalMS, Self.intervalRangeMS.contains(doublePressIntervalMS),
           Self.debounceRangeMS.contains(debounceMS) {
            found.append(ConfigProblem(key: "debounce_ms", message: "must be shorter than interval_ms (\(doublePressIntervalMS) ms)"))
        }
        if sideButtonBindings.count != SideButton.allCases.count {
            found.append(ConfigProblem(key: "bindings", message: "needs exactly one action per side button"))
        }
        for n in padBindings.keys where !(0..<ButtonID.maxPadButtons).contains(n) {
            found.append(ConfigProblem(key: "bindings.pad-\(n)", message: "pad buttons are numbered 0-\(ButtonID.maxPadButtons - 1)"))
        }
        let p = precision
        if !(p.minimumScale > 0 && p.minimumScale <= 1) {
            found.append(ConfigProblem(key: "precision.minimum_scale", message: "\(p.minimumScale) is outside (0, 1]"))
        }
        if !(p.fullSpeedPressure > 0 && p.fullSpeedPressure <= 1) {
            found.append(ConfigProblem(key: "precision.full_speed_pressure", message: "\(p.fullSpeedPressure) is outside (0, 1]"))
        }
        if !(p.hysteresis >= 0 && p.hysteresis < p.fullSpeedPressure) {
            found.append(ConfigProblem(key: "precision.hysteresis", message: "\(p.hysteresis) must be at least 0 and below full_speed_pressure"))
        }
        if !(p.reportStep > 0 && p.reportStep <= 1) {
            found.append(ConfigProblem(key: "precision.report_step", message: "\(p.reportStep) is outside (0, 1]"))
        }
        for (name, v) in [("x1", p.curve.x1), ("y1", p.curve.y1), ("x2", p.curve.x2), ("y2", p.curve.y2)] where !(0...1).contains(v) {
            found.append(ConfigProblem(key: "precision.curve.\(name)", message: "\(v) is outside 0-1"))
        }
        for pen in pens {
            if let c = pen.curve, ![c.x1, c.y1, c.x2, c.y2].allSatisfy((0...1).contains) {
                found.append(ConfigProblem(key: "pens.\(pen.name).curve", message: "a control point is outside 0-1"))
            }
            for key in pen.bindings.keys where SideButton(name: key) == nil {
                found.append(ConfigProblem(key: "pens.\(pen.name).bindings.\(key)", message: "unknown button; use BTN_STYLUS, BTN_STYLUS2 or BTN_STYLUS3"))
            }
        }
        if canvasLimits.maxPoints < 1 || canvasLimits.maxPoints > 16_777_216 {
            found.append(ConfigProblem(key: "canvas.max_points", message: "\(canvasLimits.maxPoints) is outside 1-16777216"))
        }
        if canvasLimits.maxStrokes < 1 || canvasLimits.maxStrokes > 1_048_576 {
            found.append(ConfigProblem(key: "canvas.max_strokes", message: "\(canvasLimits.maxStrokes) is outside 1-1048576"))
        }
        return found
    }
}

/// The settings a preset may choose, by their key in config.toml.
public enum PresetSetting: String, CaseIterable, Sendable, Codable {
    case interval = "interval_ms"
    case debounce = "debounce_ms"
    case transition = "transition_ms"
    case minimumScale = "precision.minimum_scale"
    case fullSpeedPressure = "precision.full_speed_pressure"
    case hysteresis = "precision.hysteresis"
    case curve = "precision.curve"
    case reportStep = "precision.report_step"
}

public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
    public var description: String { "\(key): \(message)" }
}
