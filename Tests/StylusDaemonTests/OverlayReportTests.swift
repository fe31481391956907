// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
@testable import StylusDaemon
import StylusProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A canvas overlay's report (`overlay`) in `status`: shown while the process
/// that sent it runs, gone once it ended, replaced by a newer report.
@Suite("Overlay report in status")
struct OverlayReportTests {
    static func overlay(in h: CommandHandler) throws -> JSONValue? {
        var topics: Set<Topic> = []
        let answer = try CommandHandlerTests.json(CommandHandlerTests.ask(h, #"{"id":1,"cmd":"status"}"#, topics: &topics))
        guard case .object(let o) = answer, case .object(let result)? = o["result"] else { throw CommandHandlerTests.Failure("\(answer)") }
        return result["overlay"]
    }

    static func report(_ h: CommandHandler, _ line: String, from pid: pid_t?) -> CommandHandler.Answer {
        var topics: Set<Topic> = []
        return h.answer(Array(line.utf8), topics: &topics, now: 1_000, peer: pid)
    }

    /// A process that has run and been reaped: its pid names nobody now.
    static func endedProcess() throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0 else { throw CommandHandlerTests.Failure("cannot spawn /bin/true") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }

    @Test func aRunningOverlaysReportIsInStatus() throws {
        let h = CommandHandlerTests.handler()
        #expect(try Self.overlay(in: h) == nil)
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":2,"cmd":"overlay","backend":"layer-shell","outputs":2}"#, from: getpid()))
        #expect(try Self.overlay(in: h) == .object(["backend": .string("layer-shell"), "outputs": .number(2)]))
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":3,"cmd":"overlay","backend":"layer-shell","outputs":1}"#, from: getpid()))
        #expect(try Self.overlay(in: h) == .object(["backend": .string("layer-shell"), "outputs": .number(1)]))
    }

    @Test func theRunningCanvasesAreaIsTheExportsSizeAndStatusShowsIt() throws {
        let h = CommandHandlerTests.handler()
        #expect(h.defaultExportSize == (1600, 900), "no canvas, no pen: 1600 wide")
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":2,"cmd":"overlay","backend":"x11","outputs":2,"width":3840,"height":1080}"#, from: getpid()))
        #expect(h.defaultExportSize == (3840, 1080))
        #expect(try Self.overlay(in: h) == .object(["backend": .string("x11"), "outputs": .number(2), "width": .number(3840), "height": .number(1080)]))
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":3,"cmd":"overlay","backend":"x11","outputs":8,"width":16384,"height":2160}"#, from: getpid()))
        #expect(h.defaultExportSize == (8192, 1080), "a wall of monitors is scaled down to the largest picture, its proportions kept")
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":4,"cmd":"overlay","backend":"x11","outputs":1,"width":1280,"height":800}"#, from: try Self.endedProcess()))
        #expect(h.defaultExportSize == (1600, 900), "the area of a canvas that ended is not used")
    }

    @Test func theReportOfAnOverlayThatEndedIsNotInStatus() throws {
        let h = CommandHandlerTests.handler()
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":2,"cmd":"overlay","backend":"x11","outputs":1}"#, from: try Self.endedProcess()))
        #expect(try Self.overlay(in: h) == nil)
    }

    @Test func aBadReportIsRefusedAndKeepsTheLastOne() throws {
        let h = CommandHandlerTests.handler()
        _ = try CommandHandlerTests.json(Self.report(h, #"{"id":2,"cmd":"overlay","backend":"x11","outputs":1}"#, from: getpid()))
        let refused = try CommandHandlerTests.json(Self.report(h, #"{"id":3,"cmd":"overlay","backend":"X 11","outputs":1}"#, from: getpid()))
        guard case .object(let o) = refused, case .bool(false)? = o["ok"] else { throw CommandHandlerTests.Failure("accepted: \(refused)") }
        #expect(try Self.overlay(in: h) == .object(["backend": .string("x11"), "outputs": .number(1)]))
    }
}
