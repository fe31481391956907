import CLinux
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

public struct DaemonOptions: Sendable {
    public var source: LibinputMonitor.Source
    public var config: EngineConfig
    /// Events on standard output as NDJSON rather than readable lines.
    public var json: Bool

    public init(source: LibinputMonitor.Source, config: EngineConfig, json: Bool) {
        self.source = source
        self.config = config
        self.json = json
    }
}

/// The imperative shell: libinput, signals and the engine's timer in one
/// poll set, one thread. Idle, it sleeps in poll(2) with no timeout.
public final class Daemon {
    private let options: DaemonOptions
    private var engine: Engine
    private var effects = Effects()
    private var output: [UInt8] = []
    private var pens: Set<DeviceID> = []
    private var buttonOnly = false

    public init(options: DaemonOptions) {
        self.options = options
        engine = Engine(config: options.config)
        output.reserveCapacity(4096)
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        do {
            let signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
            let timer = try DeadlineTimer()
            let report = Probe.run()
            if let reason = report.buttonOnlyReason {
                buttonOnly = true
                log("no pen: \(reason). Running button-only; a pen is picked up when it appears.")
            } else {
                log("pens found: " + report.pens.map { "\($0.name) (\($0.path))" }.joined(separator: ", "))
            }
            let monitor: LibinputMonitor
            do {
                monitor = try LibinputMonitor(source: options.source)
            } catch {
                log("cannot start input: \(error)")
                return 1
            }
            log("ready: double press interval \(options.config.doublePressIntervalMS) ms, debounce \(options.config.debounceMS) ms")
            drainInput(monitor)
            timer.set(engine.nextDeadline)
            flush()

            var fds = [pollfd(fd: monitor.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0)]
            while true {
                let ready = poll(&fds, nfds_t(fds.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    log("poll failed: \(String(cString: strerror(errno)))")
                    return 1
                }
                if fds[1].revents != 0 {
                    for signo in signals.drain() {
                        switch signo {
                        case SIGHUP:
                            log("SIGHUP: nothing to re-read; configuration comes from the command line")
                        default:
                            log("stopping on \(signo == SIGTERM ? "SIGTERM" : "SIGINT")")
                            flush()
                            return 0
                        }
                    }
                }
                if fds[2].revents != 0 {
                    timer.acknowledge()
                    if let deadline = engine.nextDeadline, deadline <= monotonicMicroseconds() {
                        engine.fireTimers(at: deadline, into: &effects)
                        publish()
                    }
                }
                if fds[0].revents != 0 {
                    drainInput(monitor)
                }
                timer.set(engine.nextDeadline)
                flush()
            }
        } catch {
            log("cannot start: \(error)")
            return 1
        }
    }

    private func drainInput(_ monitor: LibinputMonitor) {
        monitor.dispatch { input in
            switch input {
            case .deviceFailed(let path, let reason):
                log("cannot use \(path): \(reason)")
            case .pen(let timed):
                if let deadline = engine.nextDeadline, deadline <= timed.time {
                    engine.fireTimers(at: deadline, into: &effects)
                }
                engine.handle(timed.input, at: timed.time, into: &effects)
                track(timed.input)
                publish()
            }
        }
    }

    private func track(_ input: PenInput) {
        switch input {
        case .deviceAdded(let id, let info) where info.kind == .pen:
            pens.insert(id)
            if buttonOnly {
                buttonOnly = false
                log("pen found: \(info.name); leaving button-only mode")
            }
        case .deviceRemoved(let id):
            if pens.remove(id) != nil, pens.isEmpty {
                buttonOnly = true
                log("last pen removed; running button-only until a pen appears")
            }
        default:
            break
        }
    }

    private func publish() {
        for event in effects.events {
            if options.json {
                output = event.jsonLine(into: output)
            } else {
                output.append(contentsOf: event.text.utf8)
                output.append(0x0a)
            }
        }
        effects.removeAll()
    }

    private func flush() {
        guard !output.isEmpty else { return }
        _ = writeAll(STDOUT_FILENO, output)
        output.removeAll(keepingCapacity: true)
    }

    private func log(_ message: String) {
        _ = writeAll(STDERR_FILENO, Array("stylusd: \(message)\n".utf8))
    }
}
