// SPDX-License-Identifier: MIT
import CLinux
import StylusInput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The listening socket: from systemd (socket activation) or bound here,
/// with a lock so that only one daemon serves a socket path.
final class Listener {
    let fd: Int32
    let path: String
    let activated: Bool
    private let lockFD: Int32
    private var removeOnClose: Bool

    /// - Throws: a message meant for the user, naming what is wrong and where.
    init(path: String, environment: [String: String]) throws(DaemonError) {
        self.path = path
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try Self.prepareDirectory(directory.isEmpty ? "." : directory)

        lockFD = open("\(path).lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lockFD >= 0 else { throw .input("\(path).lock: cannot open the lock file: \(String(cString: strerror(errno)))") }
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            close(lockFD)
            throw .input("another stylusd is already running on \(path); stop it first (systemctl --user stop stylusd) or pass a different --socket")
        }

        if let listenFD = try Self.activatedSocket(environment) {
            fd = listenFD
            activated = true
            removeOnClose = false
            return
        }
        activated = false

        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                close(lockFD)
                throw .input("\(path) exists and is not a socket; not touching it")
            }
            // We hold the lock, so whoever made this socket is gone.
            unlink(path)
        }
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch {
            close(lockFD)
            throw .input("\(path): socket path longer than \(UnixSocketAddress.maxPathBytes) bytes")
        }
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard sock >= 0 else { close(lockFD); throw .system("socket", errno) }
        let oldMask = umask(0o177)
        let bound = address.withSockaddr { bind(sock, $0, $1) }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            close(sock); close(lockFD)
            throw .input("\(path): cannot bind: \(String(cString: strerror(bindErrno)))")
        }
        // umask already made it 0600; this only matters where a umask could not.
        guard chmod(path, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            close(sock); close(lockFD)
            throw .input("\(path): cannot make the socket private (chmod 0600): \(reason)")
        }
        guard listen(sock, SOMAXCONN) == 0 else { close(sock); close(lockFD); throw .system("listen", errno) }
        fd = sock
        removeOnClose = true
    }

    deinit {
        close(fd)
        if removeOnClose { unlink(path) }
        close(lockFD)
    }

    /// The socket's directory must be ours and private; a missing one is created 0700.
    static func prepareDirectory(_ directory: String) throws(DaemonError) {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else { throw .input("\(directory): \(String(cString: strerror(errno)))") }
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw .input("\(directory): cannot create: \(String(cString: strerror(errno)))")
            }
            guard lstat(directory, &info) == 0 else { throw .input("\(directory): \(String(cString: strerror(errno)))") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .input("\(directory) is not a directory (a symlink or a file is there); not using it")
        }
        guard info.st_uid == getuid() else {
            throw .input("\(directory) belongs to uid \(info.st_uid), not to you (uid \(getuid())); not using it")
        }
        if info.st_mode & 0o077 != 0, chmod(directory, 0o700) != 0 {
            throw .input("\(directory) is accessible to others and cannot be made private: \(String(cString: strerror(errno)))")
        }
    }

    /// systemd's socket activation: LISTEN_PID is us, LISTEN_FDS ≥ 1, fd 3
    /// is a listening Unix stream socket.
    static func activatedSocket(_ environment: [String: String]) throws(DaemonError) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        var type: Int32 = 0, listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw .input("socket activation: fd 3 is not a socket: \(String(cString: strerror(errno)))")
        }
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .input("socket activation: fd 3 is not a stream socket (type \(type)); use ListenStream= in stylusd.socket")
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length)
        guard listening != 0 else { throw .input("socket activation: fd 3 is not listening") }
        var address = sockaddr_storage()
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
        }
        guard address.ss_family == sa_family_t(AF_UNIX) else { throw .input("socket activation: fd 3 is not a Unix socket") }
        do { try makeNonBlockingCloseOnExec(fd) } catch { throw .input("socket activation: fd 3: \(error)") }
        return fd
    }
}

/// sd_notify without libsystemd: one datagram to $NOTIFY_SOCKET.
struct ServiceNotifier {
    private let address: UnixSocketAddress?

    init(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@") else {
            address = nil
            return
        }
        address = try? UnixSocketAddress(notation: path)
    }

    func send(_ state: String) {
        guard let address else { return }
        let sock = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sock >= 0 else { return }
        defer { close(sock) }
        // Best effort, as sd_notify is: systemd not listening changes nothing here.
        _ = Array(state.utf8).withUnsafeBytes { message in
            address.withSockaddr { sendto(sock, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
    }
}
