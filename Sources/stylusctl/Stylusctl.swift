// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Exit statuses, so scripts can tell what went wrong.
enum Status {
    static let usage: Int32 = 64           // EX_USAGE, as swift-argument-parser's own usage errors
    static let notRunning: Int32 = 69      // EX_UNAVAILABLE
    static let refused: Int32 = 3
    static let protocolError: Int32 = 76   // EX_PROTOCOL
    static let badConfig: Int32 = 78       // EX_CONFIG

    static func of(_ error: StylusClientError) -> Int32 {
        switch error.kind {
        case .notRunning, .cancelled: notRunning
        case .connectionRefused, .commandFailed: refused
        case .protocolViolation: protocolError
        }
    }
}

@main
struct Stylusctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusctl",
        abstract: "Control and watch a running stylusd.",
        discussion: """
            Exit status: 0 on success, 1 when stylusctl itself fails (a file it cannot write, a terminal it cannot \
            use), \(Status.refused) when stylusd refused the command (`reload` of a file with a problem included: the \
            problem is printed), \(Status.usage) on a usage error, \(Status.notRunning) when stylusd is not running, \
            \(Status.protocolError) when its answer made no sense, \(Status.badConfig) when `config check` finds a problem.

            Double-press actions, for config.toml's [bindings] (BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3, pad-N) and \
            stylusd --bind BUTTON=ACTION:
            \(Action.helpTable)
            """,
        version: StylusVersion.current,
        // One subcommand per protocol command (CommandName's order), then stylusctl's own.
        subcommands: CommandName.allCases.compactMap(\.subcommand) + [
            Monitor.self,
            Calibrate.self,
            Config.self,
            Completions.self,
        ]
    )

    /// A first word that is no command gets the nearest command's name
    /// instead of ArgumentParser's "Unexpected argument".
    static func main() {
        let arguments = socketAfterTheCommand(Array(CommandLine.arguments.dropFirst()))
        if let first = arguments.first, let message = unknownCommandMessage(first) {
            printError(message)
            Glibc.exit(Status.usage)
        }
        // The parser child of `config check` and calibrate is the daemon's own parser program.
        ConfigParserClient.defaultExecutable = ConfigParserClient.parserBesideThisProgram
        main(arguments)
    }

    /// `stylusctl --socket PATH status` as `stylusctl status --socket PATH`:
    /// every command takes `--socket`, and people type it first too.
    static func socketAfterTheCommand(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var socket: [String] = []
        while let first = rest.first, first == "--socket" || first.hasPrefix("--socket=") {
            let taken = first == "--socket" ? 2 : 1
            guard rest.count > taken else { return arguments }
            socket += rest.prefix(taken)
            rest = rest.dropFirst(taken)
        }
        guard let command = rest.first, !socket.isEmpty else { return arguments }
        return [command] + socket + rest.dropFirst()
    }

    /// The names a user may type first: the visible subcommands and `help`.
    static var commandNames: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName } + ["help"]
    }

    /// Nil for an option or a known command; otherwise what to say.
    static func unknownCommandMessage(_ word: String) -> String? {
        let names = commandNames
        guard !word.hasPrefix("-"), !names.contains(word), ConfigParserChild.command != word else { return nil }
        return "stylusctl: " + unknownWord("command", word, among: Array(names.dropLast()))
    }
}

/// `unknown command "togle"; did you mean "toggle"?`, or with no near
/// word, `unknown command "xyzzy"; commands are status, toggle, …`.
func unknownWord(_ kind: String, _ word: String, among names: [String]) -> String {
    let suggestion = didYouMean(word, among: names)
    return "unknown \(kind) \"\(word)\"" + (suggestion.isEmpty ? "; \(kind)s are \(names.joined(separator: ", "))" : suggestion)
}

/// `; did you mean "toggle"?` for the nearest word within two edits
/// (a transposition counts as one), or "" when nothing is that near.
func didYouMean(_ word: String, among candidates: [String]) -> String {
    var best: (word: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(word, candidate)
        if d <= min(2, max(1, word.count / 3)), d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best.map { "; did you mean \"\($0.word)\"?" } ?? ""
}

/// Insertions, deletions, substitutions and swaps of neighbours needed to turn `a` into `b`.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
            }
        }
    }
    return rows[a.count][b.count]
}

extension CommandName {
    /// The stylusctl subcommand that sends this command; `subscribe` is `watch`.
    var subcommand: ParsableCommand.Type? {
        switch self {
        case .status: StateCommand<StatusKind>.self
        case .toggle: StateCommand<ToggleKind>.self
        case .open: StateCommand<OpenKind>.self
        case .minimize: StateCommand<MinimizeKind>.self
        case .ack: StateCommand<AckKind>.self
        case .clear: StateCommand<ClearKind>.self
        case .undo: StateCommand<UndoKind>.self
        case .strokes: Strokes.self
        case .precision: PrecisionCommand.self
        case .subscribe: Watch.self
        case .unsubscribe: nil   // only meaningful on a connection that stays open
        case .devices: Devices.self
        case .reload: Reload.self
        case .output: OutputCommand.self
        case .overlay: nil   // stylus-canvas's own report; `status` shows it
        }
    }
}

struct SocketOption: ParsableArguments {
    @Option(help: "The daemon's socket (default: $STYLUSD_SOCKET, else $XDG_RUNTIME_DIR/stylusd/stylusd.sock).",
            completion: .file())
    var socket: String?

    func connect() throws(StylusClientError) -> StylusConnection { try StylusConnection(socket: socket) }
}

/// Runs `body`, turning failures into a message on stderr and the exit status.
func client(_ body: () throws(StylusClientError) -> Void) throws {
    do {
        try body()
    } catch {
        printError("stylusctl: \(error.message)")
        throw ExitCode(Status.of(error))
    }
}

func printError(_ text: String) {
    _ = writeAll(STDERR_FILENO, Array((text + "\n").utf8))
}

/// Writes at once with write(2), so each line reaches a pipe or a file the
/// moment it is known. A reader that went away (`| head`) ends stylusctl quietly.
func emit(_ bytes: [UInt8]) {
    if !writeAll(STDOUT_FILENO, bytes) { exit(errno == EPIPE ? 0 : 1) }
}

func emit(_ text: String) { emit(Array((text + "\n").utf8)) }

func json(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
}

extension JSONValue {
    subscript(_ key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
    var array: [JSONValue] { if case .array(let a) = self { a } else { [] } }
}

extension ResponseLine {
    /// The result exactly as the daemon sent it (for `--json`), or its error.
    func raw() throws(StylusClientError) -> JSONValue { try typed(JSONValue.self) }

    func typed<R: Decodable>(_ type: R.Type) throws(StylusClientError) -> R {
        do {
            return try result(as: R.self)
        } catch {
            throw ok || error.code == .badJSON ? StylusClientError(.protocolViolation, error.message)
                : StylusClientError(.commandFailed(error.code), error.code == .refused ? error.message : "\(error.code.rawValue): \(error.message)")
        }
    }
}

/// What a command's answer prints: `status` (and `reload`, which may change
/// anything) the whole summary; a command that changes one part of the state,
/// that part's line (`stylusctl status` shows the rest).
enum StatusPart {
    case all, canvas, precision, output

    init(_ command: ClientCommand) {
        switch command {
        case .toggle, .open, .minimize, .ack, .clear, .undo: self = .canvas
        case .precision: self = .precision
        case .output: self = .output
        default: self = .all
        }
    }
}

func describeStatus(_ r: StatusResult, only part: StatusPart = .all) -> String {
    var lines: [String] = []
    if r.changed == false, let reason = r.reason { lines.append("unchanged: \(reason)") }
    let c = r.canvas
    let canvasLine = "canvas     \(c.state) (\(counted(c.strokeCount, "stroke")), \(counted(c.pointCount, "point"))\(c.full ? ", full" : ""))"
    let precisionLine = "precision  \(r.precision.enabled ? "enabled" : "disabled"), \(r.precision.active ? "active" : "inactive")"
    switch part {
    case .canvas: return (lines + [canvasLine]).joined(separator: "\n")
    case .precision: return (lines + [precisionLine]).joined(separator: "\n")
    case .output: return (lines + [r.output.map(describeOutput) ?? "output     unknown (a daemon older than the output command)"]).joined(separator: "\n")
    case .all: break
    }
    lines.append(canvasLine)
    lines.append(precisionLine)
    if r.input.mode == "pen" {
        lines.append("input      pen: " + r.input.devices.map { "\($0.name) [\($0.kind)]" }.joined(separator: ", "))
    } else {
        lines.append("input      button-only" + (r.input.reason.map { ": \($0)" } ?? ""))
    }
    lines.append("config     \(r.config.preset.map { "preset \($0), " } ?? "")interval \(r.config.intervalMS) ms, debounce \(r.config.debounceMS) ms, transition \(r.config.transitionMS) ms")
    for binding in r.config.bindings ?? [] {
        lines.append("binding    \(binding.button) = \(binding.action)" + (binding.unavailable.map { " (not available: \($0))" } ?? ""))
    }
    if let o = r.output { lines.append(describeOutput(o)) }
    if let overlay = r.overlay {
        lines.append("overlay    stylus-canvas as \(overlay.backend), \(overlay.outputs) output\(overlay.outputs == 1 ? "" : "s")"
                     + (overlay.backend == "wayland-toplevel" ? " (no layer-shell here: a maximized window, not an overlay)" : ""))
    }
    return lines.joined(separator: "\n")
}

/// "output     observe (requested auto): why", and the nodes a filter waits to grab.
func describeOutput(_ o: StatusResult.OutputInfo) -> String {
    var line = "output     \(o.mode) (requested \(o.requested))"
    // The reason starts with the mode ("observe: …"); said once is enough.
    let reason = o.reason.hasPrefix(o.mode + ": ") ? String(o.reason.dropFirst(o.mode.count + 2)) : o.reason
    if !reason.isEmpty { line += ": " + reason }
    if !o.waiting.isEmpty {
        line += "\n           waiting to grab \(o.waiting.joined(separator: ", ")) (the pen is in proximity or a button is held)"
    }
    return line
}

/// Sends `command` and prints the status it answers, or its JSON.
func runStateCommand(_ command: ClientCommand, socket: SocketOption, json: Bool) throws {
    try client { () throws(StylusClientError) in
        let response = try socket.connect().send(command)
        emit(json ? stylusctl.json(try response.raw()) : describeStatus(try response.typed(StatusResult.self), only: StatusPart(command)))
    }
}

/// A command without arguments that answers with the status: status, toggle, open, minimize, ack, clear.
protocol StateCommandKind {
    static var command: ClientCommand { get }
}

enum StatusKind: StateCommandKind { static let command = ClientCommand.status }
enum ToggleKind: StateCommandKind { static let command = ClientCommand.toggle }
enum OpenKind: StateCommandKind { static let command = ClientCommand.open }
enum MinimizeKind: StateCommandKind { static let command = ClientCommand.minimize }
enum AckKind: StateCommandKind { static let command = ClientCommand.ack }
enum ClearKind: StateCommandKind { static let command = ClientCommand.clear }
enum UndoKind: StateCommandKind { static let command = ClientCommand.undo }

/// One definition for every `StateCommandKind`; name and help come from `CommandName`.
struct StateCommand<Kind: StateCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Kind.command.name.rawValue, abstract: Kind.command.name.summary)
    }
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws { try runStateCommand(Kind.command, socket: socket, json: json) }
}

struct PrecisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: CommandName.precision.rawValue, abstract: CommandName.precision.summary)
    @Argument(help: "enable, disable or toggle", completion: .list(PrecisionRequest.allCases.map(\.rawValue))) var action: String
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        let actions = PrecisionRequest.allCases.map(\.rawValue)
        guard PrecisionRequest(rawValue: action) != nil else {
            throw ValidationError("the action is enable, disable or toggle, not \"\(action)\"\(didYouMean(action, among: actions))")
        }
    }

    func run() throws { try runStateCommand(.precision(PrecisionRequest(rawValue: action)!), socket: socket, json: json) }
}

struct OutputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.output.rawValue, abstract: CommandName.output.summary,
        discussion: """
            observe gives the pen back to the desktop at once: every grab is released and every virtual pen removed. \
            filter grabs each pen once it is out of proximity with no button held; where it cannot run \
            (no writable /dev/uinput) the daemon says why and the fix, and stays in observe. \
            auto is filter where possible, else observe. The canvas, its strokes and precision mode are kept.
            """)
    @Argument(help: "observe, filter or auto", completion: .list(OutputChoice.allCases.map(\.rawValue))) var mode: String
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        guard OutputChoice(rawValue: mode) != nil else {
            throw ValidationError("the mode is \(OutputChoice.spelledOut), not \"\(mode)\"\(didYouMean(mode, among: OutputChoice.allCases.map(\.rawValue)))")
        }
    }

    func run() throws { try runStateCommand(.output(OutputChoice(rawValue: mode)!), socket: socket, json: json) }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: CommandName.subscribe.summary,
        discussion: "Topics: \(Topic.allCases.map { $0 == .pen ? "pen (per-sample pen data)" : $0 == .button ? "button (every press and release)" : $0.rawValue }.joined(separator: ", ")). Default: every topic but \(Topic.allCases.filter { !Topic.defaults.contains($0) }.map(\.rawValue).joined(separator: " and ")).")
    @Argument(help: "Topics to follow.", completion: .list(Topic.allCases.map(\.rawValue))) var topics: [String] = []
    @OptionGroup var socket: SocketOption
    @Flag(help: "One JSON object per line, exactly as the daemon sends them.") var json = false

    func validate() throws {
        for t in topics where Topic(rawValue: t) == nil {
            throw ValidationError(unknownWord("topic", t, among: Topic.allCases.map(\.rawValue)))
        }
    }

    func run() throws {
        try client { () throws(StylusClientError) in
            let connection = try socket.connect()
            let followed = topics.isEmpty ? Topic.defaults : topics.compactMap(Topic.init(rawValue:))
            _ = try connection.send(.subscribe(followed)).raw()
            // At once, on standard error (standard output carries only events): what is watched, from what state.
            printError(Self.firstLine(topics: followed, status: try connection.send(.status).typed(StatusResult.self)))
            while let event = try connection.nextEvent() {
                emit(json ? event.raw : Array((Self.describe(event) + "\n").utf8))
            }
            throw StylusClientError(.notRunning, "stylusd closed the connection (it stopped)")
        }
    }

    /// "watching canvas, double-press …; now: canvas minimized (0 strokes), …".
    static func firstLine(topics: [Topic], status: StatusResult) -> String {
        let input = status.input.mode == "pen" ? "pen" : "button-only"
        return "watching \(topics.map(\.rawValue).joined(separator: ", ")) (Ctrl-C stops); now: canvas \(status.canvas.state) "
            + "(\(counted(status.canvas.strokeCount, "stroke"))), precision \(status.precision.enabled ? "enabled" : "disabled"), input \(input)"
            + (status.output.map { ", output \($0.mode)" } ?? "")
    }

    /// "12:34:56.789 canvas state=open source=pen …": the local wall-clock time of the
    /// event, its name, then its fields. `time_us` is CLOCK_MONOTONIC (what the kernel
    /// stamps input with); `wallClockOffset` (µs, realtime − monotonic, read now) turns
    /// it into the time of day. `--json` keeps `time_us` as the daemon sent it.
    static func describe(_ event: EventLine, wallClockOffset: Int64 = wallClockOffsetNow()) -> String {
        var parts: [String] = []
        if let micros = event.time {
            var seconds = time_t((micros + wallClockOffset) / 1_000_000)
            let ms = ((micros + wallClockOffset) % 1_000_000) / 1000
            var local = tm()
            localtime_r(&seconds, &local)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            parts.append("\(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec)).\(String(1000 + ms).dropFirst())")
        }
        parts.append(event.name)
        for key in event.fields.keys.sorted() where key != "event" && key != "time_us" {
            let v = event.fields[key]!
            parts.append("\(key)=\(v.string ?? stylusctl.json(v))")
        }
        return parts.joined(separator: " ")
    }
}

/// Microseconds from CLOCK_MONOTONIC to CLOCK_REALTIME, now.
func wallClockOffsetNow() -> Int64 {
    var real = timespec(), mono = timespec()
    clock_gettime(CLOCK_REALTIME, &real)
    clock_gettime(CLOCK_MONOTONIC, &mono)
    return (Int64(real.tv_sec) - Int64(mono.tv_sec)) * 1_000_000 + (Int64(real.tv_nsec) - Int64(mono.tv_nsec)) / 1000
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.devices.summary)
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.devices)
            if json { return emit(stylusctl.json(try response.raw())) }
            let result = try response.typed(DevicesResult.self)
            for node in result.nodes {
                var line = "\(node.path)  \(node.name)  \(node.kind.rawValue)"
                if let error = node.error { line += ": \(error)" }
                if let pen = node.pen {
                    line += ": " + pen.sideButtons.joined(separator: " ")
                    if pen.display { line += ", pen display" }
                }
                emit(line)
            }
            if let reason = result.buttonOnlyReason { emit("no pen: \(reason)") }
        }
    }
}

struct Strokes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.strokes.summary)
    @Option(help: "Write an SVG drawing here; each segment is as wide as its pressure.", completion: .file(extensions: ["svg"])) var svg: String?
    @Option(help: ArgumentHelp("The drawing's size in pixels, as the screen the canvas covers (the canvas maps the tablet onto the whole screen).",
                               valueName: "WIDTHxHEIGHT"))
    var size: SVGSize = .init(width: 1920, height: 1080)
    @OptionGroup var socket: SocketOption

    func run() throws {
        var result = JSONValue.null
        try client { () throws(StylusClientError) in
            // The JSON as sent: the points' decimal text is what the SVG's coordinates are computed from.
            result = try socket.connect().send(.strokes).raw()
        }
        guard let svg else { return emit(stylusctl.json(result)) }
        let document = Self.svg(result["strokes"]?.array ?? [], size: size)
        let fd = open(svg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let bytes = Array(document.utf8)
        guard fd >= 0, bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            printError("stylusctl: \(svg): \(String(cString: strerror(errno)))")
            if fd >= 0 { close(fd) }
            throw ExitCode(1)
        }
        close(fd)
        emit("\(svg): \(counted(result["strokes"]?.array.count ?? 0, "stroke")), \(size.width)×\(size.height)")
    }

    /// How a tool's strokes look. Unlike the canvas, which erases under an
    /// eraser's path (docs/OVERLAY.md), the SVG draws an eraser's strokes as a
    /// pale translucent band (blue, on the drawing's white), so that none of
    /// the ink is lost from the file; an airbrush's are a translucent grey,
    /// told apart from the black ink of every other tool.
    static func style(tool: String) -> String {
        switch tool {
        case "eraser": " stroke=\"#8fb8de\" stroke-opacity=\"0.6\""
        case "airbrush": " stroke=\"#555\" stroke-opacity=\"0.5\""
        default: ""
        }
    }

    /// The unit square of the tablet stretched onto `size`, as the canvas
    /// shows it on a screen of that size; widths 0.5–8 by pressure at 1600
    /// wide, scaled with the width as the canvas scales them.
    static func svg(_ strokes: [JSONValue], size: SVGSize) -> String {
        let width = Double(size.width), height = Double(size.height), scale = width / 1600
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size.width) \(size.height)\" width=\"\(size.width)\" height=\"\(size.height)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g stroke=\"black\" stroke-linecap=\"round\" fill=\"none\">\n"
        func r(_ v: Double) -> String { String((v * 10).rounded() / 10) }
        for stroke in strokes {
            let points = stroke["points"]?.array.map { $0.array.compactMap(\.number) } ?? []
            let style = Self.style(tool: stroke["tool"]?.string ?? "pen")
            for (a, b) in zip(points, points.dropFirst()) where a.count >= 3 && b.count >= 3 {
                let w = (0.5 + 7.5 * max(0, min(1, (a[2] + b[2]) / 2))) * scale
                out += "<line x1=\"\(r(a[0] * width))\" y1=\"\(r(a[1] * height))\" x2=\"\(r(b[0] * width))\" y2=\"\(r(b[1] * height))\" stroke-width=\"\(r(w))\"\(style)/>\n"
            }
        }
        return out + "</g>\n</svg>\n"
    }
}

/// `--size 1920x1080`.
struct SVGSize: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...100_000).contains(w), (1...100_000).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.reload.summary)
    @OptionGroup var socket: SocketOption

    func run() throws {
        do throws(StylusClientError) {
            emit(describeStatus(try socket.connect().send(.reload).typed(StatusResult.self)))
        } catch {
            printError("stylusctl: \(error.message)")
            // The daemon could not use the file: a configuration error (78), as `config check` reports one.
            throw ExitCode(error.kind == .commandFailed(.failed) ? Status.badConfig : Status.of(error))
        }
    }
}

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a config.toml without a daemon.")
        @Argument(help: "The file to check.", completion: .file(extensions: ["toml"])) var file: String

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try readConfigFile(file) } catch {
                printError("stylusctl: \(file): \(error.errno.reason)")
                throw ExitCode(Status.badConfig)
            }
            do {
                let config = try ConfigParserClient.parse(bytes, file: file)
                emit("\(file): OK (interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms, transition \(config.transitionMS) ms)")
            } catch {
                printError("stylusctl: \(error)")
                throw ExitCode(Status.badConfig)
            }
        }
    }
}

/// config.toml's bytes for `config check` and calibrate, or more than
/// ConfigParserChild.maxBytes of them: ConfigParserClient.parse then refuses the file by its size.
func readConfigFile(_ path: String) throws(SystemCallError) -> [UInt8] {
    let fd = try systemCall("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    return try readToEnd(fd, stoppingAfter: ConfigParserChild.maxBytes, subject: path)
}

struct Completions: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a shell completion script (bash, zsh or fish).")
    @Argument(help: "bash, zsh or fish", completion: .list(CompletionShell.allCases.map(\.rawValue))) var shell: String

    func run() throws {
        guard let kind = CompletionShell(rawValue: shell) else {
            throw ValidationError("shells are bash, zsh and fish, not \"\(shell)\"")
        }
        emit(Stylusctl.completionScript(for: kind))
    }
}
