// SPDX-License-Identifier: MIT
import StylusProtocol
import StylusSystem
import Testing
@testable import StylusClient
#if canImport(Glibc)
import Glibc
#endif

@Suite("Reconnection delays")
struct ReconnectBackoffTests {
    @Test func startsAt100msDoublesAndStopsAt5s() {
        var backoff = ReconnectBackoff()
        let delays = (0..<10).map { _ in backoff.nextDelayMilliseconds() }
        #expect(delays == [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000])
        backoff.reset()
        #expect(backoff.nextDelayMilliseconds() == 100, "a successful connection starts the schedule again")
    }

    @Test func aLongOutageNeverOverflows() {
        var backoff = ReconnectBackoff()
        for _ in 0..<10_000 { _ = backoff.nextDelayMilliseconds() }
        #expect(backoff.nextDelayMilliseconds() == 5000)
    }
}

@Suite("StylusClient against a fake daemon")
struct ClientTests {
    @Test func theNotRunningHintNamesTheUnitOnlyWhereOneIsInstalled() {
        #expect(StylusConnection.howToStart(unitInstalled: true).contains("systemctl --user start stylusd"))
        let without = StylusConnection.howToStart(unitInstalled: false)
        #expect(!without.contains("systemctl") && without.contains("make run") && without.contains(".build/run/stylusd/stylusd.sock"))
    }

    @Test func typedRequestsAndTheNotRunningMessage() throws {
        let path = temporaryDirectory() + "/s.sock"
        #expect {
            _ = try StylusConnection(path: path)
        } throws: { error in
            let e = error as? StylusClientError
            return e?.kind == .notRunning && e!.message.hasPrefix("stylusd is not running (\(path): No such file or directory).")
                && e!.message.hasSuffix(StylusConnection.howToStart(unitInstalled: StylusConnection.userUnitInstalled()))
        }
        let daemon = try FakeDaemon(path: path, canvasState: "open")
        defer { daemon.stop() }
        let connection = try StylusConnection(path: path)
        #expect(connection.hello.commands == CommandName.allCases.map(\.rawValue))
        #expect(try connection.status() == FakeDaemon.status("open"))
        #expect(try connection.subscribe([.canvas]).known == [.canvas])
        #expect(throws: StylusClientError(.commandFailed(.refused), "fake")) { try connection.toggle() }
        daemon.push(#"{"event":"canvas","state":"minimized"}"#)
        #expect(try connection.nextEvent()?.string("state") == "minimized")
    }

    @Test func noSocketPathIsNotRunning() throws {
        #expect(throws: StylusClientError.self) { try StylusConnection.resolvePath(socket: nil, environment: [:]) }
        #expect(try StylusConnection.resolvePath(socket: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/stylusd/stylusd.sock")
    }

    @Test func aSubscriptionSurvivesARestartAndGetsAFreshStatus() async throws {
        let path = temporaryDirectory() + "/s.sock"
        let first = try FakeDaemon(path: path, canvasState: "minimized")
        var updates = StylusSubscription(topics: [.canvas], path: path).makeAsyncIterator()

        guard case .connected(let initial)? = try await updates.next() else { Issue.record("no connected update"); return }
        #expect(initial.canvas.state == "minimized")
        #expect(first.requests == ["subscribe", "status"])
        first.push(#"{"event":"canvas","state":"opening","time_us":1}"#)
        guard case .event(let event)? = try await updates.next() else { Issue.record("no event"); return }
        #expect(event.string("state") == "opening")

        // The daemon goes away; it comes back ~300 ms later, with a state changed meanwhile.
        first.stop()
        let stoppedAt = ContinuousClock.now
        guard case .disconnected? = try await updates.next() else { Issue.record("no disconnected update"); return }
        try await Task.sleep(for: .milliseconds(300))
        let second = try FakeDaemon(path: path, canvasState: "open")
        let restartedAt = ContinuousClock.now
        defer { second.stop() }
        guard case .reconnected(let fresh)? = try await updates.next() else { Issue.record("no reconnected update"); return }
        #expect(fresh.canvas.state == "open", "the state after the restart, not the one before")
        #expect(second.requests == ["subscribe", "status"], "subscribed again, then asked for status")
        // Attempts at 100, 300, 700, 1500 ms … after the drop (the delay doubles), so the first
        // one after a restart at R comes by 2R + 100 ms; measured by the daemon's accept, since
        // this task may resume late on a busy machine. 0.5 s for the client thread's own wake-up.
        let reconnectedAt = try #require(second.firstAccepted)
        #expect(reconnectedAt - stoppedAt <= (restartedAt - stoppedAt) * 2 + .milliseconds(600),
                "restarted after \(restartedAt - stoppedAt), reconnected after \(reconnectedAt - stoppedAt)")
    }

    @Test func theCallbackFormStopsWhenCancelled() throws {
        let path = temporaryDirectory() + "/s.sock"
        let daemon = try FakeDaemon(path: path, canvasState: "open")
        defer { daemon.stop() }
        let seen = Locked<[String]>([])
        let ended = Locked(false)
        let handle = StylusSubscription(topics: [.canvas], path: path).start({ update in
            if case .connected(let status) = update { seen.withLock { $0.append(status.canvas.state) } }
        }, onEnd: { _ in ended.withLock { $0 = true } })
        var waited = 0
        while seen.withLock({ $0.isEmpty }) && waited < 1000 { usleep(10_000); waited += 1 }
        #expect(seen.withLock { $0 } == ["open"])
        handle.cancel()
        waited = 0
        while !ended.withLock({ $0 }) && waited < 1000 { usleep(10_000); waited += 1 }
        #expect(ended.withLock { $0 }, "cancel wakes the thread out of its read")
    }
}
