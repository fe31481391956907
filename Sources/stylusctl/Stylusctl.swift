import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

@main
struct Stylusctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusctl",
        abstract: "Control and watch a running stylusd.",
        discussion: """
            Exit status: 0 on success, \(Status.notRunning) when stylusd is not running, \(Status.refused) when it refused \
            the command, \(Status.protocolError) when its answer made no sense, \(Status.badConfig) when `config check` \
            finds a problem.
            """,
        version: "0.1.0",
        subcommands: [StatusCommand.self, Toggle.self, Open.self, Minimize.self, Ack.self, Clear.self, PrecisionCommand.self,
                      Watch.self, Devices.self, Strokes.self, Reload.self, Config.self, Completions.self, ParseConfigChild.self]
    )
}

struct SocketOption: ParsableArguments {
    @Option(help: "The daemon's socket (default: $STYLUSD_SOCKET, else $XDG_RUNTIME_DIR/stylusd/stylusd.sock).")
    var socket: String?
}

/// Runs `body`, turning failures into a message on stderr and the exit status.
func client(_ body: () throws(ClientFailure) -> Void) throws {
    do {
        try body()
    } catch {
        printError("stylusctl: \(error.message)")
        throw ExitCode(error.status)
    }
}

func printError(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    _ = write(STDERR_FILENO, "\n", 1)
}

/// Writes at once with write(2), so each line reaches a pipe or a file the moment it is known.
func emit(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if n <= 0 {
            if errno == EINTR { continue }
            exit(errno == EPIPE ? 0 : 1)
        }
        offset += n
    }
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
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
    var array: [JSONValue] { if case .array(let a) = self { a } else { [] } }
    var int: Int { Int(number ?? 0) }
}

/// `status` and every state-changing command print the same summary.
func describeStatus(_ r: JSONValue) -> String {
    let canvas = r["canvas"] ?? .null, precision = r["precision"] ?? .null, input = r["input"] ?? .null, config = r["config"] ?? .null
    var lines: [String] = []
    if r["changed"]?.bool == false, let reason = r["reason"]?.string { lines.append("unchanged: \(reason)") }
    lines.append("canvas     \(canvas["state"]?.string ?? "?") (\(canvas["stroke_count"]?.int ?? 0) strokes, \(canvas["point_count"]?.int ?? 0) points\(canvas["full"]?.bool == true ? ", full" : ""))")
    lines.append("precision  \(precision["enabled"]?.bool == true ? "enabled" : "disabled"), \(precision["active"]?.bool == true ? "active" : "inactive")")
    let devices = input["devices"]?.array ?? []
    if input["mode"]?.string == "pen" {
        lines.append("input      pen: " + devices.map { "\($0["name"]?.string ?? "?") [\($0["kind"]?.string ?? "?")]" }.joined(separator: ", "))
    } else {
        lines.append("input      button-only" + (input["reason"]?.string.map { ": \($0)" } ?? ""))
    }
    lines.append("config     interval \(config["interval_ms"]?.int ?? 0) ms, debounce \(config["debounce_ms"]?.int ?? 0) ms, transition \(config["transition_ms"]?.int ?? 0) ms")
    return lines.joined(separator: "\n")
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the canvas, precision and input state.")
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(ClientFailure) in
            let result = try Connection(socket: socket.socket).request("status")
            emit(json ? stylusctl.json(result) : describeStatus(result))
        }
    }
}

/// toggle, open, minimize, ack and clear differ only in the command name.
protocol SimpleCommand: ParsableCommand {
    static var command: String { get }
    var socket: SocketOption { get }
    var json: Bool { get }
}

extension SimpleCommand {
    func run() throws {
        try client { () throws(ClientFailure) in
            let result = try Connection(socket: socket.socket).request(Self.command)
            emit(json ? stylusctl.json(result) : describeStatus(result))
        }
    }
}

struct Toggle: SimpleCommand {
    static let configuration = CommandConfiguration(abstract: "Open the canvas if minimized, minimize it if open.")
    static let command = "toggle"
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false
}

struct Open: SimpleCommand {
    static let configuration = CommandConfiguration(abstract: "Open the canvas.")
    static let command = "open"
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false
}

struct Minimize: SimpleCommand {
    static let configuration = CommandConfiguration(abstract: "Minimize the canvas, keeping its strokes.")
    static let command = "minimize"
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false
}

struct Ack: SimpleCommand {
    static let configuration = CommandConfiguration(abstract: "Tell stylusd the overlay finished its transition.")
    static let command = "ack"
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false
}

struct Clear: SimpleCommand {
    static let configuration = CommandConfiguration(abstract: "Delete every stroke on the canvas.")
    static let command = "clear"
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false
}

struct PrecisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "precision", abstract: "Enable, disable or toggle precision mode.")
    @Argument(help: "enable, disable or toggle") var action: String
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        guard PrecisionRequest(rawValue: action) != nil else { throw ValidationError("the action is enable, disable or toggle, not \"\(action)\"") }
    }

    func run() throws {
        try client { () throws(ClientFailure) in
            let result = try Connection(socket: socket.socket).request("precision", ["action": .string(action)])
            emit(json ? stylusctl.json(result) : describeStatus(result))
        }
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print events as they happen.",
        discussion: "Topics: canvas, double-press, precision, device, pen (per-sample pen data). Default: every topic but pen.")
    @Argument(help: "Topics to follow.") var topics: [String] = []
    @OptionGroup var socket: SocketOption
    @Flag(help: "One JSON object per line, exactly as the daemon sends them.") var json = false

    func validate() throws {
        let known = ["canvas", "double-press", "precision", "device", "pen"]
        for t in topics where !known.contains(t) {
            throw ValidationError("unknown topic \"\(t)\"; topics are \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        try client { () throws(ClientFailure) in
            let connection = try Connection(socket: socket.socket)
            let json = self.json
            let show: ([UInt8], JSONValue) -> Void = { raw, value in
                if json { emit(raw) } else { emit(Self.describe(value)) }
            }
            var fields: [String: JSONValue] = [:]
            if !topics.isEmpty { fields["topics"] = .array(topics.map { .string($0) }) }
            _ = try connection.request("subscribe", fields, onEvent: show)
            while let (raw, value) = try connection.readRawLine() {
                if value["event"] != nil { show(raw, value) }
            }
            throw ClientFailure(status: Status.notRunning, message: "stylusd closed the connection (it stopped)")
        }
    }

    /// "12:34:56.789 canvas state=open source=pen …": the event name, then its fields.
    static func describe(_ value: JSONValue) -> String {
        guard case .object(let o) = value else { return stylusctl.json(value) }
        var parts: [String] = []
        if let t = o["time_us"]?.number {
            let micros = Int64(t)
            let seconds = micros / 1_000_000
            let ms = (micros % 1_000_000) / 1000
            parts.append("\(seconds).\(String(1000 + ms).dropFirst())")
        }
        parts.append(o["event"]?.string ?? "?")
        for key in o.keys.sorted() where key != "event" && key != "time_us" {
            let v = o[key]!
            parts.append("\(key)=\(v.string ?? stylusctl.json(v))")
        }
        return parts.joined(separator: " ")
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the input hardware the daemon sees (its probe).")
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(ClientFailure) in
            let result = try Connection(socket: socket.socket).request("devices")
            if json { return emit(stylusctl.json(result)) }
            for node in result["nodes"]?.array ?? [] {
                var line = "\(node["path"]?.string ?? "?")  \(node["name"]?.string ?? "?")  \(node["kind"]?.string ?? "?")"
                if let error = node["error"]?.string { line += ": \(error)" }
                if let pen = node["pen"] {
                    line += ": " + (pen["side_buttons"]?.array.compactMap(\.string).joined(separator: " ") ?? "")
                    if pen["display"]?.bool == true { line += ", pen display" }
                }
                emit(line)
            }
            if let reason = result["button_only_reason"]?.string { emit("no pen: \(reason)") }
        }
    }
}

struct Strokes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the canvas's strokes, or draw them into an SVG file.")
    @Option(help: "Write an SVG drawing here; each segment is as wide as its pressure.") var svg: String?
    @OptionGroup var socket: SocketOption

    func run() throws {
        try client { () throws(ClientFailure) in
            let result = try Connection(socket: socket.socket).request("strokes")
            guard let svg else { return emit(stylusctl.json(result)) }
            let document = Self.svg(result["strokes"]?.array ?? [])
            let fd = open(svg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw ClientFailure(status: 1, message: "\(svg): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            let bytes = Array(document.utf8)
            guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
                throw ClientFailure(status: 1, message: "\(svg): \(String(cString: strerror(errno)))")
            }
            emit("\(svg): \(result["strokes"]?.array.count ?? 0) strokes")
        }
    }

    /// 1600 × 1000 user units for the unit square of the tablet; widths 0.5–8 by pressure.
    static func svg(_ strokes: [JSONValue]) -> String {
        let width = 1600.0, height = 1000.0
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g stroke=\"black\" stroke-linecap=\"round\" fill=\"none\">\n"
        func r(_ v: Double) -> String { String((v * 10).rounded() / 10) }
        for stroke in strokes {
            let points = stroke["points"]?.array.map { $0.array.compactMap(\.number) } ?? []
            for (a, b) in zip(points, points.dropFirst()) where a.count >= 3 && b.count >= 3 {
                let w = 0.5 + 7.5 * max(0, min(1, (a[2] + b[2]) / 2))
                out += "<line x1=\"\(r(a[0] * width))\" y1=\"\(r(a[1] * height))\" x2=\"\(r(b[0] * width))\" y2=\"\(r(b[1] * height))\" stroke-width=\"\(r(w))\"/>\n"
            }
        }
        return out + "</g>\n</svg>\n"
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make the daemon re-read its configuration file.")
    @OptionGroup var socket: SocketOption

    func run() throws {
        try client { () throws(ClientFailure) in
            emit(describeStatus(try Connection(socket: socket.socket).request("reload")))
        }
    }
}

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a config.toml without a daemon.")
        @Argument(help: "The file to check.") var file: String

        func run() throws {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                printError("stylusctl: \(file): \(String(cString: strerror(errno)))")
                throw ExitCode(Status.badConfig)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n <= 0 { break }
                bytes += chunk[0..<n]
                if bytes.count > ConfigFile.maxBytes { break }   // parseIsolated refuses it
            }
            close(fd)
            do {
                let config = try ConfigFile.parseIsolated(bytes, file: file)
                emit("\(file): OK (interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms, transition \(config.transitionMS) ms)")
            } catch {
                printError("stylusctl: \(error)")
                throw ExitCode(Status.badConfig)
            }
        }
    }
}

struct Completions: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a shell completion script (bash, zsh or fish).")
    @Argument(help: "bash, zsh or fish") var shell: String

    func run() throws {
        guard let kind = CompletionShell(rawValue: shell) else {
            throw ValidationError("shells are bash, zsh and fish, not \"\(shell)\"")
        }
        emit(Stylusctl.completionScript(for: kind))
    }
}
