// SPDX-License-Identifier: MIT
import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a new detached thread: for work that blocks in system
/// calls (a subscription's read, a state file's fsync) and so does not
/// belong in Swift's cooperative task pool.
public func startDetachedThread(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { argument in
        Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, box)
    guard created == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        throw SystemCallError("pthread_create", errno: Errno(rawValue: created))
    }
    pthread_detach(thread)
}

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

/// A condition variable with its own mutex, for a worker thread that
/// sleeps until the loop hands it something (no timed wakeups).
public final class WorkSignal<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Changes the value and wakes every waiter.
    public func update<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Waits until `body` returns non-nil for the value (it may change it), and returns that.
    public func wait<R>(until body: (inout Value) -> R?) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&value) { return result }
            pthread_cond_wait(condition, mutex)
        }
    }
}
