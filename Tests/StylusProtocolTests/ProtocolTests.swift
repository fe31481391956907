// SPDX-License-Identifier: MIT
@testable import StylusCore
import Testing
@testable import StylusProtocol

@Suite("Protocol v1 requests")
struct ProtocolTests {
    static func decode(_ text: String) -> Result<Request, RequestFailure> { Request.decode(Array(text.utf8)) }

    @Test func aRequestCarriesItsIdAndCommand() throws {
        let r = try Self.decode(#"{"id":7,"cmd":"toggle"}"#).get()
        #expect(r.id == .number(7) && r.command == .toggle)
        #expect(try Self.decode(#"{"id":"abc","cmd":"status"}"#).get().id == .string("abc"))
        #expect(try Self.decode(#"{"cmd":"status"}"#).get().id == .null)
        #expect(try Self.decode(#"{"id":1,"cmd":"precision","action":"toggle"}"#).get().command == .precision(.toggle))
        #expect(try Self.decode(#"{"id":1,"cmd":"subscribe","topics":["canvas","pen"]}"#).get().command == .subscribe([.canvas, .pen]))
        #expect(try Self.decode(#"{"id":1,"cmd":"subscribe"}"#).get().command == .subscribe([.canvas, .doublePress, .precision, .device, .output, .tool]),
                "no topics: every state topic, not the per-sample pen stream")
    }

    @Test(arguments: [
        ("{not json", "bad-json", "not valid JSON"),
        (#"[1,2]"#, "bad-request", "a request is a JSON object, not an array"),
        (#"{"id":1}"#, "bad-request", #"missing "cmd""#),
        (#"{"id":1,"cmd":5}"#, "bad-request", #""cmd" must be a string, not a number"#),
        (#"{"id":1,"cmd":"fly"}"#, "unknown-command", #"unknown command "fly""#),
        (#"{"id":1,"cmd":"precision"}"#, "bad-request", "precision needs"),
        (#"{"id":1,"cmd":"precision","action":"max"}"#, "bad-request", "precision needs"),
        (#"{"id":1,"cmd":"subscribe","topics":"canvas"}"#, "bad-request", "must be an array"),
        (#"{"id":1,"cmd":"subscribe","topics":["weather"]}"#, "bad-request", "unknown topic"),
    ] as [(String, String, String)])
    func aBadRequestGetsACodeAndAMessage(line: String, code: String, message: String) {
        guard case .failure(let f) = Self.decode(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(f.error.code.rawValue == code)
        #expect(f.error.message.contains(message), "\(f.error.message)")
        if line.contains(#""id":1"#) { #expect(f.id == .number(1), "the id is echoed with the error") }
    }

    @Test func deepNestingIsRefusedBeforeDecoding() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case .failure(let f) = Self.decode(deep) else {
            Issue.record("accepted")
            return
        }
        #expect(f.error.code == .badJSON)
        #expect(f.error.message.contains("nested deeper than 16 levels"))
        #expect(Request.nestingExceeds(Array(#"{"a":"[[[[[[[[[[[[[[[[[[[[[[[["}"#.utf8), 16) == nil, "brackets inside strings do not count")
    }

    @Test func invalidUTF8IsBadJSON() {
        guard case .failure(let f) = Request.decode([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) else {
            Issue.record("accepted")
            return
        }
        #expect(f.error.code == .badJSON)
    }

    @Test func responsesAreOneLineOfJSON() {
        let ok = String(decoding: Response.success(id: .string("a/b"), ["state": "open"]), as: UTF8.self)
        #expect(ok == #"{"id":"a/b","ok":true,"result":{"state":"open"}}"# + "\n")
        let bad = String(decoding: Response.failure(id: .number(3), ProtocolError(code: .refused, message: "no")), as: UTF8.self)
        #expect(bad == #"{"error":{"code":"refused","message":"no"},"id":3,"ok":false}"# + "\n")
    }

    @Test func eventsMapToTopics() {
        let canvas = EngineEvent.canvas(CanvasEvent(state: .open, source: .pen, cause: .ack, hasContent: false, strokeCount: 0, time: 0))
        #expect(Topic(canvas) == .canvas)
        #expect(Topic(.proximity(ProximityEvent(device: DeviceID(1), inProximity: true, tool: Tool(type: .pen), time: 0))) == .pen)
    }
}

@Suite("Pre-encoded results")
struct EncodedResultTests {
    @Test(arguments: [JSONValue.number(7), .string("a/\"b\""), .null, .number(1e300)])
    func aPreEncodedResultGivesTheSameBytesAsEncodingIt(id: JSONValue) {
        let result = TopicsResult(topics: ["canvas", "pen"])
        #expect(Response.success(id: id, encodedResult: Response.EncodedResult(result)) == Response.success(id: id, result))
    }
}

@Suite("the tool command's errors")
struct ToolCommandErrorTests {
    @Test(arguments: [
        (##"{"cmd":"tool","tool":"brush"}"##, ##"unknown tool "brush"; tools are pen, highlighter, eraser, laser, line, arrow, rectangle, ellipse, text, or "previous""##),
        (##"{"cmd":"tool","color":"#12345"}"##, ##""color": "#12345" is not a colour; use #RGB or #RRGGBB (hex digits, e.g. #3465a4) or a CSS colour name (e.g. crimson)"##),
        (##"{"cmd":"tool","width":0}"##, ##""width" must be a number from 1 to 64 (pixels of a drawing 1600 wide), or "+" or "-", not 0"##),
        (##"{"cmd":"tool","width":10000}"##, ##""width" must be a number from 1 to 64 (pixels of a drawing 1600 wide), or "+" or "-", not 10000"##),
        (##"{"cmd":"tool","color":5}"##, ##""color" must be a CSS colour name, #RGB or #RRGGBB (a string, e.g. "crimson" or "#3465a4"), or "next" or "previous", not 5"##),
    ])
    func aBadValueIsNamedAsTheRequestWroteIt(line: String, message: String) {
        guard case .failure(let failure) = Request.decode(Array(line.utf8)) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message == message)
    }
}
