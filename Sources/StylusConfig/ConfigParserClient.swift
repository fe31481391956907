// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The parent side of config parsing: starts the parser child
/// (`ConfigParserChild`, the other side) and reads its answers.
///
/// `parse` blocks on a child of its own, for a program that can wait
/// (stylusctl, the daemon at start-up). An instance is for an event loop:
/// it keeps one child (`parse-config-child --serve`) for reload after
/// reload, since starting a process per reload cost the daemon a vfork and
/// an exec each time, and on a slow machine most of a second of CPU. That
/// child is started at the first request and started again after it died
/// or hung (killed at the deadline); once it has grown past its growth
/// limit it execs itself afresh, in the same process. A file too big for
/// one write into the pipe goes to a one-shot child instead (`OneShotParse`).
///
/// Why a child at all: config.toml is the daemon's one input that anyone
/// able to write the user's config directory controls, and its parser the
/// daemon's largest piece of input handling. A bug in it (toml++, the
/// parser before StylusTOML, aborted on typos the fuzzer found, and leaked
/// 4 KiB a reload) costs the child, not the daemon's loop.
public final class ConfigParserClient {
    /// A config file parses in milliseconds; this is only for a parser that never ends (µs).
    public static let timeLimit: Int64 = 10_000_000

    /// Starts this very program again, whatever has become of its file on
    /// disk since (an upgrade that replaced it, or deleted it): the child
    /// runs the same code as the parent.
    public static let selfExecutable = "/proc/self/exe"

    private static let configuredExecutable = Locked<String?>(nil)

    /// What `start` runs when it is given no executable: `selfExecutable`,
    /// unless this process cannot be the child (a test runner) and names
    /// one that can.
    public static var defaultExecutable: String {
        get { configuredExecutable.withLock { $0 } ?? selfExecutable }
        set { configuredExecutable.withLock { $0 = newValue } }
    }

    /// The daemon, whose binary is the parser child too (`stylusd
    /// parse-config-child`), for a program that is not the daemon
    /// (stylusctl): the first of `parserCandidates` that is executable, else
    /// the first candidate though it is missing: starting it then fails with
    /// ENOENT, which names the file.
    public static var parserBesideThisProgram: String {
        let candidates = parserCandidates(program: runningProgram())
        return candidates.first { access($0, X_OK) == 0 } ?? candidates.first ?? parserName
    }

    public static let parserName = "stylusd"
    /// Where `make install` (its default PREFIX) and the Debian package put stylusd.
    public static let installedParserDirectories = ["/usr/local/bin", "/usr/bin"]

    /// In order: the directory of the running program (where SwiftPM builds
    /// stylusd, and where `make install` and the Debian package put it beside
    /// stylusctl), then `installedParserDirectories`.
    public static func parserCandidates(program: String?) -> [String] {
        var directories: [String] = []
        if let program, let slash = program.lastIndex(of: "/") {
            directories.append(String(program[..<slash]))
        }
        return (directories + installedParserDirectories).map { "\($0)/\(parserName)" }
    }

    /// The program file this process runs (readlink of /proc/self/exe).
    public static func runningProgram() -> String? { ChildProcess.runningProgram }

    /// An executable in the same directory as this process's program, if
    /// there is one: `stylusd` beside a test runner in .build/debug.
    public static func executableBesideThisProgram(named name: String) -> String? {
        guard let program = runningProgram(), let slash = program.lastIndex(of: "/") else { return nil }
        let path = "\(program[..<slash])/\(name)"
        return access(path, X_OK) == 0 ? path : nil
    }

    /// CLOCK_MONOTONIC in µs, the clock of `deadline`.
    public static func now() -> Int64 { monotonicMicroseconds() }

    /// Set in every parser child's environment.
    package static let childMarker = "STYLUSD_CONFIG_PARSE_CHILD"

    /// An answer is a few hundred bytes of JSON; a child that sends more is not answering.
    static let maxReplyBytes = 1 << 20

    /// Parsing is a helper's work: it runs below the daemon's loop in CPU priority.
    static let niceness: Int32 = 19

    /// The parser child's environment: this process's, with the marker set.
    /// The Swift runtime's backtracer would spend seconds symbolicating a
    /// crash and print a page about it; the parent reports it in one line.
    static func childEnvironment() -> [String] {
        var environment = ProcessEnvironment.current
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[childMarker] = "1"
        return environment.map { "\($0.key)=\($0.value)" }
    }

    /// Parses `bytes` in a child of its own and waits for the answer, at
    /// most `timeLimit` (µs). An event loop uses an instance's `start` instead
    /// and keeps serving meanwhile.
    public static func parse(_ bytes: [UInt8], file: String, executable: String? = nil,
                             timeLimit: Int64 = ConfigParserClient.timeLimit) throws(ConfigError) -> EngineConfig {
        try OneShotParse.start(bytes, file: file, executable: executable, timeLimit: timeLimit).finish().get()
    }

    static func describe(duration microseconds: Int64) -> String {
        microseconds % 1_000_000 == 0 ? "\(microseconds / 1_000_000) s" : "\(microseconds / 1000) ms"
    }

    /// A request is written in one go into an empty pipe (64 KiB), so the write never waits.
    public static let maxServedFileBytes = 60 * 1024

    private let executable: String?
    private let timeLimit: Int64
    private let growthLimitKiB: Int
    private var child: ChildProcess?
    private var busy = false
    /// Children replaced and told to go (input closed, or killed), not yet
    /// reaped, each with a pidfd that polls readable once it has ended. The
    /// loop never waits for a child's exit: in the emulated test guest one
    /// took 20-30 ms.
    private var retiring: [(child: ChildProcess, ended: Int32, since: Int64)] = []
    /// How often the loop looks at retired children until every one is reaped,
    /// and how long one told to go by EOF may take before it is killed.
    static let reapInterval: Int64 = 100_000
    static let retireLimit: Int64 = 10_000_000
    /// When the loop should call `reapRetired(now:)`: nil with no child left to reap,
    /// so an idle daemon does not wake for it.
    public private(set) var reapDeadline: Int64?
    /// The pids of children told to go and not reaped yet, and of the kept one (tests).
    var unreaped: [pid_t] { retiring.map(\.child.pid) }
    var keptPID: pid_t? { child?.pid }

    public init(executable: String? = nil, timeLimit: Int64 = ConfigParserClient.timeLimit,
                growthLimitKiB: Int = ConfigParserChild.defaultGrowthLimitKiB) {
        self.executable = executable
        self.timeLimit = timeLimit
        self.growthLimitKiB = growthLimitKiB
    }

    /// Starts parsing `bytes`: through the kept child when it fits, else in a
    /// child of its own. One parse at a time: the caller waits for the last one.
    public func start(_ bytes: [UInt8], file: String) throws(ConfigError) -> any PendingParse {
        let name = Array(file.utf8)
        guard !busy, bytes.count <= Self.maxServedFileBytes, name.count <= 4096 else {
            return try OneShotParse.start(bytes, file: file, executable: executable, timeLimit: timeLimit)
        }
        let child = try running()
        let request = Array("\(name.count) \(bytes.count)\n".utf8) + name + bytes
        guard writeAll(child.inputFD, request) else {
            // A child that went away between two reloads: start it again, once.
            self.child = nil
            retire(child, kill: true)
            let fresh = try running()
            guard writeAll(fresh.inputFD, request) else {
                self.child = nil
                throw ConfigError.cannotCheck("cannot send the file to the parser child: \(String(cString: strerror(errno)))", file: file)
            }
            return ServedParse(server: self, child: fresh, file: file, timeLimit: timeLimit)
        }
        return ServedParse(server: self, child: child, file: file, timeLimit: timeLimit)
    }

    private func running() throws(ConfigError) -> ChildProcess {
        if let child, !child.reachedEnd {
            busy = true
            return child
        }
        reapRetired()
        if let old = child {
            // Its output ended: it has ended, or is ending, by itself.
            retire(old, kill: false)
            child = nil
        }
        let program = executable ?? ConfigParserClient.defaultExecutable
        let name = program == ConfigParserClient.selfExecutable ? (ConfigParserClient.runningProgram() ?? program) : program
        do {
            let started = try ChildProcess(executable: program, arguments: [name, ConfigParserChild.command, ConfigParserChild.serveFlag,
                                                                                ConfigParserChild.growthLimitFlag, String(growthLimitKiB)],
                                           inputPipe: true, environment: ConfigParserClient.childEnvironment(),
                                           niceness: ConfigParserClient.niceness, maxOutputBytes: ConfigParserClient.maxReplyBytes + 64)
            child = started
            busy = true
            return started
        } catch {
            throw ConfigError.cannotCheck("cannot start the parser child \(program): \(error.errno.reason)", file: "config")
        }
    }

    func finished(_ child: ChildProcess, keep: Bool) {
        busy = false
        if !keep, self.child === child {
            self.child = nil
            retire(child, kill: true)
        }
        reapRetired()
    }

    /// Tells `child` to go (EOF on its input; SIGKILL too with `kill`, unless
    /// its output has ended: then it is exiting, or reaped already) and
    /// reaps it later, once its pidfd says it has ended.
    private func retire(_ child: ChildProcess, kill: Bool) {
        child.closeInput()
        // Reaped already (it ended without an answer): its pid may belong to another process by now.
        guard !child.wasReaped else { return }
        if kill { Glibc.kill(child.pid, SIGKILL) }
        guard let ended = try? child.endingDescriptor() else {
            _ = child.stop()   // no pidfd (a kernel before 5.3): wait, as before
            return
        }
        let now = ConfigParserClient.now()
        retiring.append((child, ended, now))
        reapRetired(now: now)
    }

    /// Reaps the retired children that have ended, never waiting, and kills
    /// one that has not ended `retireLimit` after it was told to go. Called
    /// at each parse and by the loop at `reapDeadline`, so that no child stays
    /// a zombie while no reload comes.
    public func reapRetired(now: Int64) {
        retiring.removeAll { entry in
            var ready = pollfd(fd: entry.ended, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1 else {
                if now - entry.since >= Self.retireLimit { Glibc.kill(entry.child.pid, SIGKILL) }
                return false
            }
            _ = entry.child.wait()   // it has ended: this returns at once
            Glibc.close(entry.ended)
            return true
        }
        reapDeadline = retiring.isEmpty ? nil : now + Self.reapInterval
    }

    private func reapRetired() { reapRetired(now: ConfigParserClient.now()) }

    /// Ends the kept child (EOF on its input), e.g. when the daemon stops,
    /// and reaps every child, waiting if it must.
    public func close() {
        child?.closeInput()
        if let child { _ = child.stop() }
        child = nil
        for entry in retiring {
            _ = entry.child.stop()
            Glibc.close(entry.ended)
        }
        retiring.removeAll()
        reapDeadline = nil
    }
}
