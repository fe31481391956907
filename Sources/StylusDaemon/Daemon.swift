// SPDX-License-Identifier: MIT
import Logging
import StylusConfig
import StylusCore
import StylusInput
import StylusOutput
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The imperative shell: input, signals, one timer, helper processes, the
/// socket and its clients in one poll set on one thread. Nothing in a turn
/// blocks; idle, it sleeps in poll(2) with no timeout. Start-up and the
/// work each kind of readiness asks for are here; the turn's order is in
/// Daemon+Loop.swift, the output in `OutputController`, double presses'
/// actions in `ActionPerformer`, new connections in `ClientAcceptor`.
public final class Daemon {
    public static let version = StylusVersion.current

    let options: DaemonOptions
    let logger: Logger
    var handler: CommandHandler!
    var fanout: Fanout
    var saver: SaveScheduler!
    let reloader: ConfigReloader
    var catalog: DeviceCatalog!
    var outputs: OutputController!
    var actions: ActionPerformer!
    var exporter: Exporter!
    /// Snapshots and copies the canvas process was asked for, until it answers.
    var shares = ShareDesk()
    let acceptor: ClientAcceptor
    var clients: [ClientConnection] = []
    let notifier: ServiceNotifier
    /// Clients whose `devices` waits for the first probe.
    private var probeWaiters: [(client: ClientConnection, id: JSONValue)] = []
    /// Held while the daemon runs: the state file is this daemon's alone.
    private var stateLock: StateFileLock?

    public init(options: DaemonOptions) {
        self.options = options
        logger = Logger(label: "stylusd") { _ in JournalLogHandler(environment: options.environment) }
        notifier = ServiceNotifier(environment: options.environment)
        fanout = Fanout(printing: options.printing)
        reloader = ConfigReloader(options: options)
        acceptor = ClientAcceptor(version: Self.version, warn: { [logger] in logger.warning("\($0)") })
    }

    func log(_ message: String) { logger.info("\(message)") }
    func warn(_ message: String) { logger.warning("\(message)") }
    /// For the parts the daemon owns: they capture the logger (a value), not
    /// the daemon, which they would otherwise keep alive in a cycle.
    private var info: (String) -> Void {
        let logger = logger
        return { logger.info("\($0)") }
    }
    private var warning: @Sendable (String) -> Void {
        let logger = logger
        return { logger.warning("\($0)") }
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let config: EngineConfig
        switch options.loadConfig() {
        case .success(let c): config = c
        case .failure(let e):
            logger.error("configuration error: \(e)")
            return 78   // EX_CONFIG
        }
        do {
            let listener = try Listener(path: options.socketPath, environment: options.environment)
            stateLock = try options.statePath.map { path throws(DaemonError) in
                try StateFileLock(statePath: path, socketPath: listener.path)
            }
            let signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
            let timer = try DeadlineTimer()
            let buttonOnlyReason: String?
            let live: Bool
            var pensFound: [String] = []
            if case .libinput(let source) = options.input {
                // sysfs and node permissions only: libwacom's database stays out of the daemon.
                let report = if case .paths(let paths) = source { Probe.run(paths: paths, libwacom: false) } else { Probe.run(libwacom: false) }
                buttonOnlyReason = report.buttonOnlyReason
                pensFound = report.pens.map { "\($0.name) (\($0.path))" }
                live = true
            } else {
                buttonOnlyReason = "input comes from a recording"
                live = false
            }
            let recording: String? = if case .recording(let path, _, _, _) = options.input { path } else { nil }
            handler = CommandHandler(config: config, buttonOnlyReason: buttonOnlyReason, tracksPens: live, recording: recording, log: info)
            saver = SaveScheduler(path: options.statePath, log: info)
            if let (canvas, precision) = saver.restore() { handler.restore(canvas: canvas, precisionEnabled: precision) }
            outputs = OutputController(input: options.input, handler: handler, publish: { [unowned self] in self.publish() }, log: info, warn: warning)
            actions = ActionPerformer(handler: handler, outputs: outputs, log: info, warn: warning)
            exporter = Exporter(environment: options.environment, svgWriter: ConfigParserClient.selfExecutable, log: warning)
            actions.submit = { [unowned self] in self.startExport(.submit(SubmitOptions()), waiter: Exporter.Waiter(client: nil, id: .null, source: $0))?.message }
            actions.share = { [unowned self] in self.startShare($0, path: nil, monitor: nil, client: nil, id: .null)?.message }
            outputs.start(config: config)
            handler.outputStatus = { [unowned self] in self.outputs.info }
            handler.actionUnavailable = { [unowned self] in self.actions.unavailableReason($0) }
            actions.prepareDevices(for: config)
            // The output learns the restored canvas state before any input.
            handler.describeStateForOutput(now: monotonicMicroseconds())
            publish()
            outputs.logStarted()
            let source = try InputSource(options.input, log: info)
            if live {
                if let reason = buttonOnlyReason {
                    if case .libinput(.paths) = options.input {
                        log("no pen: \(reason). Running button-only: socket commands work.")
                    } else {
                        log("no pen: \(reason). Running button-only: socket commands work, and a pen is picked up when it appears.")
                    }
                } else {
                    log("pens found: " + pensFound.joined(separator: ", "))
                }
            }
            catalog = DeviceCatalog(executable: ConfigParserClient.selfExecutable, log: warning)
            catalog.refresh()
            log("listening on \(listener.path)\(listener.activated ? " (socket activation)" : ""); double press interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms")
            drain(source)
            catalog.startIfAsked(now: monotonicMicroseconds())
            armTimer(timer)
            fanout.flushStdout()
            notifier.send("READY=1\nSTATUS=listening on \(listener.path)")
            log("ready")
            return loop(listener: listener, signals: signals, timer: timer, source: source)
        } catch {
            logger.error("cannot start: \(error)")
            return 1
        }
    }

    func persistedState() -> StateSnapshot {
        StateSnapshot(canvas: handler.engine.canvas, precisionEnabled: handler.engine.precisionEnabled)
    }

    // MARK: Input and what it produces

    func drain(_ source: InputSource) {
        source.drain { input in
            switch input {
            case .notice(let message):
                warn(message)
            case .deviceFailed(let path, let reason):
                warn("cannot use \(path): \(reason)")
                fanout.deviceFailed(path: path, reason: reason, to: clients)
            case .pen(let timed):
                handler.handle(timed)
                switch timed.input {
                case .deviceAdded(let id, let info):
                    outputs.deviceAdded(OutputDevice(id: id, info: info, node: source.nodePath(of: id)))
                    catalog.refresh()
                case .deviceRemoved(let id):
                    outputs.deviceRemoved(id)
                    catalog.refresh()
                default:
                    break
                }
                publish()
            }
        }
    }

    /// Sends the engine's effects out; state changes are saved after the
    /// clients' sockets are written (end of the turn): an fsync never delays an event.
    func publish() {
        outputs.output.apply(handler.effects)
        actions.performRequests()
        if fanout.publish(&handler.effects, to: clients) { saver.markDirty() }
    }

    // MARK: Answers

    /// Answers up to `ClientConnection.answersPerTurn` of the client's lines,
    /// in order, stopping early once its unsent output passes the pause mark
    /// or an answer has to wait for a helper process.
    func answerWaitingLines(_ client: ClientConnection) {
        var budget = ClientConnection.answersPerTurn
        while budget > 0, client.closeReason == nil, let line = client.nextLineToAnswer() {
            switch handler.answer(line, topics: &client.topics, now: monotonicMicroseconds(), peer: client.peerPID, client: client.number) {
            case .now(let response):
                client.send(response, kind: .response)
            case .afterReload(let id):
                client.awaitsDeferredAnswer = true
                requestReload(ConfigReloader.Waiter(client: client, id: id))
            case .afterProbe(let id):
                client.awaitsDeferredAnswer = true
                probeWaiters.append((client, id))
            case .switchOutput(let id, let choice):
                let outcome = outputs.switchOutput(to: choice, config: handler.engine.config, refuseImpossible: true)
                client.send(handler.outputAnswer(id: id, outcome), kind: .response)
                if case .success(true) = outcome { outputs.announce(to: clients) }
            case .share(let id, let kind, let path, let monitor):
                if let error = startShare(kind, path: path, monitor: monitor, client: client, id: id) {
                    client.send(Response.failure(id: id, error), kind: .response)
                } else {
                    client.awaitsDeferredAnswer = true
                }
            case .shared(let id, let reply):
                client.send(finishShare(reply, id: id), kind: .response)
            case .export(let id, let request):
                if let error = startExport(request, waiter: Exporter.Waiter(client: client, id: id)) {
                    client.send(Response.failure(id: id, error), kind: .response)
                } else {
                    client.awaitsDeferredAnswer = true
                }
            }
            publish()
            budget -= 1
        }
        if client.peerClosed, !client.hasUnansweredLines, !client.awaitsDeferredAnswer, client.closeReason == nil {
            client.closeReason = .closedItsSide
        }
    }

    func answerProbeWaiters() {
        for (client, id) in probeWaiters {
            client.awaitsDeferredAnswer = false
            client.send(handler.devicesAnswer(id: id), kind: .response)
        }
        probeWaiters.removeAll()
    }

    func dropClosedClients() {
        clients.removeAll { client in
            guard let reason = client.closeReason else { return false }
            if !client.output.isEmpty, client.flush(), !client.output.isEmpty, reason == .closedItsSide {
                return false   // still writing the last responses to a half-closed peer
            }
            if reason != .closedItsSide { log("client \(client.number) disconnected: \(reason)") }
            probeWaiters.removeAll { $0.client === client }
            handler.clientLeft(client.number, now: monotonicMicroseconds())
            return true
        }
    }
}
