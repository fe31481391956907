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
