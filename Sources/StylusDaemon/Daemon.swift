import CLinux
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusInput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Command-line values, which win over the configuration file.
public struct ConfigOverrides: Sendable {
    public var intervalMS: Int?
    public var debounceMS: Int?
    public var transitionMS: Int?
    public var bindings: [(ButtonID, Action)] = []

    public init() {}

    public func apply(to config: inout EngineConfig) {
        if let intervalMS { config.doublePressIntervalMS = intervalMS }
        if let debounceMS { config.debounceMS = debounceMS }
        if let transitionMS { config.transitionMS = transitionMS }
        for (button, action) in bindings { config.bind(button, to: action) }
    }
}

public struct DaemonOptions: Sendable {
    public enum Input: Sendable {
        case libinput(LibinputMonitor.Source)
        /// A recording played at its own pace (times `speed`), instead of libinput.
        case recording(path: String, description: String?, loop: Bool, speed: Double)
    }

    public enum EventPrinting: Sendable { case none, text, json }

    public var input: Input
    public var socketPath: String
    public var statePath: String?
    public var configPath: String?
    /// A missing default config file is fine; a missing --config file is an error.
    public var configPathIsExplicit: Bool
    public var overrides: ConfigOverrides
    public var printing: EventPrinting
    public var environment: [String: String]

    public init(input: Input, socketPath: String, statePath: String?, configPath: String?, configPathIsExplicit: Bool,
                overrides: ConfigOverrides, printing: EventPrinting, environment: [String: String]) {
        self.input = input
        self.socketPath = socketPath
        self.statePath = statePath
        self.configPath = configPath
        self.configPathIsExplicit = configPathIsExplicit
        self.overrides = overrides
        self.printing = printing
        self.environment = environment
    }

    /// The file's last bytes and what they parsed to: a `reload` of an
    /// unchanged file costs no parser process.
    public final class LastParse {
        var bytes: [UInt8] = []
        var outcome: Result<EngineConfig, ConfigError>?
        public init() {}
    }

    /// The configuration: file (or defaults), then the command line on top.
    public func loadConfig(reusing last: LastParse = LastParse()) -> Result<EngineConfig, ConfigError> {
        var config = EngineConfig()
        if let path = configPath {
            do {
                let bytes = try readFileBytes(path, limit: ConfigFile.maxBytes)
                if bytes != last.bytes || last.outcome == nil {
                    last.bytes = bytes
                    last.outcome = Result { () throws(ConfigError) -> EngineConfig in try ConfigFile.parseIsolated(bytes, file: path) }
                }
                config = try last.outcome!.get()
            } catch let error as ConfigError {
                return .failure(error)
            } catch let error as SystemError {
                if !(error.errno == ENOENT && !configPathIsExplicit) {
                    return .failure(ConfigError(file: path, line: nil, key: nil, message: "cannot read: \(String(cString: strerror(error.errno)))"))
                }
            } catch {
                return .failure(ConfigError(file: path, line: nil, key: nil, message: "\(error)"))
            }
        }
        overrides.apply(to: &config)
        if let problem = config.problems().first {
            return .failure(ConfigError(file: "command line", line: nil, key: problem.key, message: problem.message))
        }
        return .success(config)
    }
}

/// The imperative shell: input, signals, the engine's timer, the socket and
/// its clients in one poll set on one thread. Idle, it sleeps in poll(2)
/// with no timeout.
public final class Daemon {
    public static let version = StylusVersion.current

    private let options: DaemonOptions
    private var engine = Engine()
    private var effects = Effects()
    private var stdoutBuffer: [UInt8] = []
    private var lineBuffer: [UInt8] = []
    private var clients: [ClientConnection] = []
    private var nextClientNumber = 1
    private var buttonOnlyReason: String?
    private var pens: Set<DeviceID> = []
    private var store: StateStore?
    private var notifier: ServiceNotifier
    private var stateSaveFailing = false
    private var stateDirty = false
    private let lastParse = DaemonOptions.LastParse()
    /// Saves are spaced at least this far apart (µs): a change after a quiet
    /// spell is saved at once, a stream of changes once a second. Saving
    /// rewrites and fsyncs the whole drawing, so saving on every change made
    /// a client toggling thousands of times a second stall everyone else.
    static let saveSpacing: Int64 = 1_000_000
    private var lastSaveAt: Int64?
    /// Held so that, out of file descriptors, a connection can still be
    /// accepted and told why before it is closed (else poll spins on it).
    private var spareFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    private var descriptorsExhausted = false

    public init(options: DaemonOptions) {
        self.options = options
        notifier = ServiceNotifier(environment: options.environment)
        stdoutBuffer.reserveCapacity(4096)
        lineBuffer.reserveCapacity(512)
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let config: EngineConfig
        switch options.loadConfig(reusing: lastParse) {
        case .success(let c): config = c
        case .failure(let e):
            log("configuration error: \(e)")
            return 78   // EX_CONFIG
        }
        engine = Engine(config: config)

        do {
            let listener = try Listener(path: options.socketPath, environment: options.environment)
            let signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
            let timer = try DeadlineTimer()
            restoreState()
            let source = try InputSource(options.input, log: log)
            if case .libinput = options.input {
                let report = Probe.run(libwacom: false)
                buttonOnlyReason = report.buttonOnlyReason
                if let reason = report.buttonOnlyReason {
                    log("no pen: \(reason). Running button-only: socket commands work, and a pen is picked up when it appears.")
                } else {
                    log("pens found: " + report.pens.map { "\($0.name) (\($0.path))" }.joined(separator: ", "))
                }
            } else {
                buttonOnlyReason = "input comes from a recording"
            }
            log("listening on \(listener.path)\(listener.activated ? " (socket activation)" : ""); double press interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms")
            drain(source)
            timer.set(engine.nextDeadline)
            flushStdout()
            notifier.send("READY=1\nSTATUS=listening on \(listener.path)")
            log("ready")

            while true {
                var fds = [pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)]
                let polled = clients
                for client in polled {
                    fds.append(pollfd(fd: client.fd, events: (client.wantsInput ? Int16(POLLIN) : 0) | (client.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
                }
                // Lines left unanswered by the per-turn budget: go round again at once.
                let ready = poll(&fds, nfds_t(fds.count), clients.contains(where: \.canAnswerNow) ? 0 : -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    log("poll failed: \(String(cString: strerror(errno)))")
                    return 1
                }
                if fds[1].revents != 0 {
                    for signo in signals.drain() {
                        if signo == SIGHUP {
                            _ = reload()
                        } else {
                            log("stopping on \(signo == SIGTERM ? "SIGTERM" : "SIGINT")")
                            notifier.send("STOPPING=1")
                            if !saveState() {
                                log("stopping with changes that could not be saved; \(store?.path ?? "the state file") keeps the last state that could")
                            }
                            stateDirty = false
                            flushStdout()
                            clients.removeAll()
                            return 0
                        }
                    }
                }
                if fds[2].revents != 0 {
                    timer.acknowledge()
                    // The same timer also wakes the loop for a postponed save (saveIfDue).
                    if let deadline = engine.nextDeadline, deadline <= monotonicMicroseconds() {
                        engine.fireTimers(at: deadline, into: &effects)
                        publish()
                    }
                }
                if fds[0].revents != 0 { drain(source) }
                if fds[3].revents != 0 { acceptClients(listener) }
                // Clients accepted just now were not in this poll; they are served next time round.
                for (i, client) in polled.enumerated() {
                    let revents = fds[4 + i].revents
                    if revents & Int16(POLLIN) != 0 || revents & Int16(POLLHUP) != 0 { serve(client) }
                }
                // Round robin: each client gets a few answers per turn, so a
                // well-behaved one never waits behind another's batch.
                for client in clients where client.canAnswerNow || client.peerClosed {
                    answerWaitingLines(client)
                }
                for client in clients where !client.output.isEmpty {
                    if !client.flush() { client.closeReason = client.closeReason ?? "write failed" }
                }
                clients.removeAll { client in
                    guard let reason = client.closeReason else { return false }
                    if !client.output.isEmpty, client.flush(), !client.output.isEmpty, reason == "closed its side" {
                        return false   // still writing the last responses to a half-closed peer
                    }
                    if reason != "closed its side" { log("client \(client.number) disconnected: \(reason)") }
                    return true
                }
                engine.publishesSamples = clients.contains { $0.topics.contains(.pen) }
                source.armPacing()
                flushStdout()
                // No array here: this runs once per pen event.
                let save = saveIfDue()
                if let deadline = engine.nextDeadline, let save { timer.set(min(deadline, save)) } else { timer.set(engine.nextDeadline ?? save) }
            }
        } catch {
            log("cannot start: \(error)")
            return 1
        }
    }

    // MARK: Input

    private func drain(_ source: InputSource) {
        source.drain { input in
            switch input {
            case .deviceFailed(let path, let reason):
                log("cannot use \(path): \(reason)")
                var line = JSONObjectWriter()
                line.string("event", "device")
                line.string("change", "failed")
                line.string("node", path)
                line.string("reason", reason)
                let bytes = line.finishLine()
                for client in clients where client.topics.contains(.device) && client.closeReason == nil {
                    if case .overflow(let why) = client.output.enqueue(bytes, kind: .state) { client.closeReason = why }
                }
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
        guard case .libinput = options.input else { return }
        switch input {
        case .deviceAdded(let id, let info) where info.kind == .pen:
            if pens.isEmpty, buttonOnlyReason != nil { log("pen found: \(info.name); leaving button-only mode") }
            pens.insert(id)
            buttonOnlyReason = nil
        case .deviceRemoved(let id):
            if pens.remove(id) != nil, pens.isEmpty {
                buttonOnlyReason = "the last pen was removed"
                log("last pen removed; running button-only until a pen appears")
            }
        default:
            break
        }
    }

    // MARK: Output

    private func publish() {
        for event in effects.events {
            lineBuffer.removeAll(keepingCapacity: true)
            lineBuffer = event.jsonLine(into: lineBuffer)
            let topic = Topic(event)
            for client in clients where client.topics.contains(topic) && client.closeReason == nil {
                if case .overflow(let reason) = client.output.enqueue(lineBuffer, kind: .state) {
                    client.closeReason = reason
                }
            }
            switch options.printing {
            case .none: break
            case .json: stdoutBuffer += lineBuffer
            case .text:
                stdoutBuffer += Array(event.text.utf8)
                stdoutBuffer.append(0x0a)
            }
        }
        if !effects.samples.isEmpty {
            for sample in effects.samples {
                lineBuffer.removeAll(keepingCapacity: true)
                lineBuffer = sample.jsonLine(into: lineBuffer)
                for client in clients where client.topics.contains(.pen) && client.closeReason == nil {
                    _ = client.output.enqueue(lineBuffer, kind: .pen)
                }
            }
        }
        // Saved after the clients' sockets are written (end of the loop
        // iteration): an fsync must never delay an event.
        if effects.stateChanged { stateDirty = true }
        effects.removeAll()
    }

    private func flushStdout() {
        guard !stdoutBuffer.isEmpty else { return }
        _ = writeAll(STDOUT_FILENO, stdoutBuffer)
        stdoutBuffer.removeAll(keepingCapacity: true)
    }

    private func log(_ message: String) {
        _ = writeAll(STDERR_FILENO, Array("stylusd: \(message)\n".utf8))
    }

    // MARK: State

    private func restoreState() {
        guard let path = options.statePath else {
            log("no state file (neither XDG_STATE_HOME nor HOME is set): the canvas will not survive a restart")
            return
        }
        let store = StateStore(path: path)
        self.store = store
        switch store.load(now: Int64(time(nil))) {
        case .none:
            break
        case .loaded(let canvas, let precision):
            engine.restore(canvas: canvas, precisionEnabled: precision)
            log("restored the canvas from \(path): \(canvas.state.rawValue), \(canvas.strokes.count) stroke\(canvas.strokes.count == 1 ? "" : "s"), precision \(precision ? "enabled" : "disabled")")
        case .corrupt(let reason, let movedTo):
            if let movedTo {
                log("\(path) could not be read (\(reason)); moved it to \(movedTo) and started with an empty canvas")
            } else {
                log("\(path) could not be read (\(reason)) and could not be moved aside; starting with an empty canvas and not overwriting it")
                self.store = nil
            }
        }
    }

    /// Saves unsaved state if the last save is old enough; otherwise returns
    /// when to try again. A failed save is retried the same way.
    private func saveIfDue() -> Int64? {
        guard stateDirty else { return nil }
        let now = monotonicMicroseconds()
        if let last = lastSaveAt, now - last < Self.saveSpacing { return last + Self.saveSpacing }
        lastSaveAt = now
        stateDirty = !saveState()
        return stateDirty ? now + Self.saveSpacing : nil
    }

    @discardableResult
    private func saveState() -> Bool {
        guard let store else { return true }
        do {
            try store.save(PersistedState(canvas: engine.canvas, precisionEnabled: engine.precisionEnabled))
            if stateSaveFailing {
                stateSaveFailing = false
                log("state saved again to \(store.path)")
            }
            return true
        } catch {
            if !stateSaveFailing { log("cannot save state: \(error); the running daemon keeps it and retries every second until it can") }
            stateSaveFailing = true
            return false
        }
    }

    // MARK: Clients

    private func acceptClients(_ listener: Listener) {
        while true {
            // accept4 hides behind _GNU_SOURCE in Glibc's module; accept + fcntl does the same.
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE { refuseForLackOfDescriptors(listener) }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            descriptorsExhausted = false
            let client = ClientConnection(fd: fd, number: nextClientNumber)
            nextClientNumber += 1
            guard let uid = client.peerUID(), uid == getuid() else {
                let who = client.peerUID().map { "uid \($0)" } ?? "an unknown user"
                _ = client.output.enqueue(Array("{\"event\":\"refused\",\"reason\":\"only uid \(getuid()) may use this daemon; you are \(who)\"}\n".utf8), kind: .notice)
                _ = client.flush()
                log("refused a connection from \(who)")
                continue
            }
            _ = client.output.enqueue(Response.line(HelloEvent(version: Self.version, pid: getpid())), kind: .notice)
            clients.append(client)
        }
    }

    private func refuseForLackOfDescriptors(_ listener: Listener) {
        if !descriptorsExhausted {
            log("out of file descriptors with \(clients.count) clients connected; refusing new connections until some close")
            descriptorsExhausted = true
        }
        if spareFD >= 0 { close(spareFD) }
        let fd = accept(listener.fd, nil, nil)
        if fd >= 0 {
            let message = Array("{\"event\":\"refused\",\"reason\":\"stylusd has too many connections (\(clients.count)); try again later\"}\n".utf8)
            _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            close(fd)
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Reads what the client sent; the lines are answered in the round-robin pass.
    private func serve(_ client: ClientConnection) {
        guard client.wantsInput else { return }
        switch client.readLines() {
        case .lines(let lines):
            client.keepUnanswered(lines)
        case .closed(let lines):
            client.keepUnanswered(lines)
            client.peerClosed = true
        case .tooLong:
            _ = client.output.enqueue(Response.failure(id: .null, ProtocolError(
                code: .lineTooLong, message: "a line may be at most \(ProtocolV1.maxLineBytes) bytes; disconnecting")), kind: .response)
            client.closeReason = "sent a line over \(ProtocolV1.maxLineBytes) bytes"
        case .failed(let code):
            client.closeReason = "read failed: \(String(cString: strerror(code)))"
        }
    }

    /// Answers up to `ClientConnection.answersPerTurn` of the client's lines,
    /// in order, stopping early once its unsent output passes the pause mark.
    private func answerWaitingLines(_ client: ClientConnection) {
        var budget = ClientConnection.answersPerTurn
        while budget > 0, client.closeReason == nil, let line = client.nextLineToAnswer() {
            answer(line, client)
            budget -= 1
        }
        if client.peerClosed, !client.hasUnansweredLines, client.closeReason == nil {
            client.closeReason = "closed its side"
        }
    }

    private func answer(_ line: [UInt8], _ client: ClientConnection) {
        let response: [UInt8]
        switch Request.decode(line) {
        case .failure(let failure):
            response = Response.failure(id: failure.id, failure.error)
        case .success(let request):
            response = execute(request, client)
        }
        if case .overflow(let reason) = client.output.enqueue(response, kind: .response) {
            client.closeReason = reason
        }
    }

    private func execute(_ request: Request, _ client: ClientConnection) -> [UInt8] {
        let id = request.id
        func perform(_ command: Command) -> [UInt8] {
            let outcome = engine.perform(command, at: monotonicMicroseconds(), into: &effects)
            publish()
            switch outcome {
            case .done:
                return Response.success(id: id, StatusResult(engine: engine, buttonOnlyReason: buttonOnlyReason, changed: true))
            case .unchanged(let reason):
                return Response.success(id: id, StatusResult(engine: engine, buttonOnlyReason: buttonOnlyReason, changed: false, reason: reason))
            case .refused(let reason):
                return Response.failure(id: id, ProtocolError(code: .refused, message: reason))
            }
        }
        switch request.command {
        case .status: return Response.success(id: id, StatusResult(engine: engine, buttonOnlyReason: buttonOnlyReason))
        case .toggle: return perform(.toggleCanvas)
        case .open: return perform(.openCanvas)
        case .minimize: return perform(.minimizeCanvas)
        case .ack: return perform(.acknowledgeTransition)
        case .clear: return perform(.clearCanvas)
        case .precision(let request): return perform(.precision(request))
        case .strokes: return Response.success(id: id, StrokesResult(canvas: engine.canvas))
        case .subscribe(let topics):
            client.topics.formUnion(topics)
            return Response.success(id: id, TopicsResult(topics: Topic.allCases.filter(client.topics.contains).map(\.rawValue)))
        case .unsubscribe(let topics):
            client.topics.subtract(topics)
            return Response.success(id: id, TopicsResult(topics: Topic.allCases.filter(client.topics.contains).map(\.rawValue)))
        case .devices:
            return Response.success(id: id, DevicesResult(Probe.run()))
        case .reload:
            switch reload() {
            case .success: return Response.success(id: id, StatusResult(engine: engine, buttonOnlyReason: buttonOnlyReason, changed: true))
            case .failure(let error): return Response.failure(id: id, ProtocolError(code: .failed, message: "\(error); the running configuration is unchanged"))
            }
        }
    }

    private func reload() -> Result<Void, ConfigError> {
        notifier.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())")
        defer { notifier.send("READY=1") }
        switch options.loadConfig(reusing: lastParse) {
        case .success(let config):
            engine.reconfigure(config)
            log("configuration reloaded: interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms, transition \(config.transitionMS) ms")
            return .success(())
        case .failure(let error):
            log("reload failed, keeping the running configuration: \(error)")
            return .failure(error)
        }
    }
}
