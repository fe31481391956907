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
