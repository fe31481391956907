// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs `exec:COMMAND` bindings without ever waiting on the loop: each
/// command is `/bin/sh -c COMMAND` started with posix_spawn, its standard
/// output and error the daemon's own standard error (its log: the journal
/// under systemd), between a "started" and an "ended" line that name the
/// button and the pid, and its end a pidfd in the poll set; a readable pidfd
/// means the shell has ended, so reaping it is immediate. At most one
/// command runs per button: a double press while the last one runs is
/// refused with the reason.
final class CommandLauncher {
    private final class Running {
        let button: ButtonID
        let child: ChildProcess
        /// Polls readable once the shell has ended.
        let endFD: Int32

        init(button: ButtonID, child: ChildProcess, endFD: Int32) {
            self.button = button
            self.child = child
            self.endFD = endFD
        }

        deinit { close(endFD) }
    }

    /// The shell every command runs with.
    static let shell = "/bin/sh"

    private var running: [Running] = []
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void) {
        self.log = log
    }

    /// Starts `command` for `button`; nil when it started, else why not.
    func start(_ command: String, for button: ButtonID) -> String? {
        if let busy = running.first(where: { $0.button == button }) {
            return "the last command of \(button) (pid \(busy.child.pid)) is still running; one runs at a time per button"
        }
        let child: ChildProcess
        do {
            // Not a pipe: a command still running after the daemon stopped (outside a systemd
            // unit, whose stop ends the whole control group) would die of SIGPIPE at its next line.
            child = try ChildProcess(executable: Self.shell, arguments: [Self.shell, "-c", command],
                                     environment: Self.commandEnvironment(), outputToStandardError: true)
        } catch {
            let reason = "cannot start \(Self.shell): \(error.errno.reason)"
            log("exec \(button): \(reason)")
            return reason
        }
        // A command may start a program meant to outlive the daemon (an editor); stylusd does not
        // kill it at a stop. Under the systemd unit the stop ends it with the control group
        // (docs/USAGE.md: `exec:systemd-run --user …` for a program that must outlive stylusd).
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
        running.append(Running(button: button, child: child, endFD: endFD))
        log("exec \(button) (pid \(child.pid)): started: \(command)")
        return nil
    }

    /// Appends each command's pidfd to the poll set, in the order `serve` expects.
    func watch(into fds: inout [pollfd]) {
        for r in running { fds.append(pollfd(fd: r.endFD, events: Int16(POLLIN), revents: 0)) }
    }

    /// Handles what poll reported for the descriptors `watch` added (the
    /// same commands, as no command starts between the two): reaps and logs
    /// each command that ended.
    func serve(_ polled: ArraySlice<pollfd>) {
        var ended: [ObjectIdentifier] = []
        for (ready, r) in zip(polled, running) where ready.revents != 0 {
            let ending = r.child.wait()   // the pidfd is readable: the shell has ended, this does not block
            log("exec \(r.button) (pid \(r.child.pid)) ended: \(ending)")
            ended.append(ObjectIdentifier(r))
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
}
