// SPDX-License-Identifier: MIT
import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A helper program started with posix_spawn (fork and exec in one step,
/// so no Swift code runs in a forked copy of a threaded process), whose
/// standard output is a non-blocking pipe the caller polls. Its standard
/// input is the given bytes (a memfd, so starting it never blocks on a
/// pipe whatever their size), its standard error the caller's, and nothing
/// else the caller holds (sockets, clients, input nodes) reaches it.
/// Dropping one that has not been waited for kills and reaps it.
public final class ChildProcess {
    public let pid: pid_t
    /// The read end of the child's standard output; poll it for POLLIN. -1 once closed.
    public private(set) var fd: Int32
    /// Everything the child wrote and nobody took (with `unreadOutput`).
    public var output: [UInt8] { Array(unreadOutput.unread) }
    /// The child's output not yet taken, for a caller that reads it line by line;
    /// its line limit is `maxOutputBytes`, a caller's own is tighter.
    public var unreadOutput: LineBuffer
    /// The write end of the child's standard input, for a child started with
    /// `inputPipe` (a helper that serves one request after another); -1 otherwise.
    public private(set) var inputFD: Int32 = -1
    /// The output ended (EOF), or passed `maxOutputBytes`.
    public private(set) var reachedEnd = false
    public var outputOverflowed: Bool { unreadOutput.count > maxOutputBytes }
    private let maxOutputBytes: Int
    private var ending: Ending?

    public enum Ending: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signo): "killed by signal \(signo) (\(String(cString: strsignal(signo))))"
            }
        }
    }

    /// Starts `executable` with `arguments` (argv[0] included).
    /// - Parameters:
    ///   - environment: the child's environment; nil passes this process's.
    ///   - niceness: added to the child's nice value, so a helper never
    ///     competes with the daemon's loop for the CPU.
    ///   - inputPipe: standard input is a pipe whose write end (`inputFD`,
    ///     non-blocking) the caller keeps, instead of `input`'s bytes.
    ///   - outputToStandardError: the child's standard output is this
    ///     process's standard error (the daemon's log) instead of a pipe;
    ///     `fd` is then -1. A user's command writes there, and can go on
    ///     writing after the daemon is gone, where a pipe would kill it with SIGPIPE.
    public init(executable: String, arguments: [String], input: [UInt8] = [], inputPipe: Bool = false,
                environment: [String]? = nil, niceness: Int32 = 0, maxOutputBytes: Int = 16 << 20,
                outputToStandardError: Bool = false) throws(SystemCallError) {
        self.maxOutputBytes = maxOutputBytes
        unreadOutput = LineBuffer(limit: maxOutputBytes)
        var descriptors: [Int32] = []
        defer { for d in descriptors { close(d) } }
        var inputWriteEnd: Int32 = -1
        var keepsInputWriteEnd = false
        defer { if !keepsInputWriteEnd, inputWriteEnd >= 0 { close(inputWriteEnd) } }
        if inputPipe {
            var ends: [Int32] = [-1, -1]
            try systemCall("pipe2") { pipe2(&ends, O_CLOEXEC) }
            descriptors.append(ends[0])
            inputWriteEnd = ends[1]
        } else {
            let memfd = try systemCall("memfd_create") { memfd_create("stylusd-child-input", CLINUX_MFD_CLOEXEC) }
            descriptors.append(memfd)
            guard writeAll(memfd, input), lseek(memfd, 0, SEEK_SET) == 0 else { throw SystemCallError.last("write", "memfd") }
        }
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe2") { pipe2(&ends, O_CLOEXEC) }
        descriptors += ends
        // A process started without 0, 1 or 2 open gets them back from the
        // calls above; move ours above 2 so the dup2s below cannot trample each other.
        for i in descriptors.indices where descriptors[i] <= STDERR_FILENO {
            let moved = try systemCall("fcntl(F_DUPFD_CLOEXEC)") { fcntl(descriptors[i], F_DUPFD_CLOEXEC, STDERR_FILENO + 1) }
            close(descriptors[i])
            descriptors[i] = moved
        }
        let (childInput, readEnd, writeEnd) = (descriptors[0], descriptors[1], descriptors[2])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn_file_actions_adddup2(&actions, childInput, STDIN_FILENO) == 0,
              posix_spawn_file_actions_adddup2(&actions, outputToStandardError ? STDERR_FILENO : writeEnd, STDOUT_FILENO) == 0,
              posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1) == 0
        else { throw SystemCallError("posix_spawn_file_actions", executable, errno: Errno(rawValue: ENOMEM)) }

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

        var child: pid_t = 0
        let result = withCStrings(arguments) { argv in
            if let environment {
                return withCStrings(environment) { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
            }
            return posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        }
        guard result == 0 else {
            throw SystemCallError("posix_spawn", executable, errno: Errno(rawValue: result))
        }
        if inputWriteEnd >= 0 {
            let inputFlags = fcntl(inputWriteEnd, F_GETFL)
            _ = fcntl(inputWriteEnd, F_SETFL, (inputFlags < 0 ? 0 : inputFlags) | O_NONBLOCK)
            keepsInputWriteEnd = true
        }
        if niceness > 0 {
            // Lowering a child of one's own needs no privilege; a failure only costs priority.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(child), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + niceness)
        }
        pid = child
        inputFD = keepsInputWriteEnd ? inputWriteEnd : -1
        if outputToStandardError {
            // The pipe went to nobody: nothing to read.
            fd = -1
            reachedEnd = true
            return   // the defer closes every descriptor, the read end too
        }
        fd = readEnd
        descriptors = [childInput, writeEnd]   // closed by the defer; the read end is ours
        let flags = fcntl(readEnd, F_GETFL)
        _ = fcntl(readEnd, F_SETFL, (flags < 0 ? 0 : flags) | O_NONBLOCK)
    }

    /// Whether dropping this object before `wait` kills the child. A user's
    /// command outlives a daemon that stops (the service manager or init reaps it).
    public var killedWhenDropped = true

    deinit {
        if inputFD >= 0 { close(inputFD) }
        closeOutput()
        if ending == nil, killedWhenDropped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = retryingInterrupts { waitpid(pid, &status, 0) }
        }
    }

    /// Reads what the pipe holds now, without waiting; true once the output has ended.
    @discardableResult
    public func readAvailable() -> Bool {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)   // not zeroed: read fills it
        defer { chunk.deallocate() }
        while !reachedEnd, fd >= 0 {
            let n = retryingInterrupts { read(fd, chunk.baseAddress!, chunk.count) }
            if n > 0 {
                unreadOutput.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                if outputOverflowed { reachedEnd = true }
                continue
            }
            if n < 0, errno == EAGAIN { break }
            reachedEnd = true   // EOF, or an error that ends the stream just the same
        }
        return reachedEnd || fd < 0
    }

    /// Closes the child's standard input: a serving child sees EOF and ends.
    public func closeInput() {
        if inputFD >= 0 {
            close(inputFD)
            inputFD = -1
        }
    }

    /// Waits for the child to end and says how. Call it once the output has
    /// ended (the child is then exiting); a child that sends too much is killed first.
    public func wait() -> Ending {
        closeOutput()
        if outputOverflowed, ending == nil { kill(pid, SIGKILL) }
        if let ending { return ending }
        var status: Int32 = 0
        let reaped = retryingInterrupts { waitpid(pid, &status, 0) }
        // ECHILD (SIGCHLD ignored by someone): nothing is known; call it a clean exit of nothing.
        let result: Ending = reaped < 0 ? .exited(0) : (status & 0x7f != 0 ? .signalled(status & 0x7f) : .exited((status >> 8) & 0xff))
        ending = result
        return result
    }

    /// True once `wait` or `stop` reaped it: its pid is no longer its own.
    public var wasReaped: Bool { ending != nil }

    /// A descriptor (pidfd, close-on-exec) that polls readable once the
    /// child has ended: then `wait()` returns at once. The caller closes it.
    public func endingDescriptor() throws(SystemCallError) -> Int32 {
        try systemCall("pidfd_open") { clinux_pidfd_open(pid) }
    }

    /// Kills the child (SIGKILL) and reaps it.
    @discardableResult
    public func stop() -> Ending {
        if ending == nil { kill(pid, SIGKILL) }
        return wait()
    }

    private func closeOutput() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    /// The program file this process runs (readlink of /proc/self/exe).
    public static var runningProgram: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}

/// Calls `body` with a NULL-terminated C array of `strings`, freed afterwards.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
