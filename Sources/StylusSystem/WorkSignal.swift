// SPDX-License-Identifier: MIT
import CLinux
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

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
