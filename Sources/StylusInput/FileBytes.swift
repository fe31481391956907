// SPDX-License-Identifier: MIT
// The system layer is part of what this module offers its users.
@_exported import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

public struct SystemError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32

    public var description: String {
        "\(path): \(operation) failed: \(String(cString: strerror(errno)))"
    }
}

/// Reads a whole file into memory with plain read(2): recordings are a few
/// megabytes, and the page cache already holds them. Past `limit` bytes it
/// stops with EFBIG, so a path like /dev/zero cannot fill memory.
public func readFileBytes(_ path: String, followSymlinks: Bool = true, limit: Int = Int.max) throws(SystemError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | (followSymlinks ? 0 : O_NOFOLLOW))
    guard fd >= 0 else { throw SystemError(operation: "open", path: path, errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SystemError(operation: "stat", path: path, errno: errno) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw SystemError(operation: "read", path: path, errno: EISDIR) }
    // sysfs and procfs report sizes that are not the content's; read until EOF either way.
    var bytes = [UInt8]()
    bytes.reserveCapacity(max(Int(info.st_size), 0) + 1)
    // A chunk the size of the file (plus one read to see EOF), at most 1 MiB: a
    // zeroed megabyte for every small file was the largest single cost of a flood
    // of `reload` in the emulated guest (a config file is a few hundred bytes).
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(Int(info.st_size) + 1, 4096)))
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw SystemError(operation: "read", path: path, errno: errno)
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > limit { throw SystemError(operation: "read", path: path, errno: EFBIG) }
    }
    return bytes
}
