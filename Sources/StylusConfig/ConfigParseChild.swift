import FoundationEssentials
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The parser child's conversation: `PROGRAM parse-config-child -- FILE`
/// reads the file's bytes on standard input and answers on standard output.
/// The child's side lives in StylusConfigParser, with TOMLKit; the programs
/// that link it offer it as a hidden subcommand (stylusctl, stylus-fuzz) or
/// are it (stylusd-parse-config, which the daemon starts: the daemon itself
/// links no TOML parser).
///
/// The answer: exit status 0 and the configuration as JSON, or exit status
/// 3 and `line NUL key-or-\u{1} NUL message`, repeated (NUL between) for
/// every problem the file has (a NUL inside a key or message is sent as
/// U+FFFD). Any other end (a signal,
/// another status, a short answer) means the parser died on the file.
public enum ConfigParseChild {
    /// The hidden subcommand's name.
    public static let command = "parse-config-child"

    package static let parsed: Int32 = 0
    package static let refused: Int32 = 3
    package static let cannotEncode: Int32 = 4
    package static let cannotRead: Int32 = 5
    package static let cannotWrite: Int32 = 6

    /// `parse-config-child --serve`: one file after another on standard
    /// input, so a reload costs a message instead of a process. A request is
    /// `<file bytes> <config bytes>\n`, the file's name, then the config;
    /// each answer is `<status> <bytes>\n` and then what the one-shot child
    /// would print, its status what that child would exit with. It ends at
    /// EOF, on a malformed request, and after `maxServed` answers, because
    /// TOMLKit keeps what it parsed (LebJe/TOMLKit#26).
    public static let serveFlag = "--serve"
    package static let maxServed = 256

    /// Reads what the child sent back: the configuration, or the error it named.
    static func decode(status: Int32, reply: [UInt8], file: String) -> Result<EngineConfig, ConfigError> {
        switch status {
        case parsed:
            guard let config = try? JSONDecoder().decode(EngineConfig.self, from: Data(reply)) else {
                // Not the TOML's fault: a parser from another build speaks another configuration.
                return .failure(ConfigFile.cannotCheck(
                    "the parser child answered with a configuration this stylusd cannot read; is \(ConfigParse.parserBesideThisProgram) "
                        + "from another version of stylusd? Install both from the same build", file: file))
            }
            return .success(config)
        case refused:
            let fields = reply.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 3, fields.count % 3 == 0 else { return .failure(ConfigFile.parserDied("ended without a complete answer", file: file)) }
            var problems: [ConfigError] = []
            for i in stride(from: 0, to: fields.count, by: 3) {
                let key: String? = fields[i + 1] == "\u{1}" ? nil : fields[i + 1]
                let line: Int? = Int(fields[i])
                problems.append(ConfigError(file: file, line: line, key: key, message: fields[i + 2]))
            }
            var first = problems[0]
            first.others = Array(problems.dropFirst())
            return .failure(first)
        default:
            return .failure(ConfigFile.parserDied("exited with status \(status)", file: file))
        }
    }
}
