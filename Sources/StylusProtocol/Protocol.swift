// SPDX-License-Identifier: MIT
import FoundationEssentials
public import StylusCore

/// Protocol v1: newline-delimited JSON over a Unix stream socket.
public enum ProtocolV1 {
    public static let version = 1
    public static let maxLineBytes = 64 * 1024
    /// Requests are flat; anything nested deeper is refused before decoding.
    static let maxNesting = 16

    /// Sorted keys, slashes as they are: every line the daemon writes.
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return e
    }()

    /// Decodes one line (with or without its newline) as `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(line.last == 0x0a ? line.dropLast() : line[...]))
    }
}

/// The one version string of stylusd, stylusctl and the `hello` event.
public enum StylusVersion {
    public static let current = "0.1.0"
}

/// Every subscription a client can ask for, listed once.
public enum Topic: String, CaseIterable, Codable, Sendable {
    case canvas
    case doublePress = "double-press"
    case precision
    case device
    case pen
    /// Every press and release of a side or pad button, with its gap to the
    /// button's previous press: what `stylusctl monitor` and `calibrate` read.
    case button
    /// The daemon's output: which mode runs (observe, filter) and why. Not an
    /// engine event: sent when the mode or the requested mode changes.
    case output
    /// The style the next stroke gets: sent when it changes.
    case tool

    /// What `subscribe` without `topics` means: every topic but the raw
    /// streams (per-sample pen data, every button press), asked for by name.
    public static let defaults: [Topic] = allCases.filter { $0 != .pen && $0 != .button }

    /// Which subscription an engine event belongs to.
    public init(_ event: EngineEvent) {
        switch event {
        case .canvas, .stroke, .canvasFull: self = .canvas
        case .doublePress: self = .doublePress
        case .precision: self = .precision
        case .device: self = .device
        case .proximity: self = .pen
        case .button: self = .button
        case .tool: self = .tool
        }
    }

    /// Which topic an event line belongs to, by its `event` name.
    public init?(eventName: String) {
        switch eventName {
        case "canvas", "stroke", "canvas-full": self = .canvas
        case "double-press": self = .doublePress
        case "precision": self = .precision
        case "device": self = .device
        case "proximity", "pen", "dropped": self = .pen
        case "output": self = .output
        case "button": self = .button
        case "tool": self = .tool
        default: return nil
        }
    }
}

/// Every command of the protocol, listed once: the decoder's error, the
/// `hello` event, stylusctl's subcommands, help texts and completions all
/// derive from this list. Adding a command is a case here, its decoding in
/// `ClientCommand.init(name:fields:)`, and its handler in the daemon.
public enum CommandName: String, CaseIterable, Codable, Sendable {
    case status, toggle, open, minimize, ack, strokes, clear, undo, redo, tool, export, submit, discard, palette, paletteRegions = "palette-regions", precision, subscribe, unsubscribe, devices, reload, output, overlay

    /// The argument a command takes beyond `id` and `cmd`.
    public enum Argument: Sendable, Equatable {
        /// `"action"`: one of `PrecisionRequest`'s values.
        case precisionAction
        /// `"topics"`: an array of `Topic` values (optional).
        case topics
        /// `"mode"`: one of `OutputChoice`'s values.
        case outputMode
        /// `"backend"` and `"outputs"`: an `OverlayReport`.
        case overlayReport
        /// Any of `"tool"`, `"color"`, `"width"` (none: the current style).
        case style
        /// `"path"` (absolute, ending in .png or .svg), optional `"width"` and `"height"`.
        case export
        /// `"action"`: one of `PaletteRequest`'s values.
        case paletteAction
        /// `"regions"`: an array of `PaletteRegion` objects.
        case paletteRegions
    }

    public var argument: Argument? {
        switch self {
        case .precision: .precisionAction
        case .subscribe, .unsubscribe: .topics
        case .output: .outputMode
        case .overlay: .overlayReport
        case .tool: .style
        case .export: .export
        case .palette: .paletteAction
        case .paletteRegions: .paletteRegions
        default: nil
        }
    }

    /// One line for help texts.
    public var summary: String {
        switch self {
        case .status: "Show the canvas, precision and input state."
        case .toggle: "Open the canvas if minimized, minimize it if open."
        case .open: "Open the canvas."
        case .minimize: "Minimize the canvas, keeping its strokes."
        case .ack: "Tell stylusd the overlay finished its transition."
        case .strokes: "Print the canvas's strokes, or draw them into an SVG file."
        case .clear: "Delete every stroke on the canvas."
        case .undo: "Take back the last stroke or clear."
        case .redo: "Take again what undo took back (until the drawing changes otherwise)."
        case .tool: "Show or set the tool, colour and width of the next strokes."
        case .export: "Write the drawing to a PNG (as the canvas draws it) or an SVG file."
        case .submit: "Keep the drawing: save it as a PNG in the export directory, clear, minimize."
        case .discard: "Throw the drawing away: minimize and clear (undo brings it back)."
        case .palette: "Show, hide or toggle the canvas's palette of tools, colours and widths."
        case .paletteRegions: "Tell stylusd where the canvas's palette is (stylus-canvas sends it)."
        case .precision: "Enable, disable or toggle precision mode."
        case .subscribe: "Print events as they happen."
        case .unsubscribe: "Stop receiving events of some topics."
        case .devices: "List the input hardware the daemon sees (its probe)."
        case .reload: "Make the daemon re-read its configuration file."
        case .output: "Switch how pen input reaches the desktop: observe (releases the pen at once), filter or auto."
        case .overlay: "Tell stylusd how the canvas overlay reaches the screen (stylus-canvas sends it; status shows it)."
        }
    }

    /// "status, toggle, …, reload", as error messages list them.
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

public enum ClientCommand: Equatable, Sendable {
    case status, toggle, open, minimize, ack, strokes, clear, undo, redo, devices, reload, submit, discard
    /// The drawing into `path` (PNG or SVG, by its extension), at the given size or the default one.
    case export(path: String, width: Int?, height: Int?)
    /// No change: the current style; else the style with these parts changed.
    case tool(tool: DrawingTool?, color: StrokeColor?, width: Double?)
    case palette(PaletteRequest)
    case paletteRegions([PaletteRegion])
    case precision(PrecisionRequest)
    case subscribe([Topic])
    case unsubscribe([Topic])
    case output(OutputChoice)
    case overlay(OverlayReport)

    public var name: CommandName {
        switch self {
        case .status: .status
        case .toggle: .toggle
        case .open: .open
        case .minimize: .minimize
        case .ack: .ack
        case .strokes: .strokes
        case .clear: .clear
        case .undo: .undo
        case .redo: .redo
        case .tool: .tool
        case .export: .export
        case .submit: .submit
        case .discard: .discard
        case .palette: .palette
        case .paletteRegions: .paletteRegions
        case .devices: .devices
        case .reload: .reload
        case .precision: .precision
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .output: .output
        case .overlay: .overlay
        }
    }

    /// The fields a request carries besides `id` and `cmd`.
    public var fields: [String: JSONValue] {
        switch self {
        case .precision(let request): ["action": .string(request.rawValue)]
        case .palette(let request): ["action": .string(request.rawValue)]
        case .paletteRegions(let regions):
            ["regions": .array(regions.map { r in
                .object(["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height),
                         "select": .string(r.selectionText)])
            })]
        case .subscribe(let topics), .unsubscribe(let topics): ["topics": .array(topics.map { .string($0.rawValue) })]
        case .output(let mode): ["mode": .string(mode.rawValue)]
        case .overlay(let report):
            ["backend": .string(report.backend), "outputs": .number(Double(report.outputs))].merging(
                [("width", report.width), ("height", report.height)].compactMap { k, v in v.map { (k, JSONValue.number(Double($0))) } }) { a, _ in a }
        case .export(let path, let width, let height):
            ["path": .string(path)].merging([("width", width), ("height", height)].compactMap { k, v in v.map { (k, JSONValue.number(Double($0))) } }) { a, _ in a }
        case .tool(let tool, let color, let width):
            [:].merging([("tool", tool.map { JSONValue.string($0.rawValue) }), ("color", color.map { .string($0.hex) }),
                         ("width", width.map { .number($0) })].compactMap { k, v in v.map { (k, $0) } }) { a, _ in a }
        default: [:]
        }
    }

    /// Decodes a command from its name and the request's fields.
    public init(name: CommandName, fields: [String: JSONValue]) throws(ProtocolError) {
        func topics() throws(ProtocolError) -> [Topic] {
            guard let value = fields["topics"] else { return Topic.defaults }
            guard case .array(let items) = value else {
                throw ProtocolError(code: .badRequest, message: "\"topics\" must be an array of strings")
            }
            var result: [Topic] = []
            for item in items {
                guard case .string(let name) = item, let topic = Topic(rawValue: name) else {
                    throw ProtocolError(code: .badRequest, message: "unknown topic \(item); topics are \(Topic.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                result.append(topic)
            }
            return result
        }
        switch name {
        case .status: self = .status
        case .toggle: self = .toggle
        case .open: self = .open
        case .minimize: self = .minimize
        case .ack: self = .ack
        case .strokes: self = .strokes
        case .clear: self = .clear
        case .undo: self = .undo
        case .redo: self = .redo
        case .tool:
            var tool: DrawingTool?, color: StrokeColor?, width: Double?
            if let value = fields["tool"] {
                guard case .string(let name) = value, let t = DrawingTool(rawValue: name) else {
                    throw ProtocolError(code: .badRequest, message: "unknown tool \(Self.quoted(value)); tools are \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tool = t
            }
            if let value = fields["color"] {
                guard case .string(let text) = value, let c = StrokeColor(hex: text) else {
                    throw ProtocolError(code: .badRequest, message: "\"color\" must be #RRGGBB (six hex digits, e.g. \"#3465a4\"), not \(Self.quoted(value))")
                }
                color = c
            }
            if let value = fields["width"] {
                guard case .number(let n) = value, StrokeStyle.widthRange.contains(n) else {
                    throw ProtocolError(code: .badRequest, message: "\"width\" must be a number from \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)) (pixels of a drawing 1600 wide), not \(Self.quoted(value))")
                }
                width = n
            }
            self = .tool(tool: tool, color: color, width: width)
        case .export:
            guard case .string(let path)? = fields["path"] else {
                throw ProtocolError(code: .badRequest, message: "export needs \"path\": an absolute file name ending in .png or .svg")
            }
            guard path.hasPrefix("/"), !path.utf8.contains(0), path.utf8.count < 4096 else {
                throw ProtocolError(code: .badRequest, message: "export's \"path\" must be absolute (the daemon's folder is not the client's), not \"\(path)\"")
            }
            guard ExportFormat(path: path) != nil else {
                throw ProtocolError(code: .badRequest, message: "cannot tell the format of \"\(path)\": export writes a file ending in .png or .svg")
            }
            func side(_ key: String) throws(ProtocolError) -> Int? {
                guard let value = fields[key] else { return nil }
                guard case .number(let n) = value, n == n.rounded(), ExportFormat.sideRange.contains(Int(exactly: n) ?? 0) else {
                    throw ProtocolError(code: .badRequest, message: "\"\(key)\" must be a whole number of pixels from \(ExportFormat.sideRange.lowerBound) to \(ExportFormat.sideRange.upperBound), not \(Self.quoted(value))")
                }
                return Int(n)
            }
            let width = try side("width"), height = try side("height")
            guard (width == nil) == (height == nil) else {
                throw ProtocolError(code: .badRequest, message: "export takes \"width\" and \"height\" together, or neither (the size of the area the tablet maps to)")
            }
            self = .export(path: path, width: width, height: height)
        case .submit: self = .submit
        case .discard: self = .discard
        case .palette:
            guard case .string(let action)? = fields["action"], let request = PaletteRequest(rawValue: action) else {
                throw ProtocolError(code: .badRequest, message: "palette needs \"action\": \"show\", \"hide\" or \"toggle\"\(fields["action"].map { ", not \(Self.quoted($0))" } ?? "")")
            }
            self = .palette(request)
        case .paletteRegions:
            self = .paletteRegions(try Self.paletteRegions(fields["regions"]))
        case .devices: self = .devices
        case .reload: self = .reload
        case .precision:
            guard case .string(let action)? = fields["action"], let request = PrecisionRequest(rawValue: action) else {
                throw ProtocolError(code: .badRequest, message: "precision needs \"action\": \"enable\", \"disable\" or \"toggle\"")
            }
            self = .precision(request)
        case .subscribe: self = .subscribe(try topics())
        case .unsubscribe: self = .unsubscribe(try topics())
        case .output:
            guard case .string(let mode)? = fields["mode"], let choice = OutputChoice(rawValue: mode) else {
                throw ProtocolError(code: .badRequest, message: "output needs \"mode\": \"observe\", \"filter\" or \"auto\"")
            }
            self = .output(choice)
        case .overlay:
            guard case .string(let backend)? = fields["backend"], OverlayReport.isBackendName(backend) else {
                throw ProtocolError(code: .badRequest, message: "overlay needs \"backend\": a name of 1-\(OverlayReport.maxBackendLength) lowercase letters, digits and hyphens (e.g. \"layer-shell\")")
            }
            guard case .number(let n)? = fields["outputs"], n == n.rounded(), (0...Double(OverlayReport.maxOutputs)).contains(n) else {
                throw ProtocolError(code: .badRequest, message: "overlay needs \"outputs\": a whole number from 0 to \(OverlayReport.maxOutputs)")
            }
            var area: [Int] = []
            for key in ["width", "height"] {
                guard let value = fields[key] else { continue }
                guard case .number(let side) = value, side == side.rounded(), let whole = Int(exactly: side), OverlayReport.sideRange.contains(whole) else {
                    throw ProtocolError(code: .badRequest, message: "overlay's \"\(key)\" (the area the tablet maps to) must be a whole number of pixels from 1 to \(OverlayReport.sideRange.upperBound), not \(Self.quoted(value))")
                }
                area.append(whole)
            }
            guard area.count != 1 else {
                throw ProtocolError(code: .badRequest, message: "overlay takes \"width\" and \"height\" together, or neither")
            }
            self = .overlay(OverlayReport(backend: backend, outputs: Int(n), width: area.first, height: area.last))
        }
    }
}

extension ClientCommand {
    /// `palette-regions`'s `regions`, each checked; an error names the first
    /// bad region by its index and field, with the value it had.
    static func paletteRegions(_ value: JSONValue?) throws(ProtocolError) -> [PaletteRegion] {
        func bad(_ message: String) -> ProtocolError { ProtocolError(code: .badRequest, message: message) }
        guard case .array(let items)? = value else {
            throw bad("palette-regions needs \"regions\": an array of up to \(PaletteRegion.maxCount) objects with x, y, width, height (the tablet's normalised coordinates, 0-1) and select (tool:NAME, color:#RRGGBB, width:+ or width:-); [] for no palette\(value.map { ", not \(quoted($0))" } ?? "")")
        }
        guard items.count <= PaletteRegion.maxCount else {
            throw bad("\"regions\" holds \(items.count) regions; at most \(PaletteRegion.maxCount)")
        }
        let fieldNames = ["x", "y", "width", "height", "select"]
        var regions: [PaletteRegion] = []
        for (i, item) in items.enumerated() {
            guard case .object(let region) = item else { throw bad("regions[\(i)] must be an object, not \(quoted(item))") }
            if let unknown = region.keys.sorted().first(where: { !fieldNames.contains($0) }) {
                throw bad("regions[\(i)] has an unknown field \"\(unknown)\"; its fields are \(fieldNames.joined(separator: ", "))")
            }
            var numbers: [Double] = []
            for name in fieldNames.dropLast() {
                let isSize = name == "width" || name == "height"
                guard case .number(let n)? = region[name], n.isFinite, isSize ? (n > 0 && n <= 1) : (0...1).contains(n) else {
                    let range = isSize ? "above 0 and at most 1" : "from 0 to 1"
                    throw bad("regions[\(i)].\(name) must be a number \(range) (the tablet's normalised coordinates), \(region[name].map { "not \(quoted($0))" } ?? "and is missing")")
                }
                numbers.append(n)
            }
            let (x, y, width, height) = (numbers[0], numbers[1], numbers[2], numbers[3])
            // A little slack: the canvas converts from pixels, and a right edge may round past 1.
            if x + width > 1.000001 { throw bad("regions[\(i)] reaches past the tablet's right edge: x \(quoted(.number(x))) + width \(quoted(.number(width))) is more than 1") }
            if y + height > 1.000001 { throw bad("regions[\(i)] reaches past the tablet's bottom edge: y \(quoted(.number(y))) + height \(quoted(.number(height))) is more than 1") }
            guard case .string(let text)? = region["select"] else {
                throw bad("regions[\(i)].select must be a string: tool:NAME, color:#RRGGBB, width:+ or width:-, \(region["select"].map { "not \(quoted($0))" } ?? "and is missing")")
            }
            switch PaletteRegion.selection(text) {
            case .success(let selection): regions.append(PaletteRegion(x: x, y: y, width: width, height: height, selection: selection))
            case .failure(let error): throw bad("regions[\(i)].select: \(error.message)")
            }
        }
        return regions
    }

    /// A request's value as its JSON reads, for an error that names it: "brush" with its quotes, 0, 10000, 2.5.
    static func quoted(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// What `export` writes, by the file name's extension (any case).
public enum ExportFormat: String, Sendable, CaseIterable {
    case png, svg

    /// A side of an exported picture, in pixels. The renderer holds its layers, the
    /// picture and its encoding at once, several times the picture's own 4 bytes a
    /// pixel: at 4096 × 4096 (64 MiB of pixels) under half a GiB, which a local client
    /// may ask of it; a larger canvas is scaled down to fit.
    public static let sideRange = 1...4096

    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Codable, Sendable {
        case badJSON = "bad-json"
        case badRequest = "bad-request"
        case unknownCommand = "unknown-command"
        case lineTooLong = "line-too-long"
        case refused
        case failed
    }
    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// A request that could not be decoded; the id goes with the error when it could be read.
public struct RequestFailure: Error, Equatable, Sendable {
    public var id: JSONValue
    public var error: ProtocolError
}

public struct Request: Equatable, Sendable {
    public var id: JSONValue
    public var command: ClientCommand

    public init(id: JSONValue, command: ClientCommand) {
        self.id = id
        self.command = command
    }
}

extension Request {
    /// The request as one line, keys sorted: what a client sends.
    public var line: [UInt8] {
        var object = command.fields
        object["id"] = id
        object["cmd"] = .string(command.name.rawValue)
        return Response.line(JSONValue.object(object))
    }

    /// Decodes one line (without its newline). On failure, the id (when it
    /// could be read) goes with the error so the response can carry it.
    public static func decode(_ line: [UInt8]) -> Result<Request, RequestFailure> {
        func bad(_ code: ProtocolError.Code, _ message: String, id: JSONValue = .null) -> Result<Request, RequestFailure> {
            .failure(RequestFailure(id: id, error: ProtocolError(code: code, message: message)))
        }
        if let depth = nestingExceeds(line, ProtocolV1.maxNesting) {
            return bad(.badJSON, "nested deeper than \(ProtocolV1.maxNesting) levels (at byte \(depth))")
        }
        let object: [String: JSONValue]
        do throws(JSONParser.Failure) {
            let value = try JSONParser.parse(line, maxDepth: ProtocolV1.maxNesting)
            guard case .object(let o) = value else { return bad(.badRequest, "a request is a JSON object, not \(value.typeName)") }
            object = o
        } catch {
            return bad(.badJSON, "not valid JSON (or not UTF-8): \(error.reason) at byte \(error.offset)")
        }
        let id = object["id"] ?? .null
        guard let cmdValue = object["cmd"] else { return bad(.badRequest, "missing \"cmd\"", id: id) }
        guard case .string(let cmd) = cmdValue else { return bad(.badRequest, "\"cmd\" must be a string, not \(cmdValue.typeName)", id: id) }
        guard let name = CommandName(rawValue: cmd) else {
            return bad(.unknownCommand, "unknown command \"\(cmd)\"; commands are \(CommandName.list)", id: id)
        }
        do {
            return .success(Request(id: id, command: try ClientCommand(name: name, fields: object)))
        } catch {
            return .failure(RequestFailure(id: id, error: error))
        }
    }

    /// The byte offset where nesting first exceeds `limit`, outside strings.
    static func nestingExceeds(_ bytes: [UInt8], _ limit: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for (i, b) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if b == 0x5c { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x5b, 0x7b:
                depth += 1
                if depth > limit { return i }
            case 0x5d, 0x7d: depth -= 1
            default: break
            }
        }
        return nil
    }
}

/// Responses: `{"id":…,"ok":true,"result":…}` or `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
public enum Response {
    struct Success<R: Encodable>: Encodable {
        var id: JSONValue
        var ok = true
        var result: R
    }

    struct Failure: Encodable {
        var id: JSONValue
        var ok = false
        var error: ErrorBody
    }

    struct ErrorBody: Codable {
        var code: String
        var message: String
    }

    public static func success<R: Encodable>(id: JSONValue, _ result: R) -> [UInt8] {
        line(Success(id: id, result: result))
    }

    /// A result encoded once and answered many times (`devices` between
    /// two probes): the same bytes `success(id:_:)` gives, without encoding
    /// the result again. Keys are sorted, so `id` and `ok` come first.
    public static func success(id: JSONValue, encodedResult: EncodedResult) -> [UInt8] {
        var bytes = Array(#"{"id":"#.utf8)
        // By hand for the ids clients send (numbers, strings): through JSONEncoder
        // this was a twentieth of the loop's time under a flood (docs/SECURITY.md).
        var scalar = NestedJSONWriter()
        if scalar.scalar(id) {
            bytes += scalar.bytes
        } else {
            bytes += (try? Array(ProtocolV1.encoder.encode(id))) ?? Array("null".utf8)
        }
        bytes += Array(#","ok":true,"result":"#.utf8)
        bytes += encodedResult.bytes
        bytes += Array("}\n".utf8)
        return bytes
    }

    /// A result's JSON, kept to be answered again.
    public struct EncodedResult: Sendable {
        public let bytes: [UInt8]
        public init<R: Encodable>(_ result: R) {
            bytes = (try? Array(ProtocolV1.encoder.encode(result))) ?? Array("{}".utf8)
        }
    }

    public static func failure(id: JSONValue, _ error: ProtocolError) -> [UInt8] {
        line(Failure(id: id, error: .init(code: error.code.rawValue, message: error.message)))
    }

    /// One JSON line (with its newline) for any value: responses, `hello`, requests.
    public static func line<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding these plain structs cannot fail; a bug would show as an empty object.
        var bytes = (try? Array(ProtocolV1.encoder.encode(value))) ?? Array("{}".utf8)
        bytes.append(0x0a)
        return bytes
    }
}

/// One line from the daemon, as a client reads it: an event or a response.
public enum ServerLine: Sendable {
    case event(EventLine)
    case response(ResponseLine)

    /// Decodes one line (with or without its newline).
    public static func decode(_ raw: [UInt8]) -> ServerLine? {
        let body = raw.last == 0x0a ? Array(raw.dropLast()) : raw
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)), case .object(let object) = value else {
            return nil
        }
        if case .string(let name)? = object["event"] {
            return .event(EventLine(name: name, fields: object, raw: body + [0x0a]))
        }
        return .response(ResponseLine(id: object["id"] ?? .null, ok: object["ok"] == .bool(true), raw: body))
    }
}

/// An event as the daemon sent it: its name, its fields, and the exact line.
public struct EventLine: Equatable, Sendable {
    public var name: String
    /// Every field, `event` and `time_us` included.
    public var fields: [String: JSONValue]
    /// The line exactly as received, with its newline.
    public var raw: [UInt8]

    public var topic: Topic? { Topic(eventName: name) }
    /// A string field, e.g. a canvas event's `state`.
    public func string(_ key: String) -> String? { if case .string(let s)? = fields[key] { s } else { nil } }
    public var time: Int64? { if case .number(let n)? = fields["time_us"] { Int64(n) } else { nil } }
}

/// A response, whose result is decoded into the type the caller expects.
public struct ResponseLine: Equatable, Sendable {
    public var id: JSONValue
    public var ok: Bool
    var raw: [UInt8]

    private struct Envelope<R: Decodable>: Decodable {
        var result: R?
        var error: Response.ErrorBody?
    }

    /// The result as `R`, or the daemon's error.
    public func result<R: Decodable>(as type: R.Type = R.self) throws(ProtocolError) -> R {
        let envelope: Envelope<R>
        do {
            envelope = try ProtocolV1.decode(Envelope<R>.self, from: raw)
        } catch {
            throw ProtocolError(code: .badJSON, message: "the daemon's answer does not match \(R.self): \(error)")
        }
        if ok, let result = envelope.result { return result }
        if !ok, let body = envelope.error {
            throw ProtocolError(code: ProtocolError.Code(rawValue: body.code) ?? .failed, message: body.message)
        }
        throw ProtocolError(code: .badJSON, message: "the daemon's answer has neither a result nor an error")
    }
}
