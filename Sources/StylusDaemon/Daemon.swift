// SPDX-License-Identifier: MIT
import CLinux
import Logging
import StylusConfig
import StylusCore
import StylusInput
import StylusOutput
import StylusUinput
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The imperative shell: input, signals, one timer, helper processes, the
/// socket and its clients in one poll set on one thread. Nothing in a turn
/// blocks; idle, it sleeps in poll(2) with no timeout.
public final class Daemon {
    public static let version = StylusVersion.current

    private let options: DaemonOptions
    private let logger: Logger
    private var handler: CommandHandler!
    private var fanout: Fanout
    private var saver: SaveScheduler!
    private var reloader: ConfigReloader
    private var catalog: DeviceCatalog!
    /// Where input goes next, after the engine (StylusOutput).
    private var output: any PenOutput = ObserveOutput()
    /// What was asked for last: `[output] mode` or `--output`, or the `output` command.
    private var requestedOutput = OutputChoice.auto
    /// `captures_pen` as the last `output` event said it.
    private var announcedCapture = false
    /// Every device the input source reported, for an output that takes over at run time.
    private var outputDevices: [DeviceID: OutputDevice] = [:]
    private var clients: [ClientConnection] = []
    private var nextClientNumber = 1
    private var notifier: ServiceNotifier
    /// Clients whose `devices` waits for the first probe.
    private var probeWaiters: [(client: ClientConnection, id: JSONValue)] = []
    /// Held so that, out of file descriptors, a connection can still be
    /// accepted and told why before it is closed (else poll spins on it).
    private var spareFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    private var descriptorsExhausted = false
    /// `exec:` bindings' commands, reaped through the poll set.
    private var launcher: CommandLauncher!
    /// The virtual keyboard and pointer of `key:` and `click:` bindings,
    /// made while a binding needs them; else why they could not be made.
    private var actionDevices: Result<ActionDevices, ActionDevicesError>?
    /// Held while the daemon runs: the state file is this daemon's alone.
    private var stateLock: StateFileLock?

    public init(options: DaemonOptions) {
        self.options = options
        logger = Logger(label: "stylusd") { _ in JournalLogHandler(environment: options.environment) }
        notifier = ServiceNotifier(environment: options.environment)
        fanout = Fanout(printing: options.printing)
        reloader = ConfigReloader(options: options)
        launcher = CommandLauncher(log: info)
    }

    private func log(_ message: String) { logger.info("\(message)") }
    /// For the parts the daemon owns: they capture the logger (a value), not
    /// the daemon, which they would otherwise keep alive in a cycle.
    private var info: (String) -> Void {
        let logger = logger
        return { logger.info("\($0)") }
    }
    private var warning: (String) -> Void {
        let logger = logger
        return { logger.warning("\($0)") }
    }
    private func warn(_ message: String) { logger.warning("\(message)") }

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
            requestedOutput = config.output.mode
            output = chooseOutput(requestedOutput, config: config)
            handler.withholdsPresses = output.mode == .filter
            handler.outputStatus = { [unowned self] in self.outputInfo }
            handler.actionUnavailable = { [unowned self] in self.unavailableReason($0) }
            prepareActionDevices(for: config)
            // The output learns the restored canvas state before any input.
            handler.describeStateForOutput(now: monotonicMicroseconds())
            publish()
            log("output \(output.mode.rawValue) (requested \(requestedOutput.rawValue)): \(output.statusReason)")
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
            catalog = DeviceCatalog(executable: ConfigParse.selfExecutable, log: warning)
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

    private func loop(listener: Listener, signals: SignalDescriptor, timer: DeadlineTimer, source: InputSource) -> Int32 {
        var fds: [pollfd] = []
        fds.reserveCapacity(16)
        while true {
            fds.removeAll(keepingCapacity: true)
            // No array literal here: this runs once per pen event. poll skips fd -1.
            func watch(_ fd: Int32) { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            watch(source.fd); watch(signals.fd); watch(timer.fd); watch(listener.fd)
            watch(reloader.fd ?? -1); watch(catalog.fd ?? -1); watch(output.pollDescriptor ?? -1)
            watch(saver.fd ?? -1)
            let commands = fds.count
            launcher.watch(into: &fds)
            let fixed = fds.count
            let polled = clients
            for client in polled {
                fds.append(pollfd(fd: client.fd, events: (client.wantsInput ? Int16(POLLIN) : 0) | (client.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
            }
            // Lines left unanswered by the per-turn budget: go round again at once.
            let ready = poll(&fds, nfds_t(fds.count), clients.contains(where: \.canAnswerNow) ? 0 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.critical("poll failed: \(String(cString: strerror(errno)))")
                return 1
            }
            output.loopTurned()
            if fds[1].revents != 0, let status = handleSignals(signals) { return status }
            if fds[6].revents != 0 {
                // Filter mode: the grabbed nodes, read raw; each frame is written once the engine decided it.
                // Before the timer: a frame the kernel stamped before a deadline is queued
                // before the timer fires, and the engine must see it first (each input
                // fires the deadlines due by its own time), as a replay of the stream does.
                // The desktop's pen before the socket's clients: the output gets each
                // input's effects at once, the clients their lines once the frame is written.
                output.descriptorReady({ timed in
                    handler.handle(timed)
                    output.apply(handler.effects)
                    handler.effects.output.removeAll(keepingCapacity: true)
                }, frameWritten: { publish() })
            }
            if fds[2].revents != 0 {
                // One timer for every deadline: the engine's, a save, a helper's.
                timer.acknowledge()
                let now = monotonicMicroseconds()
                handler.fireTimers(now: now)
                publish()
                finishReloads(reloader.timeOut(now: now))
                // Waiting clients get an answer once no probe is left running.
                if catalog.timeOut(now: now), catalog.fd == nil { answerProbeWaiters() }
            }
            if fds[0].revents != 0 { drain(source) }
            if fds[5].revents != 0, let report = catalog.readable(now: monotonicMicroseconds()) {
                if let report { handler.devices = report }
                if handler.devices != nil || catalog.fd == nil { answerProbeWaiters() }
            }
            if fds[7].revents != 0 { saver.writerRang() }
            if fixed > commands { launcher.serve(fds[commands..<fixed]) }
            if fds[3].revents != 0 { acceptClients(listener) }
            // Clients accepted just now were not in this poll; they are served next time round.
            for (i, client) in polled.enumerated() {
                let revents = fds[fixed + i].revents
                if revents & Int16(POLLIN) != 0 || revents & Int16(POLLHUP) != 0 { serve(client) }
            }
            // Round robin: each client gets a few answers per turn, so a
            // well-behaved one never waits behind another's batch.
            for client in clients where client.canAnswerNow || client.peerClosed {
                answerWaitingLines(client)
            }
            // A parsed configuration is applied after the lines that waited this turn:
            // applying it (and encoding a new status) is the costliest work a flood of
            // reloads asks for, and a `status` that came meanwhile is not its to wait for.
            if fds[4].revents != 0 { finishReloads(reloader.readable()) }
            for client in clients where !client.output.isEmpty {
                if !client.flush() { client.closeReason = client.closeReason ?? .writeFailed }
            }
            dropClosedClients()
            handler.publishesSamples = clients.contains { $0.topics.contains(.pen) }
            source.armPacing()
            catalog.startIfAsked(now: monotonicMicroseconds())
            output.flush()
            // A grab that waited, a watchdog release, a clone that failed: the overlay must know.
            if output.capturesPen != announcedCapture { announceOutput() }
            fanout.flushStdout()
            armTimer(timer)
        }
    }

    /// Returns the exit status when a signal stops the daemon.
    private func handleSignals(_ signals: SignalDescriptor) -> Int32? {
        for signo in signals.drain() {
            if signo == SIGHUP {
                requestReload(ConfigReloader.Waiter(client: nil, id: .null))
                continue
            }
            log("stopping on \(signo == SIGTERM ? "SIGTERM" : "SIGINT")")
            notifier.send("STOPPING=1")
            // The pen goes back to the desktop first: the last save may wait for a slow disk.
            output.close()
            if !saver.saveNow(persistedState()) {
                warn("stopping with changes that could not be saved; \(saver.store?.path ?? "the state file") keeps the last state that could")
            }
            reloader.close()
            fanout.flushStdout()
            clients.removeAll()
            return 0
        }
        return nil
    }

    private func armTimer(_ timer: DeadlineTimer) {
        // No array here either: once per pen event.
        var deadline = handler.nextDeadline
        func consider(_ other: Int64?) { if let other { deadline = min(deadline ?? other, other) } }
        consider(saver.saveIfDue(now: monotonicMicroseconds(), persistedState))
        consider(reloader.deadline)
        consider(catalog.deadline)
        if !timer.set(deadline) {
            logger.critical("timerfd_settime failed: \(String(cString: strerror(errno))); transitions, saves and helpers' time limits are late until the next event")
        }
    }

    private func persistedState() -> StateSnapshot {
        StateSnapshot(canvas: handler.engine.canvas, precisionEnabled: handler.engine.precisionEnabled)
    }

    // MARK: Output

    /// observe, or filter where it was asked for (or `auto`) and /dev/uinput can be written.
    private func chooseOutput(_ requested: OutputChoice, config: EngineConfig) -> any PenOutput {
        guard requested != .observe else { return ObserveOutput() }
        if let reason = filterUnavailableReason() {
            if requested == .filter { warn("output filter was asked for, but \(reason); running in observe mode") }
            return ObserveOutput(filterUnavailable: reason)
        }
        return UinputOutput(engine: config, filter: config.output.filter, log: info, warn: { [logger] in logger.warning("\($0)") })
    }

    /// Why filter mode cannot run here, with the fix; nil when it can.
    private func filterUnavailableReason() -> String? {
        guard case .libinput = options.input else { return "input comes from a recording; there is no node to grab" }
        return UinputOutput.unavailableReason()
    }

    /// What `status` and the `output` event say of the output.
    private var outputInfo: StatusResult.OutputInfo {
        StatusResult.OutputInfo(mode: output.mode.rawValue, requested: requestedOutput.rawValue,
                                reason: output.statusReason, waiting: output.waitingToGrab, capturesPen: output.capturesPen)
    }

    /// Replaces the output at run time; engine state (canvas, strokes,
    /// precision) stays. Observe closes a filter at once: every grab is
    /// released and every clone destroyed (the user's escape hatch). With
    /// `refuseImpossible`, a filter that cannot run is an error and nothing
    /// changes; otherwise observe runs and says why. Succeeds with whether
    /// the mode or the requested mode changed: then call `announceOutput`.
    private func switchOutput(to requested: OutputChoice, config: EngineConfig, refuseImpossible: Bool) -> Result<Bool, ProtocolError> {
        let before = outputInfo
        let unavailable = requested == .observe ? nil : filterUnavailableReason()
        if requested == .filter, let unavailable, refuseImpossible {
            return .failure(ProtocolError(code: .failed, message: "filter is not possible: \(unavailable); the output stays \(output.mode.rawValue)"))
        }
        requestedOutput = requested
        let filter = requested != .observe && unavailable == nil
        if filter && output.mode == .filter {
            (output as? UinputOutput)?.reconfigure(engine: config, filter: config.output.filter)
        } else {
            output.close()
            output = chooseOutput(requested, config: config)
            handler.withholdsPresses = output.mode == .filter
            for device in outputDevices.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) { output.deviceAdded(device) }
            handler.describeStateForOutput(now: monotonicMicroseconds())
            publish()
        }
        let after = outputInfo
        return .success(after.mode != before.mode || after.requested != before.requested)
    }

    /// Logs the output that runs now and sends `output` subscribers the event.
    private func announceOutput() {
        let now = outputInfo
        announcedCapture = now.capturesPen ?? false
        log("output \(now.mode) (requested \(now.requested)): \(now.reason)\(now.mode == OutputMode.filter.rawValue ? (announcedCapture ? "; while the canvas is open the pen reaches only the canvas" : "; while the canvas is open the pen still reaches the desktop, so the canvas window takes pointer input") : "")")
        let line = Response.line(OutputEvent(now, time: monotonicMicroseconds()))
        for client in clients where client.topics.contains(.output) { client.send(line, kind: .state) }
    }

    /// After a reload: a changed `[output] mode` (or `--output`) switches the
    /// output; otherwise a running filter takes the new settings. A mode the
    /// `output` command chose stays until the file's mode changes. Returns
    /// whether to `announceOutput` (after the reload is answered).
    private func reloadOutput(previous: OutputConfig, config: EngineConfig) -> Bool {
        if config.output.mode != previous.mode {
            return (try? switchOutput(to: config.output.mode, config: config, refuseImpossible: false).get()) ?? false
        }
        (output as? UinputOutput)?.reconfigure(engine: config, filter: config.output.filter)
        return false
    }

    // MARK: Input

    private func drain(_ source: InputSource) {
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
                    let device = OutputDevice(id: id, info: info, node: source.nodePath(of: id))
                    outputDevices[id] = device
                    output.deviceAdded(device)
                    catalog.refresh()
                case .deviceRemoved(let id):
                    outputDevices[id] = nil
                    output.deviceRemoved(id)
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
    private func publish() {
        output.apply(handler.effects)
        performActions()
        if fanout.publish(&handler.effects, to: clients) { saver.markDirty() }
    }

    // MARK: Actions the engine hands over

    /// Performs the double presses' preset, exec, key and click actions; one
    /// that cannot be performed turns its double-press event into "ignored",
    /// with the reason, before the event is published.
    private func performActions() {
        guard !handler.effects.actionRequests.isEmpty else { return }
        for request in handler.effects.actionRequests {
            if let reason = perform(request) {
                log("double press \(request.button) -> \(request.action) ignored: \(reason)")
                handler.ignore(request, reason: reason)
            }
        }
        handler.effects.actionRequests.removeAll(keepingCapacity: true)
    }

    /// Nil when done, else why not.
    private func perform(_ request: ActionRequest) -> String? {
        switch request.action {
        case .preset(let name):
            if let reason = handler.switchPreset(to: name) { return reason }
            (output as? UinputOutput)?.reconfigure(engine: handler.engine.config, filter: handler.engine.config.output.filter)
            return nil
        case .exec(let command):
            return launcher.start(command, for: request.button)
        case .key(let chord):
            return withActionDevices { $0.press(chord) }
        case .click(let button):
            return withActionDevices { $0.click(button) }
        case .toggleCanvas, .togglePrecision, .undo, .clearCanvas, .openCanvas, .minimizeCanvas, .none:
            return nil   // the engine's own
        }
    }

    /// Why `action` cannot work here, with the fix; nil when it can.
    private func unavailableReason(_ action: Action) -> String? {
        switch (action, actionDevices) {
        case (.key, .failure(let error)?), (.click, .failure(let error)?):
            "no virtual \(action.form == .key ? "keyboard" : "pointer"): \(error.reason)"
        default:
            nil
        }
    }

    /// Makes the virtual keyboard and pointer when a binding needs them and
    /// they are not there; drops them when none does.
    private func prepareActionDevices(for config: EngineConfig) {
        let needed = config.boundButtons.contains { $0.action.form == .key || $0.action.form == .click }
        guard needed else { return actionDevices = nil }
        if case .success = actionDevices { return }
        do {
            let devices = try ActionDevices()
            actionDevices = .success(devices)
            log("key: and click: bindings write to the virtual keyboard \(devices.keyboardNode) and pointer \(devices.pointerNode)")
        } catch {
            actionDevices = .failure(error)
            warn("key: and click: bindings cannot work: \(error.reason)")
        }
    }

    /// Runs `body` on the virtual devices, made now if an earlier attempt
    /// failed (the fix may have been applied since); nil when done, else why not.
    private func withActionDevices(_ body: (ActionDevices) -> String?) -> String? {
        var madeNow = false
        if case .failure = actionDevices {
            actionDevices = nil
            madeNow = true
        }
        prepareActionDevices(for: handler.engine.config)
        switch actionDevices {
        case .success? where madeNow:
            // The desktop has not opened a device made this instant: what it writes now reaches no one.
            return "the virtual keyboard and pointer were made just now (the fix works); the desktop takes them up in a moment: double press again"
        case .success(let devices)?: return body(devices)
        case .failure(let error)?: return "no virtual keyboard or pointer: \(error.reason)"
        case nil: return "no binding needs a virtual keyboard or pointer"
        }
    }

    // MARK: Helper processes

    private func requestReload(_ waiter: ConfigReloader.Waiter) {
        if reloader.isIdle { notifier.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())") }
        finishReloads(reloader.request(waiter))
    }

    private func finishReloads(_ finished: [(ConfigReloader.Waiter, Result<EngineConfig, ConfigError>)]) {
        guard !finished.isEmpty else { return }
        // Only the newest outcome is applied; earlier ones in the batch read the same or an older file.
        let previousOutput = handler.engine.config.output
        handler.applyReload(finished.last!.1)
        var outputChanged = false
        if case .success(let config) = finished.last!.1 {
            outputChanged = reloadOutput(previous: previousOutput, config: config)
            prepareActionDevices(for: config)
        }
        for (waiter, outcome) in finished {
            guard let client = waiter.client else { continue }
            client.awaitsDeferredAnswer = false
            client.send(handler.reloadAnswer(id: waiter.id, outcome), kind: .response)
        }
        if outputChanged { announceOutput() }
        if reloader.isIdle { notifier.send("READY=1") }
    }

    private func answerProbeWaiters() {
        for (client, id) in probeWaiters {
            client.awaitsDeferredAnswer = false
            client.send(handler.devicesAnswer(id: id), kind: .response)
        }
        probeWaiters.removeAll()
    }

    // MARK: Clients

    private func acceptClients(_ listener: Listener) {
        while true {
            // accept4 hides behind _GNU_SOURCE in Glibc's module; accept + fcntl does the same.
            let fd = retryingInterrupts { accept(listener.fd, nil, nil) }
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE { refuseForLackOfDescriptors(listener) }
                return
            }
            descriptorsExhausted = false
            let client = ClientConnection(fd: fd, number: nextClientNumber)
            nextClientNumber += 1
            do {
                try makeNonBlockingCloseOnExec(fd)
            } catch {
                warn("cannot serve a new connection: \(error)")
                continue
            }
            guard let uid = client.peerUID(), uid == getuid() else {
                let who = client.peerUID().map { "uid \($0)" } ?? "an unknown user"
                _ = client.output.enqueue(Array("{\"event\":\"refused\",\"reason\":\"only uid \(getuid()) may use this daemon; you are \(who)\"}\n".utf8), kind: .notice)
                _ = client.flush()
                warn("refused a connection from \(who)")
                continue
            }
            _ = client.output.enqueue(Response.line(HelloEvent(version: Self.version, pid: getpid())), kind: .notice)
            clients.append(client)
        }
    }

    private func refuseForLackOfDescriptors(_ listener: Listener) {
        if !descriptorsExhausted {
            warn("out of file descriptors with \(clients.count) clients connected; refusing new connections until some close")
            descriptorsExhausted = true
        }
        if spareFD >= 0 { close(spareFD) }
        let fd = accept(listener.fd, nil, nil)
        if fd >= 0 {
            let message = Array("{\"event\":\"refused\",\"reason\":\"stylusd has too many connections (\(clients.count)); try again later\"}\n".utf8)
            _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
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
            client.closeReason = .sentTooLongLine
        case .failed(let code):
            client.closeReason = .readFailed(code)
        }
    }

    /// Answers up to `ClientConnection.answersPerTurn` of the client's lines,
    /// in order, stopping early once its unsent output passes the pause mark
    /// or an answer has to wait for a helper process.
    private func answerWaitingLines(_ client: ClientConnection) {
        var budget = ClientConnection.answersPerTurn
        while budget > 0, client.closeReason == nil, let line = client.nextLineToAnswer() {
            switch handler.answer(line, topics: &client.topics, now: monotonicMicroseconds(), peer: client.peerPID) {
            case .now(let response):
                client.send(response, kind: .response)
            case .afterReload(let id):
                client.awaitsDeferredAnswer = true
                requestReload(ConfigReloader.Waiter(client: client, id: id))
            case .afterProbe(let id):
                client.awaitsDeferredAnswer = true
                probeWaiters.append((client, id))
            case .switchOutput(let id, let choice):
                let outcome = switchOutput(to: choice, config: handler.engine.config, refuseImpossible: true)
                client.send(handler.outputAnswer(id: id, outcome), kind: .response)
                if case .success(true) = outcome { announceOutput() }
            }
            publish()
            budget -= 1
        }
        if client.peerClosed, !client.hasUnansweredLines, !client.awaitsDeferredAnswer, client.closeReason == nil {
            client.closeReason = .closedItsSide
        }
    }

    private func dropClosedClients() {
        clients.removeAll { client in
            guard let reason = client.closeReason else { return false }
            if !client.output.isEmpty, client.flush(), !client.output.isEmpty, reason == .closedItsSide {
                return false   // still writing the last responses to a half-closed peer
            }
            if reason != .closedItsSide { log("client \(client.number) disconnected: \(reason)") }
            probeWaiters.removeAll { $0.client === client }
            return true
        }
    }
}
