// SPDX-License-Identifier: MIT
import StylusCore

extension ClientCommand {
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
        case .strokes:
            switch fields["from"] {
            case nil: self = .strokes
            case .number(let n)? where n >= 0 && n <= Double(Int32.max) && n == n.rounded(): self = .strokesFrom(Int(n))
            case let value?:
                throw ProtocolError(code: .badRequest, message: "\"from\" is a stroke's index, a whole number from 0, not \(Self.quoted(value))")
            }
        case .clear: self = .clear
        case .undo: self = .undo
        case .redo: self = .redo
        case .tool:
            // Each field read as a binding's tool:, color: or width: would be; a step
            // (previous, next, + or -) changes from the current style, so it comes alone.
            var pen: String?
            if let value = fields["pen"] {
                guard case .string(let name) = value, !name.isEmpty else {
                    throw ProtocolError(code: .badRequest, message: "\"pen\" must be a pen's name or serial (\"0x…\"; `pens` lists them), not \(Self.quoted(value))")
                }
                pen = name
            }
            var requests: [(field: String, request: StyleRequest)] = []
            for argument in StyleArgument.allCases {
                guard let value = fields[argument.rawValue] else { continue }
                switch (argument, value) {
                case (.width, .number(let n)) where StrokeStyle.widthRange.contains(n):
                    requests.append((argument.rawValue, .set(tool: nil, color: nil, width: n)))
                case (_, .string(let text)):
                    switch argument.parse(text) {
                    case .success(let request): requests.append((argument.rawValue, request))
                    case .failure(let error) where argument == .color:
                        throw ProtocolError(code: .badRequest, message: "\"color\": \(error.message)")
                    case .failure: throw ProtocolError(code: .badRequest, message: Self.badStyleValue(argument, value))
                    }
                default: throw ProtocolError(code: .badRequest, message: Self.badStyleValue(argument, value))
                }
            }
            var tool: DrawingTool?, color: StrokeColor?, width: Double?
            for (field, request) in requests {
                switch request {
                case .set(let t, let c, let w): (tool, color, width) = (t ?? tool, c ?? color, w ?? width)
                default:
                    guard requests.count == 1 else {
                        throw ProtocolError(code: .badRequest, message: "\"\(field)\": \(Self.quoted(fields[field]!)) is a step from the current style; send it without \(requests.filter { $0.field != field }.map { "\"\($0.field)\"" }.joined(separator: " and "))")
                    }
                    self = .styleStep(request, pen: pen)
                    return
                }
            }
            self = .tool(tool: tool, color: color, width: width, pen: pen)
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
        case .submit: self = try SubmitOptions.decode(fields).map(ClientCommand.submitWith) ?? .submit
        case .discard: self = .discard
        case .palette:
            guard case .string(let action)? = fields["action"], let request = PaletteRequest(rawValue: action) else {
                throw ProtocolError(code: .badRequest, message: "palette needs \"action\": \"show\", \"hide\" or \"toggle\"\(fields["action"].map { ", not \(Self.quoted($0))" } ?? "")")
            }
            self = .palette(request)
        case .paletteRegions:
            self = .paletteRegions(try Self.paletteRegions(fields["regions"]))
        case .devices: self = .devices
        case .pens: self = .pens
        case .reload: self = .reload
        case .precision:
            guard case .string(let action)? = fields["action"], let request = PrecisionRequest(rawValue: action) else {
                throw ProtocolError(code: .badRequest, message: "precision needs \"action\": \"enable\", \"disable\" or \"toggle\"")
            }
            self = .precision(request)
        case .background:
            guard let value = fields["background"] else {
                self = .background(nil)
                return
            }
            guard case .string(let name) = value, let request = BackgroundRequest(name: name) else {
                throw ProtocolError(code: .badRequest, message: "unknown background \(Self.quoted(value)); use \(CanvasBackground.spellings), or next")
            }
            self = .background(request)
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
            var versions: [String?] = []
            for key in ["variant", "shell"] {
                guard let value = fields[key] else { versions.append(nil); continue }
                guard case .string(let text) = value, OverlayReport.isVersion(text) else {
                    throw ProtocolError(code: .badRequest, message: "overlay's \"\(key)\" must be a version: 1-\(OverlayReport.maxVersionLength) digits and dots (e.g. \"48.7\"), not \(Self.quoted(value))")
                }
                versions.append(text)
            }
            self = .overlay(OverlayReport(backend: backend, outputs: Int(n), width: area.first, height: area.last, variant: versions[0], shell: versions[1]))
        case .key:
            self = .key(try Self.canvasKey(fields["key"]))
        case .draw: self = .draw(try Self.draw(fields))
        case .text: self = .text(try Self.text(fields))
        case .snapshot:
            var path: String?
            if let value = fields["path"] {
                guard case .string(let p) = value, p.hasPrefix("/"), !p.utf8.contains(0), p.utf8.count < 4096, ExportFormat(path: p) == .png else {
                    throw ProtocolError(code: .badRequest, message: "snapshot's \"path\" must be an absolute file name ending in .png, not \(Self.quoted(value))")
                }
                path = p
            }
            var monitor: String?
            if let value = fields["monitor"] {
                guard case .string(let m) = value, !m.isEmpty, m.utf8.count <= 64 else {
                    throw ProtocolError(code: .badRequest, message: "snapshot's \"monitor\" must be a monitor's connector name (e.g. \"HDMI-1\"), not \(Self.quoted(value))")
                }
                monitor = m
            }
            self = .snapshot(path: path, monitor: monitor)
        case .copy:
            switch fields["what"] {
            case nil, .string("drawing")?: self = .copy(snapshot: false)
            case .string("snapshot")?: self = .copy(snapshot: true)
            case let value?: throw ProtocolError(code: .badRequest, message: "copy's \"what\" is \"drawing\" or \"snapshot\", not \(Self.quoted(value))")
            }
        case .shared: self = .shared(try ShareReply.decode(fields))
        }
    }

    /// What the `tool` command's field takes, and the value it was sent.
    static func badStyleValue(_ argument: StyleArgument, _ value: JSONValue) -> String {
        switch argument {
        case .tool: "unknown tool \(quoted(value)); tools are \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")), or \"previous\""
        case .color: "\"color\" must be a CSS colour name, #RGB or #RRGGBB (a string, e.g. \"crimson\" or \"#3465a4\"), or \"next\" or \"previous\", not \(quoted(value))"
        case .width: "\"width\" must be a number from \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)) (pixels of a drawing 1600 wide), or \"+\" or \"-\", not \(quoted(value))"
        }
    }

    /// `palette-regions`'s `regions`, each checked; an error names the first
    /// bad region by its index and field, with the value it had.
    static func paletteRegions(_ value: JSONValue?) throws(ProtocolError) -> [PaletteRegion] {
        func bad(_ message: String) -> ProtocolError { ProtocolError(code: .badRequest, message: message) }
        guard case .array(let items)? = value else {
            throw bad("palette-regions needs \"regions\": an array of up to \(PaletteRegion.maxCount) objects with x, y, width, height (the tablet's normalised coordinates, 0-1) and select (tool:NAME, color:#RRGGBB, width:+, width:- or background:next); [] for no palette\(value.map { ", not \(quoted($0))" } ?? "")")
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
                throw bad("regions[\(i)].select must be a string: tool:NAME, color:#RRGGBB, width:+, width:- or background:next, \(region["select"].map { "not \(quoted($0))" } ?? "and is missing")")
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
