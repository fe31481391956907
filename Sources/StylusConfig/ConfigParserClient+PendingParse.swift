// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension ConfigParserClient {
    /// A parse that an event loop waits for: poll `fd` for POLLIN, call
    /// `readAvailable()` when it is ready and `finish()` once that returns
    /// true; if `deadline` passes first, call `timeOut()`.
    public protocol PendingParse: AnyObject {
        var fd: Int32 { get }
        var deadline: Int64 { get }
        func readAvailable() -> Bool
        func finish() -> Result<EngineConfig, ConfigError>
        func timeOut() -> ConfigError
    }

    /// One parser child at work on one file, for a poll(2) loop: put `fd`
    /// in the poll set (POLLIN), call `readAvailable()` when it is ready and
    /// `finish()` once that returns true; if `deadline` passes first, call
    /// `timeOut()`. The child is `executable parse-config-child -- FILE`,
    /// the config's bytes its standard input (a memfd, so starting never
    /// blocks on a pipe), its standard output the pipe behind `fd`. Dropping
    /// one that has not finished kills and reaps its child.
    public final class OneShotParse: PendingParse {
        /// The file's name, as errors name it.
        public let file: String
        /// CLOCK_MONOTONIC µs (`ConfigParserClient.now()`) after which the child is late: call `timeOut()`.
        public let deadline: Int64
        private let timeLimit: Int64
        private let child: ChildProcess
        private var outcome: Result<EngineConfig, ConfigError>?

        /// The child's process id.
        public var pid: pid_t { child.pid }
        /// The read end of the child's standard output, O_NONBLOCK and close-on-exec; -1 once closed.
        public var fd: Int32 { child.fd }

        private init(file: String, child: ChildProcess, timeLimit: Int64) {
            self.file = file
            self.child = child
            self.timeLimit = timeLimit
            deadline = ConfigParserClient.now() + timeLimit
        }

        /// Starts a child on `bytes`. Throws the same errors `ConfigParserClient.parse`
        /// does for a file over `ConfigParserChild.maxBytes` or a child that cannot be started.
        public static func start(_ bytes: [UInt8], file: String, executable: String? = nil,
                                 timeLimit: Int64 = ConfigParserClient.timeLimit) throws(ConfigError) -> OneShotParse {
            guard bytes.count <= ConfigParserChild.maxBytes else { throw ConfigError.tooBig(bytes.count, file: file) }
            // A program that cannot act as the child (a test runner) and was
            // started as one anyway must not go on to start children of its own.
            guard getenv(ConfigParserClient.childMarker) == nil else {
                throw ConfigError.cannotCheck("this process is a parser child itself and starts no other", file: file)
            }
            let program = executable ?? ConfigParserClient.defaultExecutable
            let name = program == ConfigParserClient.selfExecutable ? (ConfigParserClient.runningProgram() ?? program) : program
            do {
                let child = try ChildProcess(executable: program, arguments: [name, ConfigParserChild.command, "--", file], input: bytes,
                                             environment: ConfigParserClient.childEnvironment(),
                                             niceness: ConfigParserClient.niceness, maxOutputBytes: ConfigParserClient.maxReplyBytes)
                return OneShotParse(file: file, child: child, timeLimit: timeLimit)
            } catch {
                let what = error.call == "posix_spawn" ? "cannot start the parser child \(program)" : error.call
                throw ConfigError.cannotCheck("\(what): \(error.errno.reason)", file: file)
            }
        }

        /// Reads what the child has sent so far without waiting. True once the
        /// answer is complete (the child closed its end): then call `finish()`.
        public func readAvailable() -> Bool {
            outcome != nil || child.readAvailable()
        }

        /// Waits for the rest of the answer (until `deadline`), reaps the child
        /// and says what it found. Called again, returns the same.
        public func finish() -> Result<EngineConfig, ConfigError> {
            if let outcome { return outcome }
            while !child.readAvailable() {
                let left = deadline - ConfigParserClient.now()
                if left <= 0 { return .failure(timeOut()) }
                var ready = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, Int32(clamping: (left + 999) / 1000))
            }
            if child.outputOverflowed {
                child.stop()
                return settle(.failure(ConfigError.parserDied("answered with more than \(ConfigParserClient.maxReplyBytes) bytes", file: file)))
            }
            // The child has closed its output, so it is ending.
            switch child.wait() {
            case .signalled(let signo):
                return settle(.failure(ConfigError.parserDied("was killed by signal \(signo) (\(String(cString: strsignal(signo))))", file: file)))
            case .exited(let status):
                return settle(ConfigParserChild.decode(status: status, reply: child.output, file: file))
            }
        }

        /// Kills the child (SIGKILL), reaps it, and returns the error for a parser that never answered.
        public func timeOut() -> ConfigError {
            let error = ConfigError.parserDied("did not finish within \(ConfigParserClient.describe(duration: timeLimit)) and was stopped", file: file)
            if outcome == nil {
                child.stop()
                outcome = .failure(error)
            }
            return error
        }

        private func settle(_ result: Result<EngineConfig, ConfigError>) -> Result<EngineConfig, ConfigError> {
            outcome = result
            return result
        }
    }

    /// One request to the kept child.
    final class ServedParse: PendingParse {
        private let server: ConfigParserClient
        private let child: ChildProcess
        private let file: String
        let deadline: Int64
        private let timeLimit: Int64
        private var outcome: Result<EngineConfig, ConfigError>?
        private var header: (status: Int32, count: Int)?
        private var reply: (status: Int32, bytes: [UInt8])?
        /// The child's header line passed its limit: it is no answer of a parser child.
        private var headerTooLong: LineTooLong?
        private var headerMalformed = false

        init(server: ConfigParserClient, child: ChildProcess, file: String, timeLimit: Int64) {
            self.server = server
            self.child = child
            self.file = file
            self.timeLimit = timeLimit
            deadline = ConfigParserClient.now() + timeLimit
        }

        var fd: Int32 { child.fd }

        /// True once the answer is complete, or the child ended without one.
        func readAvailable() -> Bool {
            if outcome != nil || reply != nil || headerTooLong != nil { return true }
            let ended = child.readAvailable()
            if header == nil, !headerMalformed {
                do throws(LineTooLong) {
                    guard let line = try child.unreadOutput.nextLine() else { return ended }
                    let fields = line.split(separator: 0x20).compactMap { Int32(String(decoding: $0, as: UTF8.self)) }
                    // A header that is not two numbers never completes an answer: wait for the end, as for silence.
                    guard fields.count == 2, fields[1] >= 0 else { headerMalformed = true; return ended }
                    header = (fields[0], Int(fields[1]))
                } catch {
                    headerTooLong = error
                    return true
                }
            }
            if let header, let bytes = child.unreadOutput.take(header.count) {
                reply = (header.status, bytes)
                return true
            }
            return ended
        }

        func finish() -> Result<EngineConfig, ConfigError> {
            if let outcome { return outcome }
            while !readAvailable() {
                let left = deadline - ConfigParserClient.now()
                if left <= 0 { return .failure(timeOut()) }
                var ready = pollfd(fd: child.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, Int32(clamping: (left + 999) / 1000))
            }
            let result: Result<EngineConfig, ConfigError>
            if let headerTooLong {
                server.finished(child, keep: false)
                result = .failure(ConfigError.parserDied("answered with \(headerTooLong) where a header was due", file: file))
            } else if let reply {
                result = ConfigParserChild.decode(status: reply.status, reply: reply.bytes, file: file)
                server.finished(child, keep: !child.reachedEnd)
            } else {
                // It ended without an answer: the parser crashed on this file.
                let ending = child.wait()
                server.finished(child, keep: false)
                if case .signalled(let signo) = ending {
                    result = .failure(ConfigError.parserDied("was killed by signal \(signo) (\(String(cString: strsignal(signo))))", file: file))
                } else {
                    result = .failure(ConfigError.parserDied("ended without a complete answer (\(ending))", file: file))
                }
            }
            outcome = result
            return result
        }

        func timeOut() -> ConfigError {
            let error = ConfigError.parserDied("did not finish within \(ConfigParserClient.describe(duration: timeLimit)) and was stopped", file: file)
            if outcome == nil {
                server.finished(child, keep: false)
                outcome = .failure(error)
            }
            return error
        }
    }
}
