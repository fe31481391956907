import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A helper program started with posix_spawn (fork and exec in one step,
/// so no Swift code runs in a forked copy of a threaded process), whose
/// standard output is a non-blocking pipe the caller polls. Its standard
/// input is the given bytes, its standard error the caller's.
public final class ChildProcess {
    public let pid: pid_t
    /// The read end of the child's standard output; poll it for POLLIN.
    public private(set) var fd: Int32
    public private(set) var output: [UInt8] = []
    public private(set) var reachedEOF = false
    private var exitStatus: Int32?

    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `executable` with `arguments` (argv[0] included).
    public init(executable: String, arguments: [String], input: [UInt8] = []) throws(SystemCallError) {
        let inputFD = try Self.descriptor(holding: input)
        defer { close(inputFD) }
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe2") { pipe2(&ends, O_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies, so only 0, 1 and 2 reach the child.
        posix_spawn_file_actions_adddup2(&actions, inputFD, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The daemon blocks SIGTERM, SIGINT and SIGHUP for its signalfd; the
        // child must be stoppable and must not inherit that mask.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGABRT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        close(ends[1])
        guard result == 0 else {
            close(ends[0])
            throw SystemCallError("posix_spawn", executable, errno: Errno(rawValue: result))
        }
        pid = child
        fd = ends[0]
        try makeNonBlockingCloseOnExec(fd)
    }

    /// A descriptor positioned at the start of `bytes`: a memfd, so writing
    /// it never blocks on a child that does not read.
    private static func descriptor(holding bytes: [UInt8]) throws(SystemCallError) -> Int32 {
        let fd = try systemCall("memfd_create") { memfd_create("stylusd-input", CLINUX_MFD_CLOEXEC) }
        guard writeAll(fd, bytes), lseek(fd, 0, SEEK_SET) == 0 else {
            let error = SystemCallError.last("write", "memfd")
            close(fd)
            throw error
        }
        return fd
    }

    deinit {
        if fd >= 0 { close(fd) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = retryingInterrupts { waitpid(pid, &status, 0) }
        }
    }

    /// Reads what the pipe holds now; true once the child closed it.
    @discardableResult
    public func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while !reachedEOF {
            let n = retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
            if n > 0 { output += chunk[0..<n]; continue }
            if n < 0, errno == EAGAIN { break }
            reachedEOF = true   // EOF, or an error that ends the stream just the same
        }
        return reachedEOF
    }

    /// Waits for the child to end (call after EOF, when it is about to) and says how.
    public func wait() -> Ending {
        if fd >= 0 { close(fd); fd = -1 }
        var status: Int32 = 0
        if exitStatus == nil {
            if retryingInterrupts({ waitpid(pid, &status, 0) }) < 0 { status = 0x7f00 }   // cannot happen for our own child
            exitStatus = status
        }
        let s = exitStatus!
        return s & 0x7f != 0 ? .signalled(s & 0x7f) : .exited((s >> 8) & 0xff)
    }

    /// Kills the child (SIGKILL) and reaps it.
    public func stop() -> Ending {
        if exitStatus == nil { kill(pid, SIGKILL) }
        return wait()
    }

    /// This process's own executable, for starting itself as a helper.
    public static var selfExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/proc/self/exe"
    }
}
