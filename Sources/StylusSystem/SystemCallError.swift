// SPDX-License-Identifier: MIT
public import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on what, and the errno it left.
/// The one place where errno is read after a call and turned into an error.
public struct SystemCallError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var subject: String?
    public var errno: Errno

    public init(_ call: String, _ subject: String? = nil, errno: Errno) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// The error for the errno the last failed call left behind.
    public static func last(_ call: String, _ subject: String? = nil) -> SystemCallError {
        SystemCallError(call, subject, errno: Errno(rawValue: Glibc.errno))
    }

    public var description: String {
        if let subject { return "\(subject): \(call) failed: \(errno.reason)" }
        return "\(call) failed: \(errno.reason)"
    }
}

extension Errno {
    /// strerror's text ("No such file or directory"), as the user's tools print it.
    public var reason: String { String(cString: strerror(rawValue)) }
}

/// Calls `body` again while it fails with EINTR, so no caller handles that case itself.
@inline(__always)
public func retryingInterrupts<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
        let result = body()
        if result >= 0 || Glibc.errno != EINTR { return result }
    }
}

/// Runs a call that returns -1 and sets errno on failure (retrying EINTR)
/// and throws a `SystemCallError` naming it.
@discardableResult
@inline(__always)
public func systemCall<T: BinaryInteger>(_ name: String, _ subject: String? = nil, _ body: () -> T) throws(SystemCallError) -> T {
    let result = retryingInterrupts(body)
    if result < 0 { throw SystemCallError.last(name, subject) }
    return result
}

/// Sets O_NONBLOCK and FD_CLOEXEC on a descriptor stylusd owns.
public func makeNonBlockingCloseOnExec(_ fd: Int32) throws(SystemCallError) {
    let flags = try systemCall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
    try systemCall("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    try systemCall("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
}
