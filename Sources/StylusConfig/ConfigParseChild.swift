import FoundationEssentials
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The parser child's side: `PROGRAM parse-config-child -- FILE` reads the
/// file's bytes on standard input and answers on standard output. Every
/// executable that links StylusConfig offers it as a hidden subcommand
/// (stylusd, stylusctl, stylus-fuzz), because the parent starts a copy of
/// itself (`ConfigParse.selfExecutable`).
///
/// The answer: exit status 0 and the configuration as JSON, or exit status
/// 3 and `line NUL key-or-\u{1} NUL message`, repeated (NUL between) for
/// every problem the file has (a NUL inside a key or message is sent as
/// U+FFFD). Any other end (a signal,
/// another status, a short answer) means the parser died on the file.
public enum ConfigParseChild {
    /// The hidden subcommand's name.
    public static let command = "parse-config-child"

    static let parsed: Int32 = 0
    static let refused: Int32 = 3
    static let cannotEncode: Int32 = 4
    static let cannotRead: Int32 = 5
    static let cannotWrite: Int32 = 6

    /// Runs the child; `arguments` are those after the command word (an
    /// optional `--`, then the file's name for messages). Returns the exit status.
    public static func main(arguments: [String]) -> Int32 {
        // Nothing may turn toml++'s abort into anything but death by SIGABRT.
        signal(SIGABRT, SIG_DFL)
        let rest = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        let file = rest.first ?? "config.toml"

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= ConfigFile.maxBytes {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return cannotRead
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        do throws(ConfigError) {
            // The parent never sends more; this is for anyone who starts the child by hand.
            guard bytes.count <= ConfigFile.maxBytes else { throw ConfigFile.tooBig(bytes.count, file: file) }
            let config = try ConfigFile.parse(bytes, file: file)
            guard let encoded = try? JSONEncoder().encode(config) else { return cannotEncode }
            return writeAll(STDOUT_FILENO, Array(encoded)) ? parsed : cannotWrite
        } catch {
            let fields = error.all.flatMap { problem in
                [problem.line.map(String.init) ?? "", (problem.key ?? "\u{1}").replacingNUL, problem.message.replacingNUL]
            }
            return writeAll(STDOUT_FILENO, Array(fields.joined(separator: "\u{0}").utf8)) ? refused : cannotWrite
        }
    }

    /// Reads what the child sent back: the configuration, or the error it named.
    static func decode(status: Int32, reply: [UInt8], file: String) -> Result<EngineConfig, ConfigError> {
        switch status {
        case parsed:
            guard let config = try? JSONDecoder().decode(EngineConfig.self, from: Data(reply)) else {
                return .failure(ConfigFile.parserDied("answered with a configuration this process cannot read", file: file))
            }
            return .success(config)
        case refused:
            let fields = reply.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 3, fields.count % 3 == 0 else { return .failure(ConfigFile.parserDied("ended without a complete answer", file: file)) }
            let problems = stride(from: 0, to: fields.count, by: 3).map { i in
                ConfigError(file: file, line: Int(fields[i]), key: fields[i + 1] == "\u{1}" ? nil : fields[i + 1], message: fields[i + 2])
            }
            var first = problems[0]
            first.others = Array(problems.dropFirst())
            return .failure(first)
        default:
            return .failure(ConfigFile.parserDied("exited with status \(status)", file: file))
        }
    }
}

private extension String {
    /// NUL separates the answer's fields, so none may be inside one.
    var replacingNUL: String { contains("\u{0}") ? replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : self }
}
