// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusConfig
import StylusConfigParser

/// `stylusctl parse-config-child -- FILE`: the config parser child that
/// `config check` starts (config bytes on stdin, the answer on stdout). Hidden.
struct ParseConfigChild: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: ConfigParseChild.command, shouldDisplay: false)

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []

    func run() throws { throw ExitCode(ConfigParseChild.main(arguments: arguments)) }
}
