// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser
#if canImport(Glibc)
import Glibc
#endif

/// The parser child kept from reload to reload.
@Suite("the kept parser child")
struct KeptParserChildTests {
    static func parse(_ server: ConfigParserClient, _ text: String, file: String = "config.toml") throws -> (Result<EngineConfig, ConfigError>, fd: Int32) {
        let pending = try server.start(Array(text.utf8), file: file)
        let fd = pending.fd
        return (pending.finish(), fd)
    }

    @Test func oneChildAnswersReloadAfterReloadWithTheOneShotChildsAnswers() throws {
        let server = ConfigParserClient(executable: try Built.stylusd)
        defer { server.close() }
        let good = "interval_ms = 700\n"
        let (first, firstFD) = try Self.parse(server, good)
        #expect(try first.get() == (try ConfigParserChild.parse(good, file: "config.toml")))
        let (bad, secondFD) = try Self.parse(server, "interval_ms = 500\n\ndebounce_ms = 101\n", file: "/home/u/c.toml")
        guard case .failure(let error) = bad else { Issue.record("accepted debounce_ms = 101"); return }
        #expect(error.file == "/home/u/c.toml" && error.line == 3 && error.key == "debounce_ms", "\(error)")
        #expect(firstFD == secondFD, "the same child (the same pipe) answered both")
        #expect(try Self.parse(server, "interval_ms = 300\n").0.get().doublePressIntervalMS == 300)
    }

    @Test func aChildThatDiesIsAnErrorAndTheNextReloadGetsANewChild() throws {
        let server = ConfigParserClient(executable: Built.script("abort"))
        defer { server.close() }
        // The second answer can only come from a new child: the first died.
        for attempt in 1...2 {
            let (aborted, _) = try Self.parse(server, "interval_ms = 650\n")
            guard case .failure(let error) = aborted else { Issue.record("answered by a child that aborts"); return }
            #expect(error.message.contains("killed by signal 6"), "attempt \(attempt): \(error)")
        }
    }

    @Test func aFileTooBigForOneWriteGoesToAChildOfItsOwn() throws {
        let server = ConfigParserClient(executable: try Built.stylusd)
        defer { server.close() }
        let padding = String(repeating: "# a comment line that makes the file long\n", count: 2000)
        #expect(padding.utf8.count > ConfigParserClient.maxServedFileBytes)
        #expect(try Self.parse(server, padding + "interval_ms = 900\n").0.get().doublePressIntervalMS == 900)
    }

    @Test func aHangingChildIsStoppedAtTheDeadlineAndReplaced() throws {
        let server = ConfigParserClient(executable: Built.script("hang"), timeLimit: 200_000)
        defer { server.close() }
        let pending = try server.start(Array("x = 1\n".utf8), file: "c.toml")
        var ready = pollfd(fd: pending.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 100) == 0, "no answer while it hangs")
        #expect(pending.timeOut().message.contains("did not finish within 200 ms"))
    }

    /// A child killed at the deadline is reaped by the loop's timer
    /// (`reapDeadline`), not only by the next reload, which may never come.
    @Test func aChildStoppedAtTheDeadlineIsReapedWithoutAnotherReload() throws {
        let server = ConfigParserClient(executable: Built.script("hang"), timeLimit: 200_000)
        defer { server.close() }
        let pending = try server.start(Array("x = 1\n".utf8), file: "c.toml")
        let pid = try #require(server.keptPID)
        _ = pending.timeOut()
        // Killed, it may be gone and reaped at once; if not, the loop must come back for it.
        #expect(server.reapDeadline != nil || server.unreaped.isEmpty, "the loop is asked to come back for it")
        let end = ContinuousClock.now + .seconds(5)
        while let deadline = server.reapDeadline, ContinuousClock.now < end {
            let wait = max(0, deadline - ConfigParserClient.now())
            usleep(useconds_t(wait))
            server.reapRetired(now: ConfigParserClient.now())
        }
        #expect(server.unreaped.isEmpty && server.reapDeadline == nil)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD, "reaped, not a zombie")
    }

    /// Once what the child holds passes the growth limit it execs itself
    /// afresh in the same process: the daemon starts no replacement, whose
    /// posix_spawn would stop its loop, and reloads go on being answered, with
    /// no descriptor more than it started with. The child keeps nothing of a
    /// parse, so the test makes it grow as a user's growing file would: each
    /// request half a KiB longer (a comment), whose input buffer the child
    /// keeps at its largest; a limit of 64 KiB is passed within 240 reloads.
    @Test func theChildStartsAfreshInTheSameProcessWhenItHasGrown() throws {
        let server = ConfigParserClient(executable: try Built.stylusd, growthLimitKiB: 64)
        var pids: Set<pid_t> = []
        var descriptorsAtFirst: [String] = []
        let reloads = 240
        for i in 0..<reloads {
            let padding = "# " + String(repeating: "x", count: i * 512) + "\n"
            let (result, _) = try Self.parse(server, "interval_ms = \(300 + i % 500)\n" + padding)
            #expect(try result.get().doublePressIntervalMS == 300 + i % 500, "reload \(i + 1)")
            if let pid = server.keptPID { pids.insert(pid) }
            if i == 0, let pid = server.keptPID {
                try Self.waitUntilWaitingForARequest(pid)
                descriptorsAtFirst = try Self.descriptors(of: pid)
            }
        }
        #expect(pids.count == 1, "one child process for every reload: \(pids)")
        let pid = try #require(pids.first)
        // The last answer may have started an exec.
        try Self.waitUntilWaitingForARequest(pid)
        let arguments = try Self.commandLine(of: pid)
        try #require(arguments.count >= 2 && arguments[arguments.count - 2] == ConfigParserChild.answeredFlag, "it started afresh: \(arguments)")
        let answered = try #require(arguments.last.flatMap { Int($0) })
        #expect(answered > 0 && answered <= reloads)
        #expect(try Self.descriptors(of: pid) == descriptorsAtFirst, "no descriptor leaked across an exec")
        #expect(arguments.suffix(5).dropLast() == [ConfigParserChild.serveFlag, ConfigParserChild.growthLimitFlag, "64", ConfigParserChild.answeredFlag],
                "it keeps its limit and says how many answers came before: \(arguments)")
        #expect(server.unreaped.isEmpty && server.reapDeadline == nil, "no child was replaced")
        server.close()
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD, "close() reaps the kept child")
    }

    /// Waits up to 10 s for the child to block reading its next request
    /// (/proc/PID/syscall: read on descriptor 0). Right after an answer it
    /// still measures itself, with /proc/self/statm open for a moment, or is
    /// starting afresh; its descriptors are its own only between requests.
    static func waitUntilWaitingForARequest(_ pid: pid_t) throws {
        #if arch(x86_64)
        let read = "0"
        #elseif arch(arm64)
        let read = "63"
        #else
        // No syscall number known here for read: a pause instead, which may catch the child mid-answer.
        usleep(200_000)
        return
        #endif
        let end = ContinuousClock.now + .seconds(10)
        var said = ""
        repeat {
            let fd = open("/proc/\(pid)/syscall", O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0, "/proc/\(pid)/syscall: \(String(cString: strerror(errno)))")
            var bytes = [UInt8](repeating: 0, count: 256)
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            close(fd)
            said = String(decoding: bytes[..<max(n, 0)], as: UTF8.self)
            let fields = said.split(separator: " ")
            if fields.count > 1, fields[0] == read, fields[1] == "0x0" { return }
            usleep(5_000)
        } while ContinuousClock.now < end
        Issue.record("after 10 s the parser child \(pid) is not waiting for a request; /proc/\(pid)/syscall: \(said)")
    }

    static func descriptors(of pid: pid_t) throws -> [String] {
        let dir = try #require(opendir("/proc/\(pid)/fd"))
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func commandLine(of pid: pid_t) throws -> [String] {
        let fd = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        try #require(n >= 0)
        return bytes[..<n].split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}
