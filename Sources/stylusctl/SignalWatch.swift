// SPDX-License-Identifier: MIT
import ArgumentParser
import CLinux
import StylusClient
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Signals read from a signalfd: blocked for the whole process before any
/// thread starts (threads inherit the mask), so none runs a handler.
struct SignalWatch {
    let fd: Int32

    init(_ signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw ExitCode(1) }
        fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else {
            printError("stylusctl: signalfd: \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
    }

    func drain() -> [Int32] {
        var found: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            found.append(Int32(info.ssi_signo))
        }
        return found
    }
}
