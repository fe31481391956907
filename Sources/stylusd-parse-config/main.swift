// SPDX-License-Identifier: MIT
import StylusConfig
import StylusConfigParser
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

// The daemon's config parser child: `stylusd-parse-config parse-config-child
// (-- FILE | --serve)`. A program of its own so that stylusd links no TOML
// parser: TOMLKit brings toml++ (libstdc++) and Foundation with ICU's data,
// which made the daemon's binary 84 MB and its idle resident memory 17.5 MiB.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == ConfigParserChild.command else {
    _ = writeAll(STDERR_FILENO, Array("stylusd-parse-config: stylusd starts this program to parse config.toml; run `stylusctl config check FILE` instead\n".utf8))
    exit(64)
}
exit(ConfigParserChild.main(arguments: Array(arguments.dropFirst())))
