// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// A parse that an event loop waits for: poll `fd` for POLLIN, call
/// `readAvailable()` when it is ready and `finish()` once that returns
/// true; if `deadline` passes first, call `timeOut()`.
public protocol PendingConfigParse: AnyObject {
    var fd: Int32 { get }
    var deadline: Int64 { get }
    func readAvailable() -> Bool
    func finish() -> Result<EngineConfig, ConfigError>
    func timeOut() -> ConfigError
}

extension ConfigParse: PendingConfigParse {}

/// One parser child kept for reload after reload (`parse-config-child
/// --serve`): starting a process per reload cost the daemon a vfork and an
/// exec each time, and on a slow machine most of a second of CPU. The child
/// is started at the first request and started again after it died (toml++
/// aborting on a file kills only it) or hung (killed at the deadline); once
/// what TOMLKit kept passes its growth limit it execs itself afresh, in the
/// same process. A file too big for one write into the pipe goes to a one-shot
/// `ConfigParse` instead.
public final class ConfigParseServer {
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

    public init(executable: String? = nil, timeLimit: Int64 = ConfigParse.timeLimit,
                growthLimitKiB: Int = ConfigParseChild.defaultGrowthLimitKiB) {
        self.executable = executable
        self.timeLimit = timeLimit
        self.growthLimitKiB = growthLimitKiB
    }

    /// Starts parsing `bytes`: through the kept child when it fits, else in a
    /// child of its own. One parse at a time: the caller waits for the last one.
    public func start(_ bytes: [UInt8], file: String) throws(ConfigError) -> any PendingConfigParse {
        let name = Array(file.utf8)
        guard !busy, bytes.count <= Self.maxServedFileBytes, name.count <= 4096 else {
            return try ConfigParse.start(bytes, file: file, executable: executable, timeLimit: timeLimit)
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
                throw ConfigFile.cannotCheck("cannot send the file to the parser child: \(String(cString: strerror(errno)))", file: file)
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
        let program = executable ?? ConfigParse.defaultExecutable
        let name = program == ConfigParse.selfExecutable ? (ConfigParse.runningProgram() ?? program) : program
        do {
            let started = try ChildProcess(executable: program, arguments: [name, ConfigParseChild.command, ConfigParseChild.serveFlag,
                                                                                ConfigParseChild.growthLimitFlag, String(growthLimitKiB)],
                                           inputPipe: true, environment: ConfigParse.childEnvironment(),
                                           niceness: ConfigParse.niceness, maxOutputBytes: ConfigParse.maxReplyBytes + 64)
            child = started
            busy = true
            return started
        } catch {
            throw ConfigFile.cannotCheck("cannot start the parser child \(program): \(error.errno.reason)", file: "config")
        }
    }

    fileprivate func finished(_ child: ChildProcess, keep: Bool) {
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
        let now = ConfigParse.now()
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

    private func reapRetired() { reapRetired(now: ConfigParse.now()) }

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

/// One request to the kept child.
final class ServedParse: PendingConfigParse {
    private let server: ConfigParseServer
    private let child: ChildProcess
    private let file: String
    let deadline: Int64
    private let timeLimit: Int64
    private var outcome: Result<EngineConfig, ConfigError>?
    private var reply: (status: Int32, bytes: [UInt8])?

    init(server: ConfigParseServer, child: ChildProcess, file: String, timeLimit: Int64) {
        self.server = server
        self.child = child
        self.file = file
        self.timeLimit = timeLimit
        deadline = ConfigParse.now() + timeLimit
    }

    var fd: Int32 { child.fd }

    /// True once the answer is complete, or the child ended without one.
    func readAvailable() -> Bool {
        if outcome != nil || reply != nil { return true }
        let ended = child.readAvailable()
        if let newline = child.output.firstIndex(of: 0x0a) {
            let header = child.output[..<newline].split(separator: 0x20).compactMap { Int32(String(decoding: $0, as: UTF8.self)) }
            if header.count == 2, child.output.count >= newline + 1 + Int(header[1]) {
                let start = newline + 1
                reply = (header[0], Array(child.output[start..<(start + Int(header[1]))]))
                child.consumeOutput(start + Int(header[1]))
                return true
            }
        }
        return ended
    }

    func finish() -> Result<EngineConfig, ConfigError> {
        if let outcome { return outcome }
        while !readAvailable() {
            let left = deadline - ConfigParse.now()
            if left <= 0 { return .failure(timeOut()) }
            var ready = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(clamping: (left + 999) / 1000))
        }
        let result: Result<EngineConfig, ConfigError>
        if let reply {
            result = ConfigParseChild.decode(status: reply.status, reply: reply.bytes, file: file)
            server.finished(child, keep: !child.reachedEnd)
        } else {
            // It ended without an answer: toml++ aborted on this file, most likely.
            let ending = child.wait()
            server.finished(child, keep: false)
            if case .signalled(let signo) = ending {
                result = .failure(ConfigFile.parserDied("was killed by signal \(signo) (\(String(cString: strsignal(signo))))", file: file))
            } else {
                result = .failure(ConfigFile.parserDied("ended without a complete answer (\(ending))", file: file))
            }
        }
        outcome = result
        return result
    }

    func timeOut() -> ConfigError {
        let error = ConfigFile.parserDied("did not finish within \(ConfigParse.describe(duration: timeLimit)) and was stopped", file: file)
        if outcome == nil {
            server.finished(child, keep: false)
            outcome = .failure(error)
        }
        return error
    }
}
