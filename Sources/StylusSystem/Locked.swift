// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex. Synchronization's `Mutex` is a futex
/// the ThreadSanitizer cannot see: it reported the accesses it guards as
/// races (between cancelling a subscription and its thread ending). A
/// pthread mutex is one it knows, so `make test-sanitize` stays meaningful.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
