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
