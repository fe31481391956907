import FoundationEssentials
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

extension ConfigFile {
    /// config.toml is at most this big; anything larger is not a config file.
    public static let maxBytes = 1 << 20

    /// Parses in a child process, which sends back the configuration (as
    /// JSON) or the error. toml++, inside TOMLKit 0.6.0, is built with its
    /// assertions on, and the config fuzzer found inputs that trip them: in
    /// this process, a typo in config.toml would abort the daemon on start or
    /// on reload; a child that dies takes only itself down. TOMLKit also never
    /// frees what it parses (LebJe/TOMLKit#26), which in the daemon grew by
    /// 4 KiB per `reload`; in the child it goes when the child does.
    public static func parseIsolated(_ bytes: [UInt8], file: String) throws(ConfigError) -> EngineConfig {
        guard bytes.count <= maxBytes else {
            throw ConfigError(file: file, line: nil, key: nil, message: "\(bytes.count) bytes; a config file is at most \(maxBytes)")
        }
        switch checkInChild(bytes, file: file) {
        case .parsed(let config):
            return config
        case .refused(let error):
            throw error
        case .crashed(let how):
            throw ConfigError(file: file, line: nil, key: nil, message:
                "the TOML parser (toml++ in TOMLKit) \(how) on this file instead of naming the problem; check its brackets, quotes and table names")
        case .unavailable(let reason):
            throw ConfigError(file: file, line: nil, key: nil, message: "cannot check the file: \(reason)")
        }
    }

    /// A config file parses in milliseconds; this is only for a parser that never ends.
    static let childTimeoutMS = 10_000

    static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    enum ChildOutcome {
        case parsed(EngineConfig)
        case refused(ConfigError)
        case crashed(String)
        case unavailable(String)
    }

    static func checkInChild(_ bytes: [UInt8], file: String) -> ChildOutcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .unavailable("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let child = fork()
        if child < 0 {
            let reason = String(cString: strerror(errno))
            close(ends[0]); close(ends[1])
            return .unavailable("fork: \(reason)")
        }
        if child == 0 {
            // A fuzzer or sanitizer may have claimed SIGABRT; here it must just kill.
            signal(SIGABRT, SIG_DFL)
            close(ends[0])
            func send(_ bytes: [UInt8]) {
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = write(ends[1], buffer.baseAddress! + offset, buffer.count - offset)
                        if n < 0 { if errno == EINTR { continue }; break }
                        offset += n
                    }
                }
            }
            do {
                let config = try parse(bytes, file: file)
                guard let encoded = try? JSONEncoder().encode(config) else { _exit(4) }
                send(Array(encoded))
                _exit(0)
            } catch {
                // line NUL key-or-\u{1} NUL message
                let fields = [error.line.map(String.init) ?? "", error.key ?? "\u{1}", error.message]
                send(Array(fields.joined(separator: "\u{0}").utf8))
                _exit(3)
            }
        }
        close(ends[1])
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        let deadline = monotonicMilliseconds() + childTimeoutMS
        while true {
            var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let left = deadline - monotonicMilliseconds()
            if left <= 0 || poll(&ready, 1, Int32(left)) == 0 {
                timedOut = true
                break
            }
            let n = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress!, $0.count) }
            if n > 0 { reply += chunk[0..<n]; continue }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            break
        }
        close(ends[0])
        // A parser that hangs (or a child that deadlocked) must not hang the caller.
        if timedOut { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            if errno != EINTR { return .unavailable("waitpid: \(String(cString: strerror(errno)))") }
        }
        let signalled = status & 0x7f
        if timedOut {
            return .crashed("did not finish within \(childTimeoutMS / 1000) s and was stopped")
        }
        if signalled != 0 {
            return .crashed("was killed by signal \(signalled) (\(String(cString: strsignal(signalled))))")
        }
        switch (status >> 8) & 0xff {
        case 0:
            guard let config = try? JSONDecoder().decode(EngineConfig.self, from: Data(reply)) else {
                return .crashed("answered with a configuration this process cannot read")
            }
            return .parsed(config)
        case 3:
            let fields = reply.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3 else { return .crashed("ended without a complete answer") }
            return .refused(ConfigError(file: file, line: Int(fields[0]), key: fields[1] == "\u{1}" ? nil : fields[1], message: fields[2]))
        case let code:
            return .crashed("exited with status \(code)")
        }
    }
}
