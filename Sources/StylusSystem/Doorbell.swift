// SPDX-License-Identifier: MIT
import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An eventfd that another thread rings to wake a poll loop: poll `fd` for
/// POLLIN, then `drain()`. Rings between two drains count as one.
public final class Doorbell: @unchecked Sendable {
    public let fd: Int32

    public init() throws(SystemCallError) {
        fd = try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    public func ring() {
        var one: UInt64 = 1
        // EAGAIN only when the counter is full: the loop has not drained yet, and will.
        _ = retryingInterrupts { write(fd, &one, 8) }
    }

    public func drain() {
        var count: UInt64 = 0
        _ = retryingInterrupts { read(fd, &count, 8) }
    }
}
