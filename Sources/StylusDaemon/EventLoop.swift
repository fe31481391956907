// SPDX-License-Identifier: MIT
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals as a file descriptor, so they join the poll set instead of
/// interrupting it.
final class SignalDescriptor {
    let fd: Int32

    init(_ signals: [Int32]) throws(DaemonError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { throw DaemonError.system("sigprocmask", errno) }
        // An ignored signal is discarded, blocked or not, and never reaches
        // the signalfd. A shell script's `stylusd &` starts it with SIGINT
        // ignored (and nohup with SIGHUP): take them back, now that they are blocked.
        for s in signals { signal(s, SIG_DFL) }
        fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw DaemonError.system("signalfd", errno) }
    }

    deinit { close(fd) }

    /// The signals that arrived since the last call.
    func drain() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}

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

public enum DaemonError: Error, CustomStringConvertible {
    case system(String, Int32)
    case input(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .input(let message): message
        }
    }
}
