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

/// Wakes the drawing loop from the subscription's thread; a full pipe
/// already means "wake up", so a failed write loses nothing.
final class WakePipe: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, Int32(O_CLOEXEC | O_NONBLOCK)) == 0 else {
            printError("stylusctl: pipe: \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    func signal() { _ = Glibc.write(writeFD, "x", 1) }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }
}
