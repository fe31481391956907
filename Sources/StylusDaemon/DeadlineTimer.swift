// SPDX-License-Identifier: MIT
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A CLOCK_MONOTONIC timer armed only while the engine has a deadline; the
/// same clock libinput stamps events with.
final class DeadlineTimer {
    let fd: Int32
    private(set) var armedAt: Int64?

    init() throws(DaemonError) {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw DaemonError.system("timerfd_create", errno) }
    }

    deinit { close(fd) }

    /// Arms for `deadline` (µs, CLOCK_MONOTONIC), or disarms for nil.
    /// False when the kernel refused: the deadline will not fire.
    @discardableResult
    func set(_ deadline: Int64?) -> Bool {
        guard deadline != armedAt else { return true }
        armedAt = deadline
        var spec = itimerspec()
        if let deadline {
            // 0 would disarm: a deadline at or before the epoch fires at once instead.
            let at = max(deadline, 1)
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000), tv_nsec: Int(at % 1_000_000) * 1000)
        }
        guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
            armedAt = nil
            return false
        }
        return true
    }

    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
    }
}
