// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusConfigParser
import StylusCore
import StylusDaemon
import StylusInput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

@main
struct Stylusd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusd",
        abstract: "Pen side-button double presses and pressure precision for Linux tablets.",
        usage: "stylusd [run] [<options>]\n       stylusd probe [--json]\n       stylusd replay <file> [<options>]",
        discussion: """
            With no subcommand, runs the daemon in the foreground: pen input from libinput, \
            events on standard output. `stylusd probe` lists the input hardware; \
            `stylusd replay` runs the engine offline over an evemu recording.
            """,
        version: StylusVersion.current,
        subcommands: [Run.self, ProbeCommand.self, Replay.self],
        defaultSubcommand: Run.self
    )

    /// `stylusd --help` (and `-h`, `help`) shows the daemon's options too:
    /// they are the default subcommand's, which ArgumentParser's root help leaves out.
    /// The completion scripts complete them too (`completionScriptWithDefaultSubcommand`).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The config parser child (ConfigParserClient starts it, from the daemon and
        // from stylusctl): this binary, so that the parser costs no Swift runtime of
        // its own on disk, and a process of its own, so that a bug in it costs only it.
        if arguments.first == ConfigParserChild.command {
            Glibc.exit(ConfigParserChild.main(arguments: Array(arguments.dropFirst())))
        }
        // The daemon's SVG helper (`export` to a .svg file): not a command for people, so not in the help.
        if arguments.first == Exporter.svgChildCommand { Glibc.exit(Exporter.svgChildMain(Array(arguments.dropFirst()))) }
        if ["--help", "-h", "help"].contains(arguments.first), arguments.count == 1 {
            _ = writeAll(STDOUT_FILENO, Array(fullHelp().utf8))
            return
        }
        if let shell = completionShellRequested(arguments) {
            _ = writeAll(STDOUT_FILENO, Array(completionScriptWithDefaultSubcommand(for: shell).utf8))
            return
        }
        main(arguments)
    }

    /// The shell of `--generate-completion-script SHELL` (or `=SHELL`) given alone; nil for any other command line.
    static func completionShellRequested(_ arguments: [String]) -> CompletionShell? {
        let words = arguments.count == 1 ? arguments[0].split(separator: "=", maxSplits: 1).map(String.init) : arguments
        guard words.count == 2, words[0] == "--generate-completion-script" else { return nil }
        return CompletionShell(rawValue: words[1])
    }

    /// ArgumentParser's script for `shell`, completing the daemon's options
    /// where no subcommand is typed (`DefaultSubcommandCompletion`).
    static func completionScriptWithDefaultSubcommand(for shell: CompletionShell) -> String {
        let changed = DefaultSubcommandCompletion.change(completionScript(for: shell), for: shell, subcommandNames: subcommandNames)
        if let anchor = changed.missingAnchor {
            _ = writeAll(STDERR_FILENO, Array("stylusd: the \(shell.rawValue) completion script has no \"\(anchor)\" to change; the daemon's options complete only after `run`\n".utf8))
        }
        return changed.script
    }

    /// The words after which the default-subcommand wrappers leave completion to the generated scripts.
    static let subcommandNames = configuration.subcommands.map { $0._commandName } + ["help"]

    /// The root help, then the daemon's usage and options (`stylusd run`'s help without its overview).
    static func fullHelp(columns: Int? = nil) -> String {
        var text = helpMessage(columns: columns)
        let run = helpMessage(for: Run.self, columns: columns)
        if let usage = run.firstRange(of: "USAGE: ") {
            if !text.hasSuffix("\n") { text += "\n" }
            text += "\nTHE DAEMON (stylusd with no subcommand, or stylusd run):\n\n" + run[usage.lowerBound...]
        }
        return text.hasSuffix("\n") ? text : text + "\n"
    }
}
