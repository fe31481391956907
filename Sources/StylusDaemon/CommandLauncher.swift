import StylusConfig
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs `exec:COMMAND` bindings without ever waiting on the loop: each
/// command is `/bin/sh -c COMMAND` started with posix_spawn, its standard
/// output and error one pipe whose lines go to the daemon's log, and its
/// end a pidfd in the poll set; a readable pidfd means the shell has ended,
/// so reaping it is immediate. At most one command runs per button: a
/// double press while the last one runs is refused with the reason.
final class CommandLauncher {
    private final class Running {
        let button: ButtonID
        let command: String
        let child: ChildProcess
        /// Polls readable once the shell has ended.
        let endFD: Int32
        /// Output after the last newline, logged when the line ends (or at the end).
        var partialLine: [UInt8] = []

        init(button: ButtonID, command: String, child: ChildProcess, endFD: Int32) {
            self.button = button
            self.command = command
            self.child = child
            self.endFD = endFD
        }

        deinit { close(endFD) }
    }

    /// A line of output longer than this is logged in pieces.
    static let maxLineBytes = 4096
    /// The shell every command runs with.
    static let shell = "/bin/sh"

    private var running: [Running] = []
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void) {
        self.log = log
    }

    /// How many commands run now.
    var count: Int { running.count }
    /// Their process ids (the shells').
    var pids: [pid_t] { running.map(\.child.pid) }

    /// Starts `command` for `button`; nil when it started, else why not.
    func start(_ command: String, for button: ButtonID) -> String? {
        if let busy = running.first(where: { $0.button == button }) {
            return "the last command of \(button) (pid \(busy.child.pid)) is still running; one runs at a time per button"
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: Self.shell, arguments: [Self.shell, "-c", command],
                                     environment: Self.commandEnvironment(), errorToOutput: true)
        } catch {
            let reason = "cannot start \(Self.shell): \(error.errno.reason)"
            log("exec \(button): \(reason)")
            return reason
        }
        // A command may start a program meant to outlive the daemon (an editor); it is not killed at a stop.
        child.killedWhenDropped = false
        let endFD: Int32
        do {
            endFD = try child.endingDescriptor()
        } catch {
            // Without a pidfd (Linux before 5.3) the shell could only be reaped by blocking: stop it now.
            _ = child.stop()
            let reason = "cannot follow the command: pidfd_open: \(error.errno.reason) (Linux 5.3 or newer is needed)"
            log("exec \(button): \(reason)")
            return reason
        }
        running.append(Running(button: button, command: command, child: child, endFD: endFD))
        log("exec \(button) (pid \(child.pid)): started: \(command)")
        return nil
    }

    /// Appends each command's output pipe and pidfd to the poll set, in the order `serve` expects.
    func watch(into fds: inout [pollfd]) {
        for r in running {
            // A pipe at EOF would poll readable on every turn until the shell is reaped: poll skips -1.
            fds.append(pollfd(fd: r.child.reachedEnd ? -1 : r.child.fd, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: r.endFD, events: Int16(POLLIN), revents: 0))
        }
    }

    /// Handles what poll reported for the descriptors `watch` added (the
    /// same commands, as no command starts between the two): logs output,
    /// and reaps and logs each command that ended.
    func serve(_ polled: ArraySlice<pollfd>) {
        var ended: [ObjectIdentifier] = []
        for (i, r) in zip(stride(from: polled.startIndex, to: polled.endIndex, by: 2), running) {
            if polled[i].revents != 0 { readOutput(r) }
            if polled[i + 1].revents != 0 {
                readOutput(r)
                flushPartialLine(r)
                let ending = r.child.wait()   // the pidfd is readable: the shell has ended, this does not block
                log("exec \(r.button) (pid \(r.child.pid)) ended: \(ending)")
                ended.append(ObjectIdentifier(r))
            }
        }
        running.removeAll { ended.contains(ObjectIdentifier($0)) }
    }

    /// The daemon's environment without what systemd addressed to the daemon
    /// alone: a command that ran sd_notify must not speak for stylusd.
    static func commandEnvironment() -> [String] {
        var environment = ProcessEnvironment.current
        for name in ["NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC"] { environment[name] = nil }
        return environment.map { "\($0.key)=\($0.value)" }
    }

    private func readOutput(_ r: Running) {
        guard r.child.fd >= 0 else { return }
        let atEnd = r.child.readAvailable()
        var bytes = r.partialLine + r.child.output
        r.child.consumeOutput(r.child.output.count)
        while let newline = bytes.firstIndex(of: 0x0a) {
            logLine(r, bytes[..<newline])
            bytes.removeSubrange(...newline)
        }
        while bytes.count >= Self.maxLineBytes {
            logLine(r, bytes.prefix(Self.maxLineBytes))
            bytes.removeFirst(Self.maxLineBytes)
        }
        r.partialLine = bytes
        if atEnd { flushPartialLine(r) }
    }

    private func flushPartialLine(_ r: Running) {
        if !r.partialLine.isEmpty { logLine(r, r.partialLine[...]) }
        r.partialLine = []
    }

    private func logLine(_ r: Running, _ line: ArraySlice<UInt8>) {
        log("exec \(r.button) (pid \(r.child.pid)): \(String(decoding: line, as: UTF8.self))")
    }
}
