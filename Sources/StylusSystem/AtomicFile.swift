// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Replaces `path` with `bytes` so that a crash or a full disk leaves the old
/// file or the new one, never a mix: a temporary file beside it (`temporary`,
/// in the same folder), written in full and fsynced, given `mode`, renamed
/// over `path`, then the folder fsynced so that the rename itself lasts. On
/// failure the temporary file is removed and `path` is as it was.
public func replaceFileAtomically(_ path: String, with bytes: [UInt8], temporary: String, mode: mode_t = 0o600) throws(SystemCallError) {
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
    guard fd >= 0 else { throw SystemCallError.last("open", temporary) }
    let failure: SystemCallError? =
        if !writeAll(fd, bytes) { SystemCallError.last("write", temporary) }
        else if fchmod(fd, mode) != 0 { SystemCallError.last("fchmod", temporary) }   // the mode asked, whatever the umask
        else if retryingInterrupts({ fsync(fd) }) != 0 { SystemCallError.last("fsync", temporary) }
        else { nil }
    close(fd)
    if let failure {
        unlink(temporary)
        throw failure
    }
    guard rename(temporary, path) == 0 else {
        let error = SystemCallError.last("rename", path)
        unlink(temporary)
        throw error
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryFD >= 0 {
        fsync(directoryFD)
        close(directoryFD)
    }
}
