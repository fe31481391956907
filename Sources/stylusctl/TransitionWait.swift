// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `--no-wait` of the canvas verbs that start or meet a transition.
struct WaitOption: ParsableArguments {
    @Flag(name: .customLong("no-wait"),
          help: "Answer at once, as the daemon does: the canvas may still be opening or minimizing, and a command it refuses during a transition fails.")
    var noWait = false
}

/// The daemon answers a canvas verb when its transition starts and refuses
/// most of them while one runs, which is right for a canvas that draws the
/// transition but would leave a script to guess with sleeps. So stylusctl
/// follows the `canvas` topic, waits for a transition's end (an event with
/// cause `ack` or `timeout`; the daemon ends every transition by
/// `transition_ms` at the latest) and sends a refused command again.
struct TransitionWait {
    let connection: StylusConnection
    /// Beyond `transition_ms`: the daemon's turn and a slow machine. A daemon
    /// that misses its own deadline by more is broken, and stylusctl says so.
    static let slackMS = 2000
    /// A command is sent again at most this often: each time another client started a new transition first.
    static let attempts = 3

    /// Subscribed before the command is sent, so that no transition can end unseen.
    init(_ connection: StylusConnection) throws(StylusClientError) {
        self.connection = connection
        _ = try connection.send(.subscribe([.canvas])).raw()
    }

    static func transitional(_ state: String) -> Bool { state == "opening" || state == "minimizing" }

    /// Sends `command`; a refusal while the canvas is in a transition is waited out and the command sent again.
    func send(_ command: ClientCommand) throws(StylusClientError) -> ResponseLine {
        var response = try connection.send(command)
        for _ in 1..<Self.attempts {
            guard Self.refused(response) else { return response }
            let status = try connection.status()
            guard Self.transitional(status.canvas.state) else { return response }
            try waitForEnd(status)
            response = try connection.send(command)
        }
        return response
    }

    /// The status once no transition runs, or nil when none ran after the answer (nothing to wait for).
    func settle() throws(StylusClientError) -> StatusResult? {
        var status = try connection.status()
        guard Self.transitional(status.canvas.state) else { return nil }
        // An end seen here may be an earlier transition's (queued since the subscription): ask again until none runs.
        while Self.transitional(status.canvas.state) {
            try waitForEnd(status)
            status = try connection.status()
        }
        return status
    }

    /// Blocks until a canvas event ends a transition, for `transition_ms` plus the slack at most.
    private func waitForEnd(_ status: StatusResult) throws(StylusClientError) {
        let limit = status.config.transitionMS + Self.slackMS
        Deadline.arm(milliseconds: limit, message: "stylusctl: the canvas was still \(status.canvas.state) after \(limit) ms "
                     + "(its transition takes \(status.config.transitionMS) ms); stylusd did not end it")
        defer { Deadline.disarm() }
        while let event = try connection.nextEvent() {
            if event.name == "canvas", let cause = event.string("cause"), cause == "ack" || cause == "timeout" { return }
        }
        throw StylusClientError(.notRunning, "stylusd closed the connection (it stopped)")
    }

    private static func refused(_ response: ResponseLine) -> Bool {
        do { _ = try response.result(as: JSONValue.self) } catch { return error.code == .refused }
        return false
    }
}
