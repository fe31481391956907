// SPDX-License-Identifier: MIT
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file into memory with plain read(2): recordings are a few
/// megabytes, and the page cache already holds them. Past `limit` bytes it
/// stops with EFBIG, so a path like /dev/zero cannot fill memory.
public func readFile(_ path: String, followSymlinks: Bool = true, limit: Int = Int.max) throws(SystemCallError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | (followSymlinks ? 0 : O_NOFOLLOW))
    guard fd >= 0 else { throw SystemCallError.last("open", path) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SystemCallError.last("stat", path) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw SystemCallError("read", path, errno: .isDirectory) }
    // sysfs and procfs report sizes that are not the content's; read until EOF either way.
    // A chunk the size of the file (plus one read to see EOF), at most 1 MiB: a
    // zeroed megabyte for every small file was the largest single cost of a flood
    // of `reload` in the emulated guest (a config file is a few hundred bytes).
    let bytes = try readToEnd(fd, stoppingAfter: limit, chunkSize: min(1 << 20, max(Int(info.st_size) + 1, 4096)),
                              reserving: max(Int(info.st_size), 0) + 1, subject: path)
    if bytes.count > limit { throw SystemCallError("read", path, errno: .fileTooLarge) }
    return bytes
}

/// Reads `fd` until EOF, or until it has more than `limit` bytes: then it
/// returns those, so that a caller can refuse the input by its size.
/// `subject` names the descriptor in the error.
public func readToEnd(_ fd: Int32, stoppingAfter limit: Int = Int.max, chunkSize: Int = 1 << 16, reserving: Int = 0,
                      subject: String? = nil) throws(SystemCallError) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(reserving)
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while bytes.count <= limit {
        let n = try systemCall("read", subject) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}
