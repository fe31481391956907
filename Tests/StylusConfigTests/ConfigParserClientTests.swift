// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser
#if canImport(Glibc)
import Glibc
#endif

/// The built programs the parser child's tests start. This process is the
/// test runner, which cannot be the child, so they come from beside it.
enum Built {
    static var stylusd: String {
        get throws {
            try #require(ConfigParserClient.executableBesideThisProgram(named: "stylusd"),
                         "no executable stylusd beside \(ConfigParserClient.runningProgram() ?? "the test runner"); build it first (swift build --build-tests)")
        }
    }

    /// Shell scripts that stand in for a misbehaving child (Tests/Fixtures/config-child).
    static let scripts: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures/config-child"
    }()

    static func script(_ name: String) -> String { "\(scripts)/\(name)" }
}

@Suite("the config parser child")
struct ConfigParserClientTests {
    static func parse(_ text: String, executable: String? = nil, file: String = "config.toml",
                      timeLimit: Int64 = ConfigParserClient.timeLimit) throws -> Result<EngineConfig, ConfigError> {
        let program = try executable ?? Built.stylusd
        return Result { () throws(ConfigError) -> EngineConfig in
            try ConfigParserClient.parse(Array(text.utf8), file: file, executable: program, timeLimit: timeLimit)
        }
    }

    static func error(_ result: Result<EngineConfig, ConfigError>) throws -> ConfigError {
        guard case .failure(let error) = result else { throw ParseSucceeded() }
        return error
    }

    struct ParseSucceeded: Error {}

    @Test func stylusctlLooksForTheDaemonsParserBesideItThenWhereMakeInstallAndTheDebPutIt() {
        #expect(ConfigParserClient.parserCandidates(program: "/home/u/bin/stylusctl") == [
            "/home/u/bin/stylusd",
            "/usr/local/bin/stylusd",
            "/usr/bin/stylusd",
        ])
        #expect(ConfigParserClient.parserCandidates(program: nil).first == "/usr/local/bin/stylusd")
    }

    @Test func aGoodFileComesBackAsThisProcessParsesIt() throws {
        let text = "preset = \"fast\"\n[bindings]\npad-3 = \"toggle-canvas\"\n[precision]\ncurve = [1, 2, 98, 99.25]\n"
        let config = try Self.parse(text).get()
        #expect(config == (try ConfigParserChild.parse(text, file: "config.toml")))
        #expect(config.binding(for: .pad(3)) == .toggleCanvas)
    }

    @Test func aBadFileNamesItsLineAndKey() throws {
        let range = try Self.error(Self.parse("interval_ms = 500\n\ndebounce_ms = 101\n", file: "/home/u/c.toml"))
        #expect(range.file == "/home/u/c.toml")
        #expect(range.line == 3 && range.key == "debounce_ms", "\(range)")
        #expect(range.description.hasPrefix("/home/u/c.toml:3: debounce_ms: "))
        let header = try Self.error(Self.parse("interval_ms = 500\n[!]\n"))
        #expect(header.line == 2 && header.key == nil && header.message.contains("table name"), "\(header)")
    }

    @Test func aFileNameThatLooksLikeAnOptionIsStillAFileName() throws {
        let error = try Self.error(Self.parse("nope = 1\n", file: "--help"))
        #expect(error.file == "--help" && error.key == "nope", "\(error)")
    }

    @Test func aParserAbortIsReportedAndTheCallerLivesOn() throws {
        let error = try Self.error(Self.parse("[precision]\ncurve = [}]\n", executable: Built.script("abort")))
        #expect(error.line == nil)
        #expect(error.message == "the config parser was killed by signal 6 (Aborted) on this file instead of naming the problem; this is a bug in stylusd, please report it with the file")
    }

    @Test func aChildThatHangsIsKilledAtTheDeadline() throws {
        let started = ConfigParserClient.now()
        let error = try Self.error(Self.parse("", executable: Built.script("hang"), timeLimit: 300_000))
        let took = ConfigParserClient.now() - started
        #expect(error.message.contains("did not finish within 300 ms and was stopped"), "\(error)")
        #expect(took >= 300_000 && took < 5_000_000, "took \(took) µs")
        #expect(ConfigParserClient.describe(duration: ConfigParserClient.timeLimit) == "10 s")
    }

    @Test func aMissingExecutableSaysSo() throws {
        let error = try Self.error(Self.parse("", executable: "/nonexistent/stylusd"))
        #expect(error.message == "cannot check the file: cannot start the parser child /nonexistent/stylusd: No such file or directory")
    }

    @Test func aChildThatAnswersNonsenseIsAParserFailure() throws {
        let garbage = try Self.error(Self.parse("", executable: Built.script("garbage")))
        #expect(garbage.message.contains("answered with a configuration this stylusd cannot read") && garbage.message.contains("another version of stylusd"),
                "\(garbage)")
        let status = try Self.error(Self.parse("", executable: Built.script("status7")))
        #expect(status.message.contains("exited with status 7"), "\(status)")
    }

    @Test func theWholeFileReachesTheChildAndItsAnswerComesBack() throws {
        // Far more than a pipe holds, both ways: neither side may wait on the other.
        let line = "# a comment line, sixty-four bytes long, of which there are many\n"
        let text = String(repeating: line, count: 300_000 / line.utf8.count)
        let echoed = try Self.error(Self.parse(text, executable: Built.script("echo")))
        #expect(echoed.message == text)
        // The largest file there may be parses. Under a sanitizer on a busy machine (CI's stages run
        // side by side) a debug child takes seconds for it: this is about the whole file, not the time.
        let biggest = String(repeating: line, count: ConfigParserChild.maxBytes / line.utf8.count) + "interval_ms = 700\n"
        #expect(biggest.utf8.count <= ConfigParserChild.maxBytes)
        #expect(try Self.parse(biggest, timeLimit: 60_000_000).get().doublePressIntervalMS == 700)
    }

    @Test func theChildGetsNoDescriptorButItsStandardOnesAndNoBlockedSignals() throws {
        let inherited = open("/dev/null", O_RDONLY)   // no O_CLOEXEC on purpose
        #expect(inherited > 2)
        defer { close(inherited) }
        let state = try Self.error(Self.parse("", executable: Built.script("fd-open"), file: "\(inherited)"))
        #expect(state.message == "closed")
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGHUP)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let mask = try Self.error(Self.parse("", executable: Built.script("sigblk")))
        #expect(mask.message == "0000000000000000", "\(mask)")
    }

    @Test func theEventLoopWayAnswersThroughAPollableDescriptor() throws {
        let parse = try ConfigParserClient.OneShotParse.start(Array("transition_ms = 40\n".utf8), file: "config.toml", executable: Built.stylusd)
        #expect(fcntl(parse.fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(parse.fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(parse.deadline > ConfigParserClient.now() && parse.deadline <= ConfigParserClient.now() + ConfigParserClient.timeLimit)
        var done = parse.readAvailable()
        while !done {
            var ready = pollfd(fd: parse.fd, events: Int16(POLLIN), revents: 0)
            // The child's own time limit: a sanitized child on a busy machine may take seconds to start.
            #expect(poll(&ready, 1, Int32(ConfigParserClient.timeLimit / 1000)) == 1)
            done = parse.readAvailable()
        }
        #expect(try parse.finish().get().transitionMS == 40)
        #expect(parse.fd == -1)
        #expect(kill(parse.pid, 0) == -1 && errno == ESRCH, "the child is reaped")
        #expect(try parse.finish().get().transitionMS == 40, "finish() again says the same")
    }

    @Test func timeOutKillsAndReapsAndADroppedParseLeavesNoChild() throws {
        let hung = try ConfigParserClient.OneShotParse.start([], file: "config.toml", executable: Built.script("hang"))
        #expect(hung.readAvailable() == false)
        let error = hung.timeOut()
        #expect(error.message.contains("did not finish within 10 s and was stopped"), "\(error)")
        #expect(kill(hung.pid, 0) == -1 && errno == ESRCH)
        if case .failure(let again) = hung.finish() { #expect(again == error) } else { Issue.record("finished after timing out") }

        let pid = try {
            let dropped = try ConfigParserClient.OneShotParse.start([], file: "config.toml", executable: Built.script("hang"))
            return dropped.pid
        }()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func aFileOverAMebibyteStartsNoChild() {
        #expect(throws: ConfigError.tooBig(ConfigParserChild.maxBytes + 1, file: "config.toml")) {
            try ConfigParserClient.OneShotParse.start([UInt8](repeating: 0x23, count: ConfigParserChild.maxBytes + 1), file: "config.toml", executable: "/nonexistent")
        }
    }
}
