// SPDX-License-Identifier: MIT
import Testing
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The one line splitter every socket and pipe reader uses: the daemon's
/// clients, the client's daemon, the config parser child's both ends.
@Suite("the shared line buffer")
struct LineBufferTests {
    static func lines(_ buffer: inout LineBuffer) throws(LineTooLong) -> [String] {
        var lines: [String] = []
        while let line = try buffer.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test func aLineSplitAcrossReadsComesOutWholeOnceItsNewlineArrives() throws {
        var buffer = LineBuffer(limit: 100)
        let bytes = Array("first\nsecond line\nthird".utf8)
        var seen: [String] = []
        for chunk in stride(from: 0, to: bytes.count, by: 4) {
            buffer.append(contentsOf: bytes[chunk..<min(bytes.count, chunk + 4)])
            seen += try Self.lines(&buffer)
        }
        #expect(seen == ["first", "second line"])
        #expect(Array(buffer.unread) == Array("third".utf8))
    }

    @Test func theLastBytesWithoutANewlineAreNoLine() throws {
        var buffer = LineBuffer(limit: 100)
        buffer.append(contentsOf: Array("no newline".utf8))
        #expect(try buffer.nextLine() == nil)
        #expect(buffer.count == "no newline".utf8.count)
        buffer.append(contentsOf: [0x0a])
        #expect(try buffer.nextLine() == Array("no newline".utf8))
        #expect(buffer.isEmpty)
    }

    @Test func aCarriageReturnIsKeptAndAnEmptyLineIsALine() throws {
        // Trimming a CR or skipping empty lines is the protocol's business (InboundLines), not the splitter's.
        var buffer = LineBuffer(limit: 100)
        buffer.append(contentsOf: Array("a\r\n\nb\n".utf8))
        #expect(try Self.lines(&buffer) == ["a\r", "", "b"])
    }

    @Test func aLineAtTheLimitPassesAndOneByteMoreIsRefusedNamingTheLimit() throws {
        var buffer = LineBuffer(limit: 8)
        buffer.append(contentsOf: Array("12345678\n123456789\n".utf8))
        #expect(try buffer.nextLine() == Array("12345678".utf8))
        #expect(throws: LineTooLong(limit: 8)) { try buffer.nextLine() }
        #expect(LineTooLong(limit: 8).description == "a line over 8 bytes")
    }

    @Test func anUnfinishedLineOverTheLimitIsRefusedBeforeItsNewline() throws {
        var buffer = LineBuffer(limit: 8)
        buffer.append(contentsOf: Array("12345678".utf8))
        #expect(try buffer.nextLine() == nil)
        buffer.append(contentsOf: Array("9".utf8))
        #expect(throws: LineTooLong(limit: 8)) { try buffer.nextLine() }
    }

    @Test func countedBytesFollowALineAndWaitUntilAllAreHere() throws {
        var buffer = LineBuffer(limit: 16)
        buffer.append(contentsOf: Array("0 5\nab".utf8))
        #expect(try buffer.nextLine() == Array("0 5".utf8))
        #expect(buffer.take(5) == nil)
        buffer.append(contentsOf: Array("cde\nnext\n".utf8))
        #expect(buffer.take(5) == Array("abcde".utf8))
        // Bytes taken by count are no line: what follows starts a fresh one.
        #expect(try Self.lines(&buffer) == ["", "next"])
    }

    @Test func aLongLineInManyReadsIsFoundAndLinesAfterItKeepTheirLimit() throws {
        var buffer = LineBuffer(limit: 1 << 20)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        for chunk in stride(from: 0, to: long.count, by: 4096) {
            buffer.append(contentsOf: long[chunk..<min(long.count, chunk + 4096)])
            #expect(try buffer.nextLine() == nil)
        }
        buffer.append(contentsOf: Array("\nshort\n".utf8))
        #expect(try buffer.nextLine()?.count == long.count)
        #expect(try buffer.nextLine() == Array("short".utf8))
    }

    @Test func theLineReaderReadsLinesAndCountsFromAPipe() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let sent = Array("hello\n3\nabcover the limit line\n".utf8)
        _ = sent.withUnsafeBytes { Glibc.write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        var reader = LineReader(fd: ends[0], limit: 10)
        #expect(try reader.line() == Array("hello".utf8))
        #expect(try reader.line() == Array("3".utf8))
        #expect(reader.bytes(3) == Array("abc".utf8))
        #expect(throws: LineTooLong(limit: 10)) { try reader.line() }
    }

    @Test func theLineReaderEndsWithoutALineForBytesWithoutANewline() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        _ = Glibc.write(ends[1], "tail", 4)
        close(ends[1])
        defer { close(ends[0]) }
        var reader = LineReader(fd: ends[0], limit: 10)
        #expect(try reader.line() == nil)
    }
}
