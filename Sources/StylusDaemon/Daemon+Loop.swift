// SPDX-License-Identifier: MIT
import CLinux
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The loop: one poll over every source, then each ready source served in
/// an order that matters (the comments say why), then the turn's writes.
extension Daemon {
    func loop(listener: Listener, signals: SignalDescriptor, timer: DeadlineTimer, source: InputSource) -> Int32 {
        var polled = PollSet()
        while true {
            polled.watch { slot in
                switch slot {
                case .input: source.fd
                case .signals: signals.fd
                case .timer: timer.fd
                case .listener: listener.fd
                case .reloader: reloader.fd
                case .catalog: catalog.fd
                case .output: outputs.output.pollDescriptor
                case .saver: saver.fd
                case .exporter: exporter.fd
                }
            }
            polled.watchCommands(actions.commands)
            let served = clients
            polled.watchClients(served)
            // Lines left unanswered by the per-turn budget: go round again at once.
            let ready = polled.poll(timeout: clients.contains(where: \.canAnswerNow) ? 0 : -1)
            if ready < 0 {
                logger.critical("poll failed: \(String(cString: strerror(errno)))")
                return 1
            }
            outputs.output.loopTurned()
            if polled.isReady(.signals), let status = handleSignals(signals) { return status }
            if polled.isReady(.output) {
                // Filter mode: the grabbed nodes, read raw; each frame is written once the engine decided it.
                // Before the timer: a frame the kernel stamped before a deadline is queued
                // before the timer fires, and the engine must see it first (each input
                // fires the deadlines due by its own time), as a replay of the stream does.
                // The desktop's pen before the socket's clients: the output gets each
                // input's effects at once, the clients their lines once the frame is written.
                let output = outputs.output
                output.descriptorReady({ timed in
                    handler.handle(timed)
                    output.apply(handler.effects)
                    handler.effects.output.removeAll(keepingCapacity: true)
                }, frameWritten: { publish() })
            }
            if polled.isReady(.timer) {
                // One timer for every deadline: the engine's, a save, a helper's.
                timer.acknowledge()
                let now = monotonicMicroseconds()
                handler.fireTimers(now: now)
                publish()
                finishReloads(reloader.timeOut(now: now))
                // Waiting clients get an answer once no probe is left running.
                if catalog.timeOut(now: now), catalog.fd == nil { answerProbeWaiters() }
                finishExports(exporter.timeOut(now: now))
                timeOutShares(now: now)
            }
            if polled.isReady(.input) { drain(source) }
            if polled.isReady(.catalog), let report = catalog.readable(now: monotonicMicroseconds()) {
                if let report { handler.devices = report }
                if handler.devices != nil || catalog.fd == nil { answerProbeWaiters() }
            }
            if polled.isReady(.saver) { saver.writerRang() }
            if polled.isReady(.exporter) { finishExports(exporter.readable(now: monotonicMicroseconds())) }
            if !polled.commands.isEmpty { actions.commands.serve(polled.commands) }
            if polled.isReady(.listener) { clients += acceptor.accept(from: listener, connected: clients.count) }
            // Clients accepted just now were not in this poll; they are served next time round.
            for (i, client) in served.enumerated() {
                let revents = polled.client(i)
                if revents & Int16(POLLIN) != 0 || revents & Int16(POLLHUP) != 0 { client.receive() }
            }
            // Round robin: each client gets a few answers per turn, so a
            // well-behaved one never waits behind another's batch.
            for client in clients where client.canAnswerNow || client.peerClosed {
                answerWaitingLines(client)
            }
            // A parsed configuration is applied after the lines that waited this turn:
            // applying it (and encoding a new status) is the costliest work a flood of
            // reloads asks for, and a `status` that came meanwhile is not its to wait for.
            if polled.isReady(.reloader) { finishReloads(reloader.readable()) }
            for client in clients where !client.output.isEmpty {
                if !client.flush() { client.closeReason = client.closeReason ?? .writeFailed }
            }
            dropClosedClients()
            handler.publishesSamples = clients.contains { $0.topics.contains(.pen) }
            source.armPacing()
            catalog.startIfAsked(now: monotonicMicroseconds())
            outputs.output.flush()
            outputs.announceIfCaptureChanged(to: clients)
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
            outputs.output.close()
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

    func armTimer(_ timer: DeadlineTimer) {
        // No array here either: once per pen event.
        var deadline = handler.nextDeadline
        func consider(_ other: Int64?) { if let other { deadline = min(deadline ?? other, other) } }
        consider(saver.saveIfDue(now: monotonicMicroseconds(), persistedState))
        consider(reloader.deadline)
        consider(catalog.deadline)
        consider(exporter.deadline)
        consider(shares.deadline)
        if !timer.set(deadline) {
            logger.critical("timerfd_settime failed: \(String(cString: strerror(errno))); transitions, saves and helpers' time limits are late until the next event")
        }
    }
}
