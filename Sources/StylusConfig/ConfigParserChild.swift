// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The child side of config parsing: the process that parses config.toml
/// (StylusTOML), apart from the daemon, and the conversation with it.
/// `ConfigParserClient` is the parent side: it starts this child, writes
/// the file and reads the answer. `PROGRAM parse-config-child -- FILE`
/// reads the file's bytes on standard input and answers on standard output.
/// The child's code (`main`, `parse`) lives in StylusConfigParser; the
/// programs that link it offer it as a hidden subcommand: stylusd, which
/// starts itself as the child and which stylusctl starts, and stylus-fuzz.
///
/// The answer: exit status 0 and the configuration as JSON, or exit status
/// 3 and `line NUL key-or-\u{1} NUL message`, repeated (NUL between) for
/// every problem the file has (a NUL inside a key or message is sent as
/// U+FFFD). Any other end (a signal,
/// another status, a short answer) means the parser died on the file.
///
/// What it reads, `config.toml`:
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
///     [canvas.keys]               # key name = action, over the default keys
///     q = "tool:pen"
///     [output]
///     mode = "auto"               # observe | filter | auto
///     capture_while_canvas_open = true
///     [output.passthrough]        # per side button: defer | immediate | never
///     BTN_STYLUS = "defer"
public enum ConfigParserChild {
    /// config.toml is at most this big; anything larger is not a config file.
    public static let maxBytes = 1 << 20

    /// The most bytes of a serving child's request or answer header line
    /// ("NAME_BYTES FILE_BYTES", "STATUS REPLY_BYTES"): two numbers and a space.
    package static let headerLineBytes = 64

    /// The hidden subcommand's name.
    public static let command = "parse-config-child"

    package static let parsed: Int32 = 0
    package static let refused: Int32 = 3
    package static let cannotEncode: Int32 = 4
    package static let cannotRead: Int32 = 5
    package static let cannotWrite: Int32 = 6

    /// `parse-config-child --serve`: one file after another on standard
    /// input, so a reload costs a message instead of a process. A request is
    /// `<file bytes> <config bytes>\n`, the file's name, then the config;
    /// each answer is `<status> <bytes>\n` and then what the one-shot child
    /// would print, its status what that child would exit with. It ends at
    /// EOF or on a malformed request. Should the child keep memory from one
    /// answer to the next (TOMLKit, the parser before StylusTOML, kept about
    /// 0.9 KiB a small file), then once malloc has handed out
    /// `growthLimitFlag`'s KiB more than after its first answer, the child
    /// execs itself afresh: same process, same pipes. The daemon never has
    /// to start a replacement, whose posix_spawn would stop its loop until the exec.
    public static let serveFlag = "--serve"
    /// After `serveFlag`: how much the child may grow, in KiB, before it starts afresh.
    package static let growthLimitFlag = "--growth-limit-kib"
    public static let defaultGrowthLimitKiB = 8192
    /// After `serveFlag` in a child that started afresh: how many answers its earlier images gave.
    package static let answeredFlag = "--answered"

    /// Reads what the child sent back: the configuration, or the error it named.
    static func decode(status: Int32, reply: [UInt8], file: String) -> Result<EngineConfig, ConfigError> {
        switch status {
        case parsed:
            guard let config = readConfiguration(reply) ?? (try? JSONDecoder().decode(EngineConfig.self, from: Data(reply))) else {
                // Not the TOML's fault: a parser from another build speaks another configuration.
                return .failure(ConfigError.cannotCheck(
                    "the parser child answered with a configuration this stylusd cannot read; is \(ConfigParserClient.parserBesideThisProgram) "
                        + "from another version of stylusd? Install both from the same build", file: file))
            }
            return .success(config)
        case refused:
            let fields = reply.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 3, fields.count % 3 == 0 else { return .failure(ConfigError.parserDied("ended without a complete answer", file: file)) }
            var problems: [ConfigError] = []
            for i in stride(from: 0, to: fields.count, by: 3) {
                let key: String? = fields[i + 1] == "\u{1}" ? nil : fields[i + 1]
                let line: Int? = Int(fields[i])
                problems.append(ConfigError(file: file, line: line, key: key, message: fields[i + 2]))
            }
            var first = problems[0]
            first.others = Array(problems.dropFirst())
            return .failure(first)
        default:
            return .failure(ConfigError.parserDied("exited with status \(status)", file: file))
        }
    }

    /// The child's configuration (EngineConfig's Codable JSON) read with
    /// StylusProtocol's JSONParser instead of JSONDecoder: under a flood of
    /// reloads in the emulated test guest, JSONDecoder was the largest part
    /// of what a reload cost the event loop (docs/SECURITY.md). Nil for
    /// anything but exactly the keys it knows with values of their type (a
    /// field added to EngineConfig, say): `decode` then asks JSONDecoder,
    /// and `ConfigParserChildTests` fails until this learns the field.
    static func readConfiguration(_ reply: [UInt8]) -> EngineConfig? {
        guard case .object(let fields)? = try? JSONParser.parse(reply) else { return nil }
        var reader = FieldReader(fields)
        var config = EngineConfig()
        guard let interval = reader.int("doublePressIntervalMS"), let debounce = reader.int("debounceMS"),
              let transition = reader.int("transitionMS"),
              let sides = reader.array("sideButtonBindings", { $0.string.flatMap(Action.init(rawValue:)) }),
              case .object(let pads)? = reader.take("padBindings"),
              var precision = reader.object("precision"), var limits = reader.object("canvasLimits"),
              var output = reader.object("output"), let preset = reader.string("preset"),
              let setInFile = reader.array("setInFile", { $0.string.flatMap(PresetSetting.init(rawValue:)) }),
              let palette = reader.array("palette", { $0.string.flatMap(StrokeColor.init(hex:)) }),
              let eraser = reader.string("eraser").flatMap(EraserMode.init(rawValue:)),
              let showPalette = reader.string("showPalette").flatMap(PaletteVisibility.init(rawValue:)),
              let pointer = reader.string("pointer").flatMap(CanvasPointer.init(rawValue:)),
              let indicator = reader.string("indicator").flatMap(CanvasIndicator.init(rawValue:)) else { return nil }
        if let value = reader.take("style") {
            guard let style = configuredStyle(value) else { return nil }
            config.style = style
        }
        if let value = reader.take("pens") {
            guard case .array(let tables) = value else { return nil }
            for table in tables {
                guard let pen = penConfig(table) else { return nil }
                config.pens.append(pen)
            }
        }
        if let value = reader.take("background") {
            guard let board = value.string.flatMap(CanvasBackground.init(name:)) else { return nil }
            config.background = board
        }
        if let value = reader.take("submitScene") {
            guard let scene = value.string, scene == "ink" || scene == "screen" else { return nil }
            config.submitScene = scene
        }
        if let value = reader.take("exportDirectory") {
            guard let directory = value.string else { return nil }
            config.exportDirectory = directory
        }
        guard case .object(let keys)? = reader.take("canvasKeys") else { return nil }
        for (key, value) in keys {
            guard let action = value.string.flatMap(Action.init(rawValue:)) else { return nil }
            config.canvasKeys[key] = action
        }
        guard reader.isDone else { return nil }
        config.palette = palette
        config.eraser = eraser
        config.showPalette = showPalette
        config.pointer = pointer
        config.indicator = indicator
        config.doublePressIntervalMS = interval
        config.debounceMS = debounce
        config.transitionMS = transition
        config.sideButtonBindings = sides
        for (key, value) in pads {
            guard let n = Int(key), let action = value.string.flatMap(Action.init(rawValue:)) else { return nil }
            config.padBindings[n] = action
        }
        guard let minimumScale = precision.double("minimumScale"), let fullSpeed = precision.double("fullSpeedPressure"),
              let hysteresis = precision.double("hysteresis"), var curve = precision.object("curve"),
              let reportStep = precision.double("reportStep"), precision.isDone,
              let x1 = curve.double("x1"), let y1 = curve.double("y1"), let x2 = curve.double("x2"), let y2 = curve.double("y2"), curve.isDone,
              let maxPoints = limits.int("maxPoints"), let maxStrokes = limits.int("maxStrokes"), limits.isDone,
              let mode = output.string("mode").flatMap(OutputChoice.init(rawValue:)),
              let passthrough = output.array("passthrough", { $0.string.flatMap(Passthrough.init(rawValue:)) }),
              case .bool(let capture)? = output.take("captureWhileCanvasOpen"), output.isDone else { return nil }
        config.precision.minimumScale = minimumScale
        config.precision.fullSpeedPressure = fullSpeed
        config.precision.hysteresis = hysteresis
        config.precision.curve = PressureCurve(x1: x1, y1: y1, x2: x2, y2: y2)
        config.precision.reportStep = reportStep
        config.canvasLimits.maxPoints = maxPoints
        config.canvasLimits.maxStrokes = maxStrokes
        config.output.mode = mode
        config.output.passthrough = passthrough
        config.output.captureWhileCanvasOpen = capture
        config.preset = preset
        config.setInFile = Set(setInFile)
        return config
    }

    /// A `ConfiguredStyle` as Codable writes it: each key present only when set.
    private static func configuredStyle(_ value: JSONValue) -> ConfiguredStyle? {
        guard case .object(let fields) = value else { return nil }
        var style = FieldReader(fields)
        var result = ConfiguredStyle()
        if let value = style.take("tool") {
            guard let tool = value.string.flatMap(DrawingTool.init(rawValue:)) else { return nil }
            result.tool = tool
        }
        if let value = style.take("color") {
            guard let color = value.string.flatMap(StrokeColor.init(hex:)) else { return nil }
            result.color = color
        }
        if let value = style.take("width") {
            guard case .number(let width) = value else { return nil }
            result.width = width
        }
        return style.isDone ? result : nil
    }

    /// One `[pens.NAME]` table as Codable writes a `PenConfig`. A serial or
    /// tool id beyond a double's exact integers is not read here: `decode`
    /// then asks JSONDecoder, which reads it exactly.
    private static func penConfig(_ value: JSONValue) -> PenConfig? {
        guard case .object(let fields) = value else { return nil }
        var table = FieldReader(fields)
        guard let name = table.string("name"), let styleValue = table.take("style"),
              let style = configuredStyle(styleValue) else { return nil }
        var pen = PenConfig(name: name, style: style)
        if let value = table.take("serial") {
            guard let serial = value.exactUInt64 else { return nil }
            pen.serial = serial
        }
        if let value = table.take("toolID") {
            guard let toolID = value.exactUInt64 else { return nil }
            pen.toolID = toolID
        }
        if let value = table.take("device") {
            guard let device = value.string else { return nil }
            pen.device = device
        }
        if let value = table.take("type") {
            guard let type = value.string.flatMap(ToolType.init(rawValue:)) else { return nil }
            pen.type = type
        }
        if var curve = table.object("curve") {
            guard let x1 = curve.double("x1"), let y1 = curve.double("y1"), let x2 = curve.double("x2"), let y2 = curve.double("y2"),
                  curve.isDone else { return nil }
            pen.curve = PressureCurve(x1: x1, y1: y1, x2: x2, y2: y2)
        }
        guard case .object(let bindings)? = table.take("bindings") else { return nil }
        for (button, value) in bindings {
            guard let action = value.string.flatMap(Action.init(rawValue:)) else { return nil }
            pen.bindings[button] = action
        }
        return table.isDone ? pen : nil
    }

    /// An object's members, each taken once; `isDone` when none is left over.
    private struct FieldReader {
        private var fields: [String: JSONValue]

        init(_ fields: [String: JSONValue]) { self.fields = fields }

        var isDone: Bool { fields.isEmpty }

        mutating func take(_ key: String) -> JSONValue? { fields.removeValue(forKey: key) }

        mutating func int(_ key: String) -> Int? {
            guard case .number(let n)? = take(key) else { return nil }
            return Int(exactly: n)
        }

        mutating func double(_ key: String) -> Double? {
            guard case .number(let n)? = take(key) else { return nil }
            return n
        }

        mutating func string(_ key: String) -> String? { take(key)?.string }

        mutating func object(_ key: String) -> FieldReader? {
            guard case .object(let members)? = take(key) else { return nil }
            return FieldReader(members)
        }

        /// Every element read by `element`, or nil if one cannot be.
        mutating func array<T>(_ key: String, _ element: (JSONValue) -> T?) -> [T]? {
            guard case .array(let values)? = take(key) else { return nil }
            var result: [T] = []
            for value in values {
                guard let read = element(value) else { return nil }
                result.append(read)
            }
            return result
        }
    }
}

private extension JSONValue {
    var string: String? {
        guard case .string(let s) = self else { return nil }
        return s
    }

    /// A whole number a double holds exactly (below 2^53).
    var exactUInt64: UInt64? {
        guard case .number(let n) = self, n >= 0, n < 9_007_199_254_740_992 else { return nil }
        return UInt64(exactly: n)
    }
}
