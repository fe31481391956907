import CLinux
import StylusCore
import Synchronization
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

    static func tooBig(_ count: Int, file: String) -> ConfigError {
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

    private static let configuredExecutable = Mutex<String?>(nil)

    /// What `start` runs when it is given no executable: `selfExecutable`,
    /// unless this process cannot be the child (a test runner) and names
    /// one that can.
    public static var defaultExecutable: String {
        get { configuredExecutable.withLock { $0 } ?? selfExecutable }
        set { configuredExecutable.withLock { $0 = newValue } }
    }

    /// The program file this process runs (readlink of /proc/self/exe).
    public static func runningProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(selfExecutable, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An executable in the same directory as this process's program, if
    /// there is one: `stylusd` beside a test runner in .build/debug.
    public static func executableBesideThisProgram(named name: String) -> String? {
        guard let program = runningProgram(), let slash = program.lastIndex(of: "/") else { return nil }
        let path = "\(program[..<slash])/\(name)"
        return access(path, X_OK) == 0 ? path : nil
    }

    /// CLOCK_MONOTONIC in µs, the clock of `deadline`.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// The file's name, as errors name it.
    public let file: String
    /// The child's process id.
    public let pid: pid_t
    /// The read end of the child's standard output, O_NONBLOCK and close-on-exec; -1 once closed.
    public private(set) var fd: Int32
    /// CLOCK_MONOTONIC µs (`ConfigParse.now()`) after which the child is late: call `timeOut()`.
    public let deadline: Int64
    private let timeLimit: Int64
    private var reply: [UInt8] = []
    private var sawEnd = false
    private var outcome: Result<EngineConfig, ConfigError>?

    /// Set in every parser child's environment.
    static let childMarker = "STYLUSD_CONFIG_PARSE_CHILD"

    /// An answer is a few hundred bytes of JSON; a child that sends more is not answering.
    static let maxReplyBytes = 1 << 20

    private init(file: String, pid: pid_t, fd: Int32, timeLimit: Int64) {
        self.file = file
        self.pid = pid
        self.fd = fd
        self.timeLimit = timeLimit
        deadline = ConfigParse.now() + timeLimit
    }

    deinit {
        if outcome == nil {
            kill(pid, SIGKILL)
            reap(blocking: true)
        }
        closeFD()
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
        func failure(_ what: String, _ code: Int32 = errno) -> ConfigError {
            ConfigFile.cannotCheck("\(what): \(String(cString: strerror(code)))", file: file)
        }
        // Standard input: a memfd holding the bytes. Writing it never waits
        // on the child, whatever the size, and the child reads it from the start.
        let input = memfd_create("stylusd-config", CLINUX_MFD_CLOEXEC)
        guard input >= 0 else { throw failure("memfd_create") }
        var descriptors = [input]
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        guard writeFully(input, bytes) else { throw failure("writing the config to a memfd") }
        guard lseek(input, 0, SEEK_SET) == 0 else { throw failure("lseek") }
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw failure("pipe2") }
        descriptors += ends
        // A process started without 0, 1 or 2 open gets them back from these
        // calls; move ours above 2 so the dup2s below cannot trample each other.
        for i in descriptors.indices where descriptors[i] <= STDERR_FILENO {
            let moved = fcntl(descriptors[i], F_DUPFD_CLOEXEC, STDERR_FILENO + 1)
            guard moved >= 0 else { throw failure("fcntl(F_DUPFD_CLOEXEC)") }
            close(descriptors[i])
            descriptors[i] = moved
        }
        let (memfd, readEnd, writeEnd) = (descriptors[0], descriptors[1], descriptors[2])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Standard error stays the parent's: a child that dies (toml++'s
        // assertion text, a Swift fatal error) says why where the daemon's
        // own log goes, and the child writes nothing there otherwise.
        // Everything else the parent holds (its socket, clients, input nodes) is closed.
        guard posix_spawn_file_actions_adddup2(&actions, memfd, STDIN_FILENO) == 0,
              posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO) == 0,
              posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1) == 0
        else { throw failure("posix_spawn_file_actions", ENOMEM) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The daemon blocks SIGTERM, SIGINT and SIGHUP for its signalfd and
        // ignores SIGPIPE; exec keeps both. The child starts with neither.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signo in [SIGPIPE, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signo) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let program = executable ?? defaultExecutable
        let name = program == selfExecutable ? (runningProgram() ?? program) : program
        let arguments = [name, ConfigParseChild.command, "--", file]
        // The Swift runtime's backtracer would spend seconds symbolicating a
        // toml++ abort and print a page about it; the parent reports it in one line.
        var environment = ProcessEnvironment.current
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[childMarker] = "1"
        let environmentStrings = environment.map { "\($0.key)=\($0.value)" }

        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environmentStrings) { envp in
                posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard spawned == 0 else { throw failure("cannot start the parser child \(program)", spawned) }
        close(writeEnd)
        close(memfd)
        descriptors = []
        let flags = fcntl(readEnd, F_GETFL)
        _ = fcntl(readEnd, F_SETFL, (flags < 0 ? 0 : flags) | O_NONBLOCK)
        return ConfigParse(file: file, pid: pid, fd: readEnd, timeLimit: timeLimit)
    }

    /// Reads what the child has sent so far without waiting. True once the
    /// answer is complete (the child closed its end): then call `finish()`.
    public func readAvailable() -> Bool {
        guard !sawEnd, fd >= 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n > 0 {
                reply += chunk[0..<n]
                if reply.count > Self.maxReplyBytes { sawEnd = true; return true }
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return false }
            sawEnd = true   // EOF, or an error that ends the answer just the same
            return true
        }
    }

    /// Waits for the rest of the answer (until `deadline`), reaps the child
    /// and says what it found. Called again, returns the same.
    public func finish() -> Result<EngineConfig, ConfigError> {
        if let outcome { return outcome }
        while !readAvailable() {
            let left = deadline - ConfigParse.now()
            if left <= 0 { return .failure(timeOut()) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(clamping: (left + 999) / 1000))
        }
        closeFD()
        if reply.count > Self.maxReplyBytes {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
            return settle(.failure(ConfigFile.parserDied("answered with more than \(Self.maxReplyBytes) bytes", file: file)))
        }
        // The child has closed its output, so it is ending; one that stays
        // on regardless is stopped at the deadline like one that never answers.
        var status: Int32?
        while true {
            switch reap(blocking: false) {
            case .exited(let s): status = s
            case .failed(let reason): return settle(.failure(ConfigFile.cannotCheck(reason, file: file)))
            case .running:
                if ConfigParse.now() >= deadline { return .failure(timeOut()) }
                usleep(1000)
                continue
            }
            break
        }
        return settle(describe(status: status!))
    }

    /// Kills the child (SIGKILL), reaps it, and returns the error for a parser that never answered.
    public func timeOut() -> ConfigError {
        let error = ConfigFile.parserDied("did not finish within \(Self.describe(duration: timeLimit)) and was stopped", file: file)
        if outcome == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
            closeFD()
            outcome = .failure(error)
        }
        return error
    }

    private func settle(_ result: Result<EngineConfig, ConfigError>) -> Result<EngineConfig, ConfigError> {
        outcome = result
        return result
    }

    private func describe(status: Int32) -> Result<EngineConfig, ConfigError> {
        let signalled = status & 0x7f
        if signalled != 0 {
            return .failure(ConfigFile.parserDied("was killed by signal \(signalled) (\(String(cString: strsignal(signalled))))", file: file))
        }
        return ConfigParseChild.decode(status: (status >> 8) & 0xff, reply: reply, file: file)
    }

    static func describe(duration microseconds: Int64) -> String {
        microseconds % 1_000_000 == 0 ? "\(microseconds / 1_000_000) s" : "\(microseconds / 1000) ms"
    }

    private enum Reaped { case exited(Int32), running, failed(String) }
    private var reaped = false

    @discardableResult
    private func reap(blocking: Bool) -> Reaped {
        guard !reaped else { return .failed("the parser child was already reaped") }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid {
                reaped = true
                return .exited(status)
            }
            if result == 0 { return .running }
            if errno == EINTR { continue }
            reaped = true   // ECHILD: someone else reaped it (SIGCHLD ignored); nothing left to wait for
            return .failed("waitpid: \(String(cString: strerror(errno)))")
        }
    }

    private func closeFD() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }
}

/// Calls `body` with a NULL-terminated C array of `strings`, freed afterwards.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
