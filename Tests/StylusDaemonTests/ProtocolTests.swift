@testable import StylusCore
import Testing
@testable import StylusDaemon

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
        #expect(try Self.decode(#"{"id":1,"cmd":"subscribe"}"#).get().command == .subscribe([.canvas, .doublePress, .precision, .device]),
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

@Suite("Per-client output queue")
struct OutboundQueueTests {
    static func line(_ n: Int, _ size: Int = 100) -> [UInt8] { Array(repeating: UInt8(ascii: "a"), count: size - 1) + [0x0a] }

    @Test func penSamplesBeyondTheBoundDropTheOldestAndTheClientIsTold() {
        var q = OutboundQueue(eventLimit: 1000)
        for i in 0..<10 { #expect(q.enqueue(Self.line(i), kind: .pen) == .queued) }
        #expect(q.enqueue(Self.line(10), kind: .pen) == .queued, "room made by dropping the oldest")
        #expect(q.droppedPenSamples == 1)
        #expect(q.queuedBytes <= 1000)
        var out: [UInt8] = []
        _ = q.flush { buffer in out += buffer; return buffer.count }
        _ = q.enqueue(Self.line(11), kind: .pen)
        out.removeAll()
        _ = q.flush { buffer in out += buffer; return buffer.count }
        #expect(String(decoding: out, as: UTF8.self).hasPrefix(#"{"event":"dropped","topic":"pen","count":1}"#))
    }

    @Test func aStalledQueueDropsInOrderAndStaysBounded() {
        var q = OutboundQueue(eventLimit: 10_000)
        var out: [UInt8] = []
        _ = q.enqueue(Self.line(0), kind: .pen)
        _ = q.flush { buffer in out += buffer.prefix(10); return 10 }   // the client read 10 bytes, then stalled
        for i in 1...50_000 {
            var line = Array("\(i)".utf8)
            line += Array(repeating: UInt8(ascii: "x"), count: 99 - line.count)
            line.append(0x0a)
            _ = q.enqueue(line, kind: .pen)
        }
        #expect(q.queuedBytes <= 10_000)
        #expect(q.droppedPenSamples > 49_000)
        _ = q.flush { buffer in out += buffer; return buffer.count }
        let lines = out.split(separator: 0x0a).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.first?.count == 99, "the partly written line was finished")
        let numbers = lines.dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(numbers == numbers.sorted(), "the newest samples, in order")
        #expect(numbers.last == 50_000)
    }

    @Test func stateEventsBeyondTheBoundDisconnect() {
        var q = OutboundQueue(eventLimit: 1000)
        for i in 0..<10 { #expect(q.enqueue(Self.line(i), kind: .state) == .queued) }
        guard case .overflow(let reason) = q.enqueue(Self.line(10), kind: .state) else {
            Issue.record("no overflow")
            return
        }
        #expect(reason.contains("does not read its events"))
    }

    @Test func aPartlyWrittenLineIsNeverDroppedOrSplit() {
        var q = OutboundQueue(eventLimit: 300)
        _ = q.enqueue(Self.line(0), kind: .pen)
        var out: [UInt8] = []
        _ = q.flush { buffer in out += buffer.prefix(40); return 40 }    // a short write
        for i in 1...5 { _ = q.enqueue(Self.line(i), kind: .pen) }
        _ = q.flush { buffer in out += buffer; return buffer.count }
        let lines = out.split(separator: 0x0a, omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.count == 99, "the first line went out whole")
        #expect(lines.allSatisfy { $0.count == 99 || $0.first == UInt8(ascii: "{") })
    }

    @Test func responsesAreKeptBeyondTheEventBound() {
        var q = OutboundQueue(eventLimit: 100, hardLimit: 10_000)
        for i in 0..<20 { #expect(q.enqueue(Self.line(i), kind: .response) == .queued) }
        guard case .overflow = q.enqueue(Array(repeating: 0x20, count: 9_000), kind: .response) else {
            Issue.record("no hard limit")
            return
        }
    }

    @Test func aWriteErrorIsReported() {
        var q = OutboundQueue()
        _ = q.enqueue(Self.line(0), kind: .state)
        #expect(q.flush { _ in -1 } == false)
    }

    @Test func linesAreCutAtNewlinesWithOneCarriageReturnTakenAsTheEnding() {
        var inbound = InboundLines()
        let bytes = Array("a\r\n\r\nb\r\r\nc\nunfinished".utf8)
        for chunk in stride(from: 0, to: bytes.count, by: 3) {
            bytes[chunk..<min(bytes.count, chunk + 3)].withUnsafeBytes { inbound.append($0) }
        }
        let lines = inbound.takeLines()
        #expect(lines == [Array("a".utf8), Array("b\r".utf8), Array("c".utf8)])
        #expect(inbound.pendingCount == "unfinished".utf8.count)
    }

    @Test func aLineOverTheLimitIsRefusedEvenBeforeItsNewline() {
        var inbound = InboundLines()
        Array(repeating: UInt8(ascii: "x"), count: 101).withUnsafeBytes { inbound.append($0) }
        #expect(inbound.takeLines(limit: 100) == nil)
    }
}
