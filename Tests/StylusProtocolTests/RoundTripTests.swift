// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusProtocol

@Suite("Protocol v1 types both ways")
struct RoundTripTests {
    static let status = StatusResult(
        canvas: .init(state: "open", hasContent: true, strokeCount: 2, pointCount: 40, full: false),
        precision: .init(enabled: true, active: false),
        input: .init(mode: "pen", reason: nil, devices: [.init(device: 1, name: "Wacom DTH2242 Pen", kind: "pen")]),
        config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250),
        changed: false, reason: "canvas is already open")

    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try ProtocolV1.decode(T.self, from: Response.line(value))
    }

    @Test func everyResultTypeDecodesBackToItself() throws {
        #expect(try Self.roundTrip(Self.status) == Self.status)
        let bare = StatusResult(canvas: Self.status.canvas, precision: Self.status.precision,
                                input: .init(mode: "button-only", reason: "no pen", devices: []), config: Self.status.config)
        #expect(try Self.roundTrip(bare) == bare)
        let point = StrokePoint(x: 0.591778, y: 0.5762256, pressure: 0.2765022, tiltX: -64, tiltY: 17.5, time: 4_178_956_257)
        let strokes = StrokesResult(canvas: "open", strokes: [.init(device: 1, tool: "pen", points: [.init(point), .init(point)])])
        #expect(try Self.roundTrip(strokes) == strokes)
        #expect(try Self.roundTrip(TopicsResult(topics: ["canvas", "pen"])) == TopicsResult(topics: ["canvas", "pen"]))
        #expect(try Self.roundTrip(HelloEvent(pid: 42)) == HelloEvent(pid: 42))
        let devices = DevicesResult(nodes: [
            .init(path: "/dev/input/event3", name: "Wacom Pen", id: "056a:00b9", kind: .pen,
                  pen: .init(pressureLevels: 2048, sideButtons: ["BTN_STYLUS"], eraser: true, tilt: true, distance: true, display: false,
                             libwacomModel: "Intuos4", libwacomStylusButtons: 2, notes: ["a note"])),
            .init(path: "/dev/input/event4", name: "Pad", kind: .pad, pad: .init(buttons: 9)),
            .init(path: "/dev/input/event5", name: "?", kind: .unreadable, error: "Permission denied", looksLikePen: true),
        ], buttonOnlyReason: nil)
        #expect(try Self.roundTrip(devices) == devices)
    }

    @Test func theWireShapesAreTheDocumentedOnes() {
        let status = String(decoding: Response.success(id: .number(8), Self.status), as: UTF8.self)
        #expect(status == #"{"id":8,"ok":true,"result":{"canvas":{"full":false,"has_content":true,"point_count":40,"state":"open","stroke_count":2},"changed":false,"config":{"debounce_ms":25,"interval_ms":500,"transition_ms":250},"input":{"devices":[{"device":1,"kind":"pen","name":"Wacom DTH2242 Pen"}],"mode":"pen"},"precision":{"active":false,"enabled":true},"protocol":1,"reason":"canvas is already open"}}"# + "\n")
        let devices = String(decoding: Response.line(DevicesResult(nodes: [.init(path: "/dev/input/event5", name: "?", kind: .unreadable, error: "no", looksLikePen: true)], buttonOnlyReason: "no readable pen")), as: UTF8.self)
        #expect(devices == #"{"button_only_reason":"no readable pen","nodes":[{"error":"no","kind":"unreadable","looks_like_pen":true,"name":"?","path":"/dev/input/event5"}]}"# + "\n")
        let hello = String(decoding: Response.line(HelloEvent(version: "0.1.0", pid: 7)), as: UTF8.self)
        #expect(hello == #"{"actions":["toggle-canvas","toggle-precision","undo","redo","clear-canvas","open-canvas","minimize-canvas","submit","discard","snapshot","copy","tool:TOOL","color:COLOR","width:STEP","background:BOARD","palette","preset:NAME","exec:COMMAND","key:KEYS","click:BUTTON","none"],"commands":["status","toggle","open","minimize","ack","strokes","clear","undo","redo","tool","export","submit","discard","palette","palette-regions","precision","background","subscribe","unsubscribe","devices","reload","output","overlay","key","draw","pens","snapshot","copy","shared","text"],"daemon":"stylusd","event":"hello","pid":7,"protocol":1,"topics":["canvas","double-press","precision","device","pen","button","output","tool"],"version":"0.1.0"}"# + "\n")
    }

    @Test(arguments: CommandName.allCases)
    func everyCommandNameDecodes(name: CommandName) throws {
        let fields: [String: JSONValue] = switch name.argument {
        case .precisionAction: ["action": .string("toggle")]
        case .outputMode: ["mode": .string("observe")]
        case .overlayReport: ["backend": .string("layer-shell"), "outputs": .number(2)]
        case .style: ["tool": .string("highlighter"), "color": .string("#edd400"), "width": .number(12)]
        case .export: ["path": .string("/tmp/drawing.png"), "width": .number(800), "height": .number(600)]
        case .paletteAction: ["action": .string("show")]
        case .background: ["background": .string("grid")]
        case .paletteRegions: ["regions": .array([.object(["x": .number(0), "y": .number(0.9), "width": .number(0.05), "height": .number(0.1),
                                                           "select": .string("color:#3465a4")])])]
        case .keyName: ["key": .string("ctrl+shift+z")]
        case .draw: ["source": .string("pointer"), "phase": .string("down"), "points": .array([.array([.number(0.5), .number(0.5), .number(0.25)])]),
                     "aspect": .number(0.5625)]
        case .snapshot: ["path": .string("/tmp/screen.png"), "monitor": .string("HDMI-1")]
        case .copy: ["what": .string("snapshot")]
        case .text: ["text": .string("Hi <there>\nline 2"), "x": .number(0.25), "y": .number(0.5), "size": .number(30), "color": .string("#3465a4")]
        case .shared: ["request": .number(3), "path": .string("/tmp/screen.png"), "width": .number(1280), "height": .number(800), "scene": .string("screen")]
        case .topics, nil: [:]
        }
        let command = try ClientCommand(name: name, fields: fields)
        #expect(command.name == name)
        let line = Request(id: .string("x/1"), command: command).line
        #expect(line.last == 0x0a)
        #expect(try Request.decode(Array(line.dropLast())).get() == Request(id: .string("x/1"), command: command),
                "a request a client encodes is the request the daemon decodes")
    }

    @Test func commandsAndTopicsAreListedOnce() {
        #expect(CommandName.list == "status, toggle, open, minimize, ack, strokes, clear, undo, redo, tool, export, submit, discard, palette, palette-regions, precision, background, subscribe, unsubscribe, devices, reload, output, overlay, key, draw, pens, snapshot, copy, shared, text")
        #expect(HelloEvent(pid: 1).commands == CommandName.allCases.map(\.rawValue))
        #expect(HelloEvent(pid: 1).topics == Topic.allCases.map(\.rawValue))
        #expect(HelloEvent(pid: 1).topics.contains("button"))
        #expect(Topic(eventName: "button") == .button)
        #expect(!Topic.defaults.contains(.button), "a raw stream, asked for by name like pen")
        #expect(Set(CommandName.allCases.map(\.summary)).count == CommandName.allCases.count, "every command has its own summary")
        guard case .failure(let f) = Request.decode(Array(#"{"cmd":"fly"}"#.utf8)) else {
            Issue.record("accepted fly")
            return
        }
        #expect(f.error.message.hasSuffix("commands are " + CommandName.list))
    }

    @Test func serverLinesAreEventsOrResponses() throws {
        guard case .event(let event)? = ServerLine.decode(Array(#"{"event":"canvas","state":"open","time_us":1500000}"#.utf8) + [0x0a]) else {
            Issue.record("not an event")
            return
        }
        #expect(event.name == "canvas" && event.topic == .canvas && event.time == 1_500_000)
        #expect(event.raw == Array(#"{"event":"canvas","state":"open","time_us":1500000}"#.utf8) + [0x0a], "the exact line")
        guard case .response(let ok)? = ServerLine.decode(Response.success(id: .number(3), TopicsResult(topics: ["canvas"]))) else {
            Issue.record("not a response")
            return
        }
        #expect(ok.id == .number(3) && ok.ok)
        #expect(try ok.result(as: TopicsResult.self).known == [.canvas])
        guard case .response(let bad)? = ServerLine.decode(Response.failure(id: .number(4), ProtocolError(code: .refused, message: "busy"))) else {
            Issue.record("not a response")
            return
        }
        #expect(throws: ProtocolError(code: .refused, message: "busy")) { try bad.result(as: StatusResult.self) }
        #expect(ServerLine.decode(Array("nope".utf8)) == nil)
    }

    @Test func socketPathRules() throws {
        #expect(try SocketLocation.resolve(explicit: "/a.sock", environment: ["STYLUSD_SOCKET": "/b.sock"]).get() == "/a.sock")
        #expect(try SocketLocation.resolve(explicit: nil, environment: ["STYLUSD_SOCKET": "/b.sock", "XDG_RUNTIME_DIR": "/run/user/1"]).get() == "/b.sock")
        #expect(try SocketLocation.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"]).get() == "/run/user/1/stylusd/stylusd.sock")
        #expect(throws: SocketLocationError.self) { try SocketLocation.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "run"]).get() }
    }
}
