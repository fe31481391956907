// SPDX-License-Identifier: MIT
import StylusSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Helper processes")
struct ChildProcessTests {
    /// Polls the child's pipe until EOF (what the daemon's loop does).
    static func collect(_ child: ChildProcess, timeoutMS: Int32 = 5000) -> Bool {
        while true {
            var p = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeoutMS) == 1 else { return false }
            if child.readAvailable() { return true }
        }
    }

    @Test func theChildReadsItsInputAndItsOutputArrivesThroughThePipe() throws {
        let input = Array("stroke\n".utf8) + [UInt8](repeating: 0x61, count: 200_000) + [0x0a]
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", "wc -c"], input: input)
        #expect(Self.collect(child))
        #expect(child.wait() == .exited(0))
        #expect(String(decoding: child.output, as: UTF8.self).split(separator: " ").last == "\(input.count)\n" || Int(String(decoding: child.output.filter { $0 > 0x20 }, as: UTF8.self)) == input.count)
    }

    @Test func theExitStatusAndASignalAreTold() throws {
        let failing = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", "exit 3"])
        #expect(Self.collect(failing))
        #expect(failing.wait() == .exited(3))
        let aborted = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", "kill -ABRT $$"])
        #expect(Self.collect(aborted))
        #expect(aborted.wait() == .signalled(SIGABRT))
    }

    @Test func aHangingChildIsStopped() throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["sleep", "60"])
        var p = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 50) == 0, "nothing to read while it sleeps")
        #expect(child.stop() == .signalled(SIGKILL))
    }

    @Test func aMissingExecutableIsAnErrorNamingIt() {
        #expect {
            _ = try ChildProcess(executable: "/nonexistent/stylusd", arguments: ["stylusd"])
        } throws: { error in
            "\(error)".contains("/nonexistent/stylusd") && "\(error)".contains("No such file")
        }
    }

    @Test func onlyStandardStreamsReachTheChild() throws {
        // Numbered high: `ls` opens /proc/self/fd itself as its lowest free descriptor (3),
        // which a low `extra` would be mistaken for (seen under ThreadSanitizer in CI).
        let low = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let extra = fcntl(low, F_DUPFD_CLOEXEC, 200)
        close(low)
        defer { close(extra) }
        #expect(extra >= 200)
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", "ls /proc/self/fd"])
        #expect(Self.collect(child))
        _ = child.wait()
        let fds = String(decoding: child.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(!fds.contains(Int(extra)), "fds: \(fds)")
    }

    @Test func theUnixSocketAddressRefusesAPathThatDoesNotFit() {
        #expect(throws: SystemCallError.self) { try UnixSocketAddress(path: String(repeating: "a", count: 200)) }
        #expect(throws: SystemCallError.self) { try UnixSocketAddress(path: "") }
    }
}

@Suite("Helper processes' priority")
struct ChildProcessPriorityTests {
    @Test func aHelperRunsBelowItsParentInCPUPriority() throws {
        // Field 19 of /proc/PID/stat is the nice value.
        // It reads its nice value only after EOF on its input, which comes after init has set the priority.
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", "read x; cut -d' ' -f19 /proc/$$/stat"],
                                     inputPipe: true, niceness: 10)
        child.closeInput()
        while !child.readAvailable() {
            var p = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 5000)
        }
        _ = child.wait()
        let nice = Int(String(decoding: child.output.filter { $0 > 0x20 }, as: UTF8.self))
        #expect(nice == Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) + 10)
    }
}
