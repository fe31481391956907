// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a config.toml without a daemon.")
        @Argument(help: "The file to check (default $XDG_CONFIG_HOME/stylusd/config.toml, the one stylusd reads).",
                  completion: .file(extensions: ["toml"])) var file: String?

        func run() throws {
            guard let file = file ?? Paths.defaultConfigFile(environment: StylusConnection.environmentForPaths) else {
                printError("stylusctl: no config file to check: set XDG_CONFIG_HOME or HOME, or name the file")
                throw ExitCode(Status.badConfig)
            }
            let bytes: [UInt8]
            do { bytes = try readConfigFile(file) } catch {
                // Every key is optional: no file at the default path is the daemon's usual case, not a problem.
                if self.file == nil, error.errno.rawValue == ENOENT {
                    let defaults = EngineConfig()
                    emit("\(file): no such file; stylusd runs on the defaults (interval \(defaults.doublePressIntervalMS) ms, "
                         + "debounce \(defaults.debounceMS) ms, transition \(defaults.transitionMS) ms)")
                    return
                }
                printError("stylusctl: \(file): \(error.errno.reason)")
                throw ExitCode(Status.badConfig)
            }
            do {
                let config = try ConfigParserClient.parse(bytes, file: file)
                emit("\(file): OK (interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms, transition \(config.transitionMS) ms)")
            } catch {
                printError("stylusctl: \(error)")
                throw ExitCode(Status.badConfig)
            }
        }
    }
}

/// config.toml's bytes for `config check` and calibrate, or more than
/// ConfigParserChild.maxBytes of them: ConfigParserClient.parse then refuses the file by its size.
func readConfigFile(_ path: String) throws(SystemCallError) -> [UInt8] {
    let fd = try systemCall("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    return try readToEnd(fd, stoppingAfter: ConfigParserChild.maxBytes, subject: path)
}
