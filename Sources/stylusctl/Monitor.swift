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

/// `stylusctl monitor`: the pen, its buttons and the daemon's state on one
/// screen, redrawn as events arrive.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the pen, its buttons, precision and the canvas live, full screen.",
        discussion: """
            Like libinput debug-tablet, through the daemon: tool and serial, position, pressure against the \
            precision threshold, tilt, tip, side buttons, precision scale, canvas state and strokes, and the last \
            presses with their gap against the double-press interval (a press that missed it says by how much). \
            q or Ctrl-C quits and gives the terminal back as it was; Ctrl-Z gives it back until `fg`.
            """)
    @OptionGroup var socket: SocketOption

    /// At most this many redraws a second; events in between are drawn together.
    static let framesPerSecond = 30

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError("stylusctl: monitor draws on a terminal; for a pipe or a file use `stylusctl watch --json`")
            throw ExitCode(64)
        }
        var path = ""
        try client { () throws(StylusClientError) in
            // Fail at once, before the screen is taken, when no daemon answers.
            let connection = try socket.connect()
            path = connection.path
        }
        let signals = try SignalWatch([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP])
        let wake: Doorbell
        do {
            wake = try Doorbell()
        } catch {
            printError("stylusctl: \(error)")
            throw ExitCode(1)
        }
        let model = Locked(MonitorModel(socket: path))
        let subscription = StylusSubscription(topics: [.canvas, .doublePress, .precision, .device, .pen, .button], path: path)
        let ended = Locked<String?>(nil)
        let handle = subscription.start({ update in
            model.withLock { m in
                switch update {
                case .connected(let status), .reconnected(let status): m.apply(status: status)
                case .event(let event): m.apply(event)
                case .disconnected(let reason): m.connection = "disconnected (\(reason)); reconnecting"
                }
            }
            wake.ring()
        }, onEnd: { error in
            ended.withLock { $0 = error.map { "\($0)" } ?? "" }
            wake.ring()
        })
        let terminal = FullScreen()
        defer {
            terminal.restore()
            handle.cancel()
        }
        try runLoop(terminal: terminal, model: model, signals: signals, wake: wake, ended: ended)
    }

    private func runLoop(terminal: FullScreen, model: Locked<MonitorModel>, signals: SignalWatch, wake: Doorbell, ended: Locked<String?>) throws {
        let frameUS = Int64(1_000_000 / Self.framesPerSecond)
        var lastDraw: Int64 = 0
        var dirty = true
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
        while true {
            let now = monotonicMicroseconds()
            if dirty, now - lastDraw >= frameUS {
                let lines = model.withLock { m in
                    let size = terminal.size()
                    return m.lines(width: size.columns, height: size.rows)
                }
                terminal.draw(lines)
                lastDraw = now
                dirty = false
            }
            let timeout: Int32 = dirty ? Int32(max(1, (lastDraw + frameUS - now + 999) / 1000)) : -1
            for i in fds.indices { fds[i].revents = 0 }
            if retryingInterrupts({ poll(&fds, nfds_t(fds.count), timeout) }) < 0 { throw ExitCode(1) }
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                let n = read(STDIN_FILENO, &byte, 1)
                if n == 0 || byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") { return }
            }
            if fds[1].revents != 0 {
                for signal in signals.drain() {
                    if signal == SIGWINCH {
                        terminal.clear()
                        dirty = true
                    } else if signal == SIGTSTP {
                        // Ctrl-Z: the shell gets its terminal back while stopped, the view on `fg`.
                        terminal.restore()
                        kill(getpid(), SIGSTOP)
                        terminal.enter()
                        dirty = true
                    } else {
                        // After the screen is given back: 128 + the signal, as a shell reports it.
                        terminal.restore()
                        throw ExitCode(128 + signal)
                    }
                }
            }
            if fds[2].revents != 0 {
                wake.drain()
                dirty = true
                if let reason = ended.withLock({ $0 }) {
                    terminal.restore()
                    if !reason.isEmpty { printError("stylusctl: \(reason)") }
                    throw ExitCode(reason.isEmpty ? 0 : Status.refused)
                }
            }
        }
    }
}
