// SPDX-License-Identifier: MIT
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A filled-in `sockaddr_un` for a path, built in one place so that every
/// user gets the same length check and the same terminating NUL.
public struct UnixSocketAddress {
    public let path: String
    private var storage = sockaddr_un()
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// sun_path holds 108 bytes with the NUL; a longer path cannot be bound or reached.
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public init(path: String) throws(SystemCallError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxPathBytes, !bytes.contains(0) else {
            throw SystemCallError("socket address", path, errno: Errno(rawValue: ENAMETOOLONG))
        }
        self.path = path
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
    }

    /// An address in the abstract namespace (`@name`, as NOTIFY_SOCKET may
    /// give it): a leading NUL, and a length that ends exactly at the name.
    public init(abstract name: String) throws(SystemCallError) {
        let bytes = [0] + Array(name.utf8)
        guard bytes.count <= Self.maxPathBytes + 1 else {
            throw SystemCallError("socket address", "@" + name, errno: Errno(rawValue: ENAMETOOLONG))
        }
        path = "@" + name
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    /// `@name` for the abstract namespace, else a path.
    public init(notation: String) throws(SystemCallError) {
        if notation.hasPrefix("@") { try self.init(abstract: String(notation.dropFirst())) } else { try self.init(path: notation) }
    }

    /// Calls `body` with the address as the `sockaddr` pointer and length bind/connect take.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// A new stream socket (close-on-exec) connected to this address.
    public func connectStream(nonBlocking: Bool = false) throws(SystemCallError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = try systemCall("socket") { socket(AF_UNIX, type, 0) }
        let result = withSockaddr { address, length in retryingInterrupts { connect(fd, address, length) } }
        if result < 0, !(nonBlocking && errno == EINPROGRESS) {
            let error = SystemCallError.last("connect", path)
            close(fd)
            throw error
        }
        return fd
    }
}
