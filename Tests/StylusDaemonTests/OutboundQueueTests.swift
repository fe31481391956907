// SPDX-License-Identifier: MIT
@testable import StylusDaemon
import Testing

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
