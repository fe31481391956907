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
/// megabytes, and the page cache already holds them.
public func readFileBytes(_ path: String) throws(SystemError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(operation: "open", path: path, errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SystemError(operation: "stat", path: path, errno: errno) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw SystemError(operation: "read", path: path, errno: EISDIR) }
    var bytes = [UInt8]()
    var capacity = max(Int(info.st_size), 0) + 1
    var length = 0
    while true {
        if length == bytes.count { bytes += [UInt8](repeating: 0, count: capacity); capacity = bytes.count }
        let n = bytes.withUnsafeMutableBytes { buffer in
            read(fd, buffer.baseAddress! + length, buffer.count - length)
        }
        if n < 0 {
            if errno == EINTR { continue }
            throw SystemError(operation: "read", path: path, errno: errno)
        }
        if n == 0 { break }
        length += n
    }
    bytes.removeSubrange(length...)
    return bytes
}

/// Writes bytes to a file descriptor in full, retrying short writes.
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
