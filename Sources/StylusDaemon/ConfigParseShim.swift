// TEMPORARY: stands in for StylusConfig's ConfigParse (spawned parser child)
// until that lands; parses at start() and reports through a closed pipe.
import StylusConfig
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

final class ConfigParse {
    let fd: Int32
    let deadline: Int64
    private let outcome: Result<EngineConfig, ConfigError>

    private init(fd: Int32, outcome: Result<EngineConfig, ConfigError>) {
        self.fd = fd
        self.outcome = outcome
        deadline = monotonicMicroseconds() + 10_000_000
    }

    static func start(_ bytes: [UInt8], file: String) throws(ConfigError) -> ConfigParse {
        let outcome = Result { () throws(ConfigError) -> EngineConfig in try ConfigFile.parseIsolated(bytes, file: file) }
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        close(ends[1])
        return ConfigParse(fd: ends[0], outcome: outcome)
    }

    func readAvailable() -> Bool { true }
    func finish() -> Result<EngineConfig, ConfigError> { close(fd); return outcome }
    func timeOut() -> ConfigError { close(fd); return ConfigError(file: "", line: nil, key: nil, message: "timeout") }
}
