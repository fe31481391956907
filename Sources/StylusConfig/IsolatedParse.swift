// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension ConfigFile {
    /// config.toml is at most this big; anything larger is not a config file.
    public static let maxBytes = 1 << 20

    /// Parses in a child process, which sends back the configuration (as
    /// JSON) or the error. toml++, inside TOMLKit 0.6.0, is built with its
    /// assertions on, and the config fuzzer found inputs that trip them: in
    /// this process, a typo in config.toml would abort the daemon on start or
    /// on reload; a child that dies takes only itself down. TOMLKit also never
    /// frees what it parses (LebJe/TOMLKit#26), which in the daemon grew by
    /// 4 KiB per `reload`; in the child it goes when the child does.
    ///
    /// Blocks until the child answers or `timeLimit` (µs) passes; an event
    /// loop uses `ConfigParse` instead and keeps serving meanwhile.
    public static func parseIsolated(_ bytes: [UInt8], file: String, executable: String? = nil,
                                     timeLimit: Int64 = ConfigParse.timeLimit) throws(ConfigError) -> EngineConfig {
        try ConfigParse.start(bytes, file: file, executable: executable, timeLimit: timeLimit).finish().get()
    }

    package static func tooBig(_ count: Int, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message: "\(count) bytes; a config file is at most \(maxBytes)")
    }

    /// The parser died, hung or answered nonsense: toml++ is the likely cause.
    static func parserDied(_ how: String, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message:
            "the TOML parser (toml++ in TOMLKit) \(how) on this file instead of naming the problem; check its brackets, quotes and table names")
    }

    /// The child could not be started or followed; nothing is known about the file.
    static func cannotCheck(_ reason: String, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message: "cannot check the file: \(reason)")
    }
}

/// One parser child at work, for a poll(2) loop: put `fd` in the poll set
/// (POLLIN), call `readAvailable()` when it is ready and `finish()` once
/// that returns true; if `deadline` passes first, call `timeOut()`. The
/// child is `executable parse-config-child -- FILE` (see `ConfigParseChild`),
/// the config's bytes its standard input (a memfd, so starting never
/// blocks on a pipe), its standard output the pipe behind `fd`. Dropping a
/// ConfigParse that has not finished kills and reaps its child.
public final class ConfigParse {
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

    /// The daemon's parser, `stylusd-parse-config`: the first of
    /// `parserCandidates` that is executable, else the first candidate
    /// though it is missing: starting it then fails with ENOENT, which
    /// names the file.
    public static var parserBesideThisProgram: String {
        let candidates = parserCandidates(program: runningProgram())
        return candidates.first { access($0, X_OK) == 0 } ?? candidates.first ?? parserName
    }

    public static let parserName = "stylusd-parse-config"
    /// Where `make install` may put the parser when BINDIR and LIBEXECDIR
    /// are not the default pair (the Makefile refuses any other place).
    public static let installedParserDirectories = ["/usr/local/libexec/stylusd", "/usr/libexec/stylusd", "/usr/lib/stylusd"]

    /// In order: the directory of the running program (where SwiftPM builds
    /// it), `../libexec/stylusd/` from there (where `make install` and the
    /// Debian package put it), then `installedParserDirectories`.
    public static func parserCandidates(program: String?) -> [String] {
        var directories: [String] = []
        if let program, let slash = program.lastIndex(of: "/") {
            let directory = String(program[..<slash])
            directories += [directory, directory + "/../libexec/stylusd"]
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

    /// The file's name, as errors name it.
    public let file: String
    /// CLOCK_MONOTONIC µs (`ConfigParse.now()`) after which the child is late: call `timeOut()`.
    public let deadline: Int64
    private let timeLimit: Int64
    private let child: ChildProcess
    private var outcome: Result<EngineConfig, ConfigError>?

    /// The child's process id.
    public var pid: pid_t { child.pid }
    /// The read end of the child's standard output, O_NONBLOCK and close-on-exec; -1 once closed.
    public var fd: Int32 { child.fd }

    /// Set in every parser child's environment.
    package static let childMarker = "STYLUSD_CONFIG_PARSE_CHILD"

    /// An answer is a few hundred bytes of JSON; a child that sends more is not answering.
    static let maxReplyBytes = 1 << 20

    /// Parsing is a helper's work: it runs below the daemon's loop in CPU priority.
    static let niceness: Int32 = 19

    private init(file: String, child: ChildProcess, timeLimit: Int64) {
        self.file = file
        self.child = child
        self.timeLimit = timeLimit
        deadline = ConfigParse.now() + timeLimit
    }

    /// The parser child's environment: this process's, with the marker set.
    /// The Swift runtime's backtracer would spend seconds symbolicating a
    /// toml++ abort and print a page about it; the parent reports it in one line.
    static func childEnvironment() -> [String] {
        var environment = ProcessEnvironment.current
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[childMarker] = "1"
        return environment.map { "\($0.key)=\($0.value)" }
    }

    /// Starts a child on `bytes`. Throws the same errors `parseIsolated`
    /// does for a file over `ConfigFile.maxBytes` or a child that cannot be started.
    public static func start(_ bytes: [UInt8], file: String, executable: String? = nil,
                             timeLimit: Int64 = ConfigParse.timeLimit) throws(ConfigError) -> ConfigParse {
        guard bytes.count <= ConfigFile.maxBytes else { throw ConfigFile.tooBig(bytes.count, file: file) }
        // A program that cannot act as the child (a test runner) and was
        // started as one anyway must not go on to start children of its own.
        guard getenv(childMarker) == nil else {
            throw ConfigFile.cannotCheck("this process is a parser child itself and starts no other", file: file)
        }
        let program = executable ?? defaultExecutable
        let name = program == selfExecutable ? (runningProgram() ?? program) : program
        do {
            let child = try ChildProcess(executable: program, arguments: [name, ConfigParseChild.command, "--", file], input: bytes,
                                         environment: childEnvironment(),
                                         niceness: niceness, maxOutputBytes: maxReplyBytes)
            return ConfigParse(file: file, child: child, timeLimit: timeLimit)
        } catch {
            let what = error.call == "posix_spawn" ? "cannot start the parser child \(program)" : error.call
            throw ConfigFile.cannotCheck("\(what): \(error.errno.reason)", file: file)
        }
    }

    /// Reads what the child has sent so far without waiting. True once the
    /// answer is complete (the child closed its end): then call `finish()`.
    public func readAvailable() -> Bool {
        outcome != nil || child.readAvailable()
    }

    /// Waits for the rest of the answer (until `deadline`), reaps the child
    /// and says what it found. Called again, returns the same.
    public func finish() -> Result<EngineConfig, ConfigError> {
        if let outcome { return outcome }
        while !child.readAvailable() {
            let left = deadline - ConfigParse.now()
            if left <= 0 { return .failure(timeOut()) }
            var ready = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(clamping: (left + 999) / 1000))
        }
        if child.outputOverflowed {
            child.stop()
            return settle(.failure(ConfigFile.parserDied("answered with more than \(Self.maxReplyBytes) bytes", file: file)))
        }
        // The child has closed its output, so it is ending.
        switch child.wait() {
        case .signalled(let signo):
            return settle(.failure(ConfigFile.parserDied("was killed by signal \(signo) (\(String(cString: strsignal(signo))))", file: file)))
        case .exited(let status):
            return settle(ConfigParseChild.decode(status: status, reply: child.output, file: file))
        }
    }

    /// Kills the child (SIGKILL), reaps it, and returns the error for a parser that never answered.
    public func timeOut() -> ConfigError {
        let error = ConfigFile.parserDied("did not finish within \(Self.describe(duration: timeLimit)) and was stopped", file: file)
        if outcome == nil {
            child.stop()
            outcome = .failure(error)
        }
        return error
    }

    private func settle(_ result: Result<EngineConfig, ConfigError>) -> Result<EngineConfig, ConfigError> {
        outcome = result
        return result
    }

    static func describe(duration microseconds: Int64) -> String {
        microseconds % 1_000_000 == 0 ? "\(microseconds / 1_000_000) s" : "\(microseconds / 1000) ms"
    }
}
