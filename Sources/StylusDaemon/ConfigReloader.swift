// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem

/// `reload` and SIGHUP without blocking the loop: the file is parsed in a
/// helper process whose pipe sits in the poll set, and the running
/// configuration stays until it answers. Requests that arrive while a parse
/// runs wait for the next one, which reads the file again, so nobody is
/// told "reloaded" about a file older than their request.
final class ConfigReloader {
    /// Who asked: a client's request (answered when the parse ends), or a signal.
    struct Waiter {
        var client: ClientConnection?
        var id: JSONValue
    }

    private let options: DaemonOptions
    private var running: (parse: any ConfigParserClient.PendingParse, waiters: [Waiter])?
    /// One parser child kept from reload to reload.
    private let server = ConfigParserClient()
    private var queued: [Waiter] = []
    /// The file's last bytes and what they gave: an unchanged file needs no helper.
    private var lastBytes: [UInt8]?
    private var lastOutcome: Result<EngineConfig?, ConfigError>?

    init(options: DaemonOptions) {
        self.options = options
    }

    /// The running parser's pipe, to poll.
    var fd: Int32? { running?.parse.fd }
    /// When a parser that has not answered is stopped, or a replaced parser
    /// child is looked at again to be reaped, whichever comes first.
    var deadline: Int64? {
        switch (running?.parse.deadline, server.reapDeadline) {
        case let (parse?, reap?): min(parse, reap)
        case let (parse, reap): parse ?? reap
        }
    }
    var isIdle: Bool { running == nil && queued.isEmpty }

    /// Asks for a reload; what finishes now (nothing to parse, or an
    /// unchanged file) is returned at once, the rest later from `readable`.
    func request(_ waiter: Waiter) -> [(Waiter, Result<EngineConfig, ConfigError>)] {
        queued.append(waiter)
        return startNext()
    }

    /// Reads the parser's answer; returns the finished requests, if it is done.
    func readable() -> [(Waiter, Result<EngineConfig, ConfigError>)] {
        guard let (parse, waiters) = running, parse.readAvailable() else { return [] }
        running = nil
        let outcome = parse.finish()
        lastOutcome = outcome.map { $0 }
        let finished = waiters.map { ($0, outcome.flatMap { options.finishConfig($0) }) }
        return finished + startNext()
    }

    /// Stops a parser past its deadline; its requests fail with the reason.
    func timeOut(now: Int64) -> [(Waiter, Result<EngineConfig, ConfigError>)] {
        if let reap = server.reapDeadline, reap <= now { server.reapRetired(now: now) }
        guard let (parse, waiters) = running, parse.deadline <= now else { return [] }
        running = nil
        let error = parse.timeOut()
        lastBytes = nil
        return waiters.map { ($0, .failure(error)) } + startNext()
    }

    /// Lets the kept parser child go (at a stop).
    func close() { server.close() }

    private func startNext() -> [(Waiter, Result<EngineConfig, ConfigError>)] {
        guard running == nil, !queued.isEmpty else { return [] }
        let waiters = queued
        queued.removeAll()
        let bytes: [UInt8]
        switch options.readConfigBytes() {
        case .failure(let error):
            return waiters.map { ($0, .failure(error)) }
        case .success(nil):
            return waiters.map { ($0, options.finishConfig(nil)) }
        case .success(let read?):
            bytes = read
        }
        if bytes == lastBytes, let lastOutcome {
            return waiters.map { ($0, lastOutcome.flatMap { options.finishConfig($0) }) }
        }
        lastBytes = bytes
        lastOutcome = nil
        do {
            running = (try server.start(bytes, file: options.configPath!), waiters)
            return []
        } catch {
            lastBytes = nil
            return waiters.map { ($0, .failure(error)) }
        }
    }
}
