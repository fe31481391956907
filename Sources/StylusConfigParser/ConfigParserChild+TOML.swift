// SPDX-License-Identifier: MIT
public import StylusCore
public import StylusConfig
import StylusTOML

// What config.toml's keys mean: the TOML tree (StylusTOML) checked against
// stylusd's settings, every problem named by file, line and key.
extension ConfigParserChild {
    /// A file of thousands of bad keys is not a file to fix line by line, and
    /// its every problem would not fit the child's answer (`maxReplyBytes`).
    public static let maxProblemsListed = 100

    public static func parse(_ text: String, file: String) throws(ConfigError) -> EngineConfig {
        try parse(Array(text.utf8), file: file)
    }

    /// The file's bytes as read: they need not be UTF-8, and the error says so.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> EngineConfig {
        let table: TOMLTable
        do throws(TOMLError) {
            table = try TOMLTable(parsing: bytes)
        } catch {
            throw ConfigError(file: file, line: error.line, key: nil, message: "not valid TOML (column \(error.column)): \(error.message)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = KeyLines(text)
        func fail(_ key: String, _ message: String) -> ConfigError {
            ConfigError(file: file, line: lines.line(of: key), key: key, message: message)
        }

        // Every problem the file's keys, types and ranges have, not only the first.
        var problems: [ConfigError] = []
        func report(_ key: String, _ message: String) { problems.append(fail(key, message)) }

        var config = EngineConfig()
        if let value = table["preset"] {
            if let name = value.string, let preset = Preset(rawValue: name) {
                config = preset.config
                config.preset = preset.rawValue
            } else if let name = value.string {
                report("preset", "unknown preset \"\(name)\"; use \(Preset.allCases.map(\.rawValue).joined(separator: ", "))")
            } else {
                report("preset", "expected a string")
            }
        }

        // A typo, or a key written without its unit (`interval` for `interval_ms`).
        func suggestion(_ key: String, _ known: [String]) -> String {
            let near = nearestWord(key, among: known) ?? known.first { $0.hasPrefix(key + "_") }
            return near.map { "did you mean \"\($0)\"? " } ?? ""
        }
        let topLevel = ["preset", "interval_ms", "debounce_ms", "transition_ms", "bindings", "precision", "canvas", "output", "pens"]
        for key in table.keys where !topLevel.contains(key) {
            report(key, "unknown key; \(suggestion(key, topLevel))known keys are \(topLevel.joined(separator: ", "))")
        }
        func integer(_ table: TOMLTable, _ key: String, _ path: String) -> Int? {
            guard let value = table[key] else { return nil }
            guard let int = value.int else {
                report(path, "expected a whole number, found \(value.typeName)")
                return nil
            }
            return int
        }
        func number(_ table: TOMLTable, _ key: String, _ path: String) -> Double? {
            guard let value = table[key] else { return nil }
            if let double = value.double { return double }
            if let int = value.int { return Double(int) }
            report(path, "expected a number, found \(value.typeName)")
            return nil
        }
        func subtable(_ key: String, allowed: [String]?) -> TOMLTable? {
            guard let value = table[key] else { return nil }
            guard let sub = value.table else {
                report(key, "expected a table ([\(key)])")
                return nil
            }
            if let allowed {
                for k in sub.keys where !allowed.contains(k) {
                    report("\(key).\(k)", "unknown key; \(suggestion(k, allowed))known keys are \(allowed.joined(separator: ", "))")
                }
            }
            return sub
        }

        // What the file sets of what a preset chooses, so that a `preset:NAME` binding can switch the rest.
        func setInFile(_ setting: PresetSetting) { config.setInFile.insert(setting) }
        if let v = integer(table, "interval_ms", "interval_ms") { config.doublePressIntervalMS = v; setInFile(.interval) }
        if let v = integer(table, "debounce_ms", "debounce_ms") { config.debounceMS = v; setInFile(.debounce) }
        if let v = integer(table, "transition_ms", "transition_ms") { config.transitionMS = v; setInFile(.transition) }

        if let bindings = subtable("bindings", allowed: nil) {
            for key in bindings.keys {
                guard let button = ButtonID(name: key) else {
                    report("bindings.\(key)", "unknown button; use BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 or pad-0 … pad-\(ButtonID.maxPadButtons - 1)")
                    continue
                }
                if let action = bindingAction(bindings[key]!, "bindings.\(key)", report: report) { config.bind(button, to: action) }
            }
        }
        if let precision = subtable("precision", allowed: ["minimum_scale", "full_speed_pressure", "hysteresis", "curve", "report_step"]) {
            if let v = number(precision, "minimum_scale", "precision.minimum_scale") { config.precision.minimumScale = v; setInFile(.minimumScale) }
            if let v = number(precision, "full_speed_pressure", "precision.full_speed_pressure") {
                config.precision.fullSpeedPressure = v
                setInFile(.fullSpeedPressure)
            }
            if let v = number(precision, "hysteresis", "precision.hysteresis") { config.precision.hysteresis = v; setInFile(.hysteresis) }
            if let v = number(precision, "report_step", "precision.report_step") { config.precision.reportStep = v; setInFile(.reportStep) }
            if let value = precision["curve"] {
                setInFile(.curve)
                let points = value.array ?? []
                let numbers = points.compactMap { $0.double ?? $0.int.map(Double.init) }
                if points.count == 4, numbers.count == 4, numbers.allSatisfy({ (0...100).contains($0) }) {
                    config.precision.curve = PressureCurve(x1: numbers[0] / 100, y1: numbers[1] / 100, x2: numbers[2] / 100, y2: numbers[3] / 100)
                } else {
                    report("precision.curve", "expected four numbers 0-100: [x1, y1, x2, y2], e.g. [0, 0, 100, 100] (linear)")
                }
            }
        }
        if let canvas = subtable("canvas", allowed: ["max_points", "max_strokes", "tool", "color", "width", "palette", "eraser", "export_dir", "show_palette", "keys", "pointer", "indicator", "background", "submit_scene"]) {
            if let v = integer(canvas, "max_points", "canvas.max_points") { config.canvasLimits.maxPoints = v }
            if let v = integer(canvas, "max_strokes", "canvas.max_strokes") { config.canvasLimits.maxStrokes = v }
            if let value = canvas["tool"] {
                if let name = value.string, let tool = DrawingTool(rawValue: name) {
                    config.style.tool = tool
                } else {
                    report("canvas.tool", "\(value.string.map { "unknown tool \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
            if let value = canvas["color"] {
                switch value.string.map(ColorName.parse) {
                case .success(let color)?: config.style.color = color
                case .failure(let error)?: report("canvas.color", error.message)
                case nil: report("canvas.color", "expected a colour (a CSS colour name, \"#RGB\" or \"#RRGGBB\", e.g. \"crimson\"), found \(value.typeName)")
                }
            }
            if let width = number(canvas, "width", "canvas.width") {
                if StrokeStyle.widthRange.contains(width) {
                    config.style.width = width
                } else {
                    report("canvas.width", "\(StyleRequest.describe(width)) is out of range; use \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)) (pixels of a drawing 1600 wide)")
                }
            }
            if let value = canvas["export_dir"] {
                if let text = value.string, text.hasPrefix("/") || text.hasPrefix("~/"), !text.utf8.contains(0) {
                    config.exportDirectory = text
                } else {
                    report("canvas.export_dir", "expected a folder as an absolute path or one starting with ~/, e.g. \"~/Pictures/ink\", found \(value.string.map { "\"\($0)\"" } ?? "\(value.typeName)")")
                }
            }
            if let value = canvas["submit_scene"] {
                if let text = value.string, text == "ink" || text == "screen" {
                    config.submitScene = text
                } else {
                    report("canvas.submit_scene", "expected \"ink\" (the drawing, as export writes it) or \"screen\" (the screen with the ink, as snapshot takes it), found \(value.string.map { "\"\($0)\"" } ?? "\(value.typeName)")")
                }
            }
            if let value = canvas["palette"] {
                let items = value.array ?? []
                let colors = items.compactMap { $0.string.flatMap(StrokeColor.init(css:)) }
                if value.array != nil, (1...16).contains(items.count), colors.count == items.count {
                    config.palette = colors
                } else {
                    // The first entry that is not a colour, by its place in the list, where there is one, and why.
                    let bad = items.firstIndex { $0.string.flatMap(StrokeColor.init(css:)) == nil }
                    let found = bad.map { i in
                        if case .failure(let error)? = items[i].string.map(ColorName.parse) { "; entry \(i + 1): \(error.message)" } else { "; entry \(i + 1) is a \(items[i].typeName)" }
                    } ?? (value.array == nil ? "; found \(value.typeName)" : "; found \(items.count)")
                    report("canvas.palette", "expected 1 to 16 colours (CSS colour names, \"#RGB\" or \"#RRGGBB\"), e.g. [\"crimson\", \"#3465a4\", \"black\"]\(found)")
                }
            }
            if let value = canvas["eraser"] {
                if let name = value.string, let mode = EraserMode(rawValue: name) {
                    config.eraser = mode
                } else {
                    report("canvas.eraser", "\(value.string.map { "unknown eraser \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(EraserMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) (pixel: clears the ink under its path; stroke: removes each stroke it touches)")
                }
            }
            if let value = canvas["keys"] {
                config.canvasKeys = canvasKeys(value, lines: lines, report: report)
            }
            if let value = canvas["background"] {
                if let name = value.string, let background = CanvasBackground(name: name) {
                    config.background = background
                } else {
                    report("canvas.background", "\(value.string.map { "unknown background \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(CanvasBackground.spellings) (the board under the ink; none: the desktop)")
                }
            }
            if let value = canvas["show_palette"] {
                if let name = value.string, let visibility = PaletteVisibility(rawValue: name) {
                    config.showPalette = visibility
                } else {
                    report("canvas.show_palette", "\(value.string.map { "unknown value \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(PaletteVisibility.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) (on-request: after a palette action or command; always: whenever the canvas is open)")
                }
            }
            if let value = canvas["pointer"] {
                if let name = value.string, let pointer = CanvasPointer(rawValue: name) {
                    config.pointer = pointer
                } else {
                    report("canvas.pointer", "\(value.string.map { "unknown value \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(CanvasPointer.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) (draw: the mouse and touch draw on the open canvas; pass: they reach the windows below)")
                }
            }
            if let value = canvas["indicator"] {
                if let name = value.string, let indicator = CanvasIndicator(rawValue: name) {
                    config.indicator = indicator
                } else {
                    report("canvas.indicator", "\(value.string.map { "unknown value \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(CanvasIndicator.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) (frame: a thin frame round the open canvas in the current colour; badge: a dot in its top right corner; none: nothing)")
                }
            }
        }
        if let pens = table["pens"] { config.pens = parsePens(pens, report: report) }
        if let output = subtable("output", allowed: ["mode", "capture_while_canvas_open", "passthrough"]) {
            if let value = output["mode"] {
                if let name = value.string, let mode = OutputChoice(rawValue: name) {
                    config.output.mode = mode
                } else {
                    report("output.mode", "\(value.string.map { "unknown mode \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(OutputChoice.spelledOut)")
                }
            }
            if let value = output["capture_while_canvas_open"] {
                if let capture = value.bool {
                    config.output.captureWhileCanvasOpen = capture
                } else {
                    report("output.capture_while_canvas_open", "expected true or false, found \(value.typeName)")
                }
            }
            if let value = output["passthrough"] {
                if let passthrough = value.table {
                    for key in passthrough.keys {
                        let path = "output.passthrough.\(key)"
                        guard let button = SideButton.allCases.first(where: { $0.evdevName == key }) else {
                            report(path, "unknown button; passthrough is set per side button: \(SideButton.allCases.map(\.evdevName).joined(separator: ", "))")
                            continue
                        }
                        let value = passthrough[key]!
                        guard let name = value.string, let mode = Passthrough(rawValue: name) else {
                            report(path, "\(value.string.map { "unknown passthrough \"\($0)\"" } ?? "expected a string, found \(value.typeName)"); use \(Passthrough.spelledOut)")
                            continue
                        }
                        config.output.passthrough[button.rawValue] = mode
                    }
                } else {
                    report("output.passthrough", "expected a table ([output.passthrough]) of side buttons, e.g. BTN_STYLUS = \"defer\"")
                }
            }
        }
        for problem in config.problems() {
            report(problem.key.hasPrefix("precision.curve") ? "precision.curve" : problem.key, problem.message)
        }
        if var first = problems.first {
            // In the file's order; a problem without a line (none so far) last.
            let ordered = problems.enumerated().sorted { ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset) }.map(\.element)
            first = ordered[0]
            first.others = Array(ordered.dropFirst().prefix(maxProblemsListed - 1))
            if ordered.count > maxProblemsListed {
                first.others.append(ConfigError(file: file, line: nil, key: nil, message: "\(ordered.count - maxProblemsListed) more problems not listed"))
            }
            throw first
        }
        return config
    }
}

