// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Microseconds on CLOCK_MONOTONIC: the clock the kernel stamps input
/// events with (libinput's times, and evdev's once asked for it), so
/// deadlines and event times compare directly. The daemon's only clock.
public func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}

/// Microseconds on CLOCK_MONOTONIC_COARSE: the same clock at the
/// scheduler tick's resolution (1-10 ms), read from the vDSO's data page
/// whatever the clock source. For what the loop stamps at every turn and
/// only a slow check reads (the grab watchdog's second-long limits): where
/// the clock source cannot be read from user space (HPET, as in an emulated
/// machine), CLOCK_MONOTONIC is a system call, once per pen frame.
public func coarseMonotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
