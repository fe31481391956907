// SPDX-License-Identifier: MIT
import Logging
@testable import StylusDaemon
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Log lines")
struct JournalLogHandlerTests {
    /// The device and inode of a descriptor, as systemd writes them into JOURNAL_STREAM.
    static func streamID(_ fd: Int32) -> String {
        var info = stat()
        fstat(fd, &info)
        return "\(info.st_dev):\(info.st_ino)"
    }

    @Test func aTerminalGetsPlainLinesNamedAfterTheDaemon() {
        let handler = JournalLogHandler(environment: [:])
        #expect(handler.line(.warning, "cannot use /dev/input/event5") == "stylusd: cannot use /dev/input/event5\n")
    }

    @Test func theJournalGetsSyslogPriorityPrefixes() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let handler = JournalLogHandler(environment: ["JOURNAL_STREAM": Self.streamID(ends[1])], fd: ends[1])
        #expect(handler.line(.error, "x") == "<3>x\n")
        #expect(handler.line(.warning, "x") == "<4>x\n")
        #expect(handler.line(.info, "x") == "<6>x\n")
        #expect(handler.line(.critical, "x") == "<2>x\n")
    }

    @Test func aJournalStreamThatIsNotStderrAnyMoreIsIgnored() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var other: [Int32] = [-1, -1]
        #expect(pipe(&other) == 0)
        defer { close(other[0]); close(other[1]) }
        // stderr was redirected after systemd set the variable: plain lines again.
        let handler = JournalLogHandler(environment: ["JOURNAL_STREAM": Self.streamID(other[1])], fd: ends[1])
        #expect(handler.line(.error, "x") == "stylusd: x\n")
        #expect(JournalLogHandler(environment: ["JOURNAL_STREAM": "garbage"], fd: ends[1]).line(.info, "y") == "stylusd: y\n")
    }

    @Test func aLoggerWritesThroughTheHandler() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let logger = Logger(label: "stylusd") { _ in JournalLogHandler(environment: [:], fd: ends[1]) }
        logger.warning("disk full")
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self) == "stylusd: disk full\n")
    }
}
