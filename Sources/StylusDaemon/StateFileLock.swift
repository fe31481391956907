// SPDX-License-Identifier: MIT
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per state file, held from before the restore until exit: two
/// daemons on one file would each restore it and then overwrite each other's
/// drawing. The lock file beside the state file names the holder's socket,
/// so that a refused daemon can say which one to stop.
final class StateFileLock {
    private let fd: Int32
    let path: String

    /// - Throws: a message naming the state file and, when it can, the other daemon's socket.
    init(statePath: String, socketPath: String) throws(DaemonError) {
        path = "\(statePath).lock"
        do { try StateStore(path: statePath).createDirectory() } catch { throw .input("\(error)") }
        // Held read-only: a descriptor open for writing would keep the file
        // system from being remounted read-only under a running daemon.
        fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .input("\(path): cannot open the state file's lock: \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            let holder = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
            close(fd)
            throw .input("the state file \(statePath) is in use by another stylusd"
                         + (holder.isEmpty ? "" : " (the one on \(holder))")
                         + "; stop that one, or give this one a state file of its own with --state-file")
        }
        // Only for the message above: a lock without it still locks.
        let writer = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        if writer >= 0 {
            _ = writeAll(writer, Array(socketPath.utf8))
            close(writer)
        }
    }

    deinit { close(fd) }
}
