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

@main
struct Stylusctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusctl",
        abstract: "Control and watch a running stylusd.",
        discussion: """
            Exit status: 0 on success, 1 when stylusctl itself fails (a file it cannot write, a terminal it cannot \
            use), \(Status.refused) when stylusd refused the command, \(Status.usage) on a usage error, \
            \(Status.notRunning) when stylusd is not running, \(Status.protocolError) when its answer made no sense, \
            \(Status.badConfig) for a configuration file with a problem (`config check`, `reload`, `calibrate`: the \
            problem is printed).

            Double-press actions, for config.toml's [bindings] (BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3, pad-N) and \
            stylusd --bind BUTTON=ACTION:
            \(Action.helpTable)
            """,
        version: StylusVersion.current,
        // One subcommand per protocol command (CommandName's order), then stylusctl's own.
        subcommands: CommandName.allCases.compactMap(\.subcommand) + [
            Monitor.self,
            Calibrate.self,
            Config.self,
            Completions.self,
        ]
    )

    /// A first word that is no command gets the nearest command's name
    /// instead of ArgumentParser's "Unexpected argument".
    static func main() {
        let arguments = socketAfterTheCommand(Array(CommandLine.arguments.dropFirst()))
        if let first = arguments.first, let message = unknownCommandMessage(first) {
            printError(message)
            Glibc.exit(Status.usage)
        }
        // The parser child of `config check` and calibrate is the daemon's: `stylusd parse-config-child`.
        ConfigParserClient.defaultExecutable = ConfigParserClient.parserBesideThisProgram
        main(arguments)
    }

    /// `stylusctl --socket PATH status` as `stylusctl status --socket PATH`:
    /// every command takes `--socket`, and people type it first too.
    static func socketAfterTheCommand(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var socket: [String] = []
        while let first = rest.first, first == "--socket" || first.hasPrefix("--socket=") {
            let taken = first == "--socket" ? 2 : 1
            guard rest.count > taken else { return arguments }
            socket += rest.prefix(taken)
            rest = rest.dropFirst(taken)
        }
        guard let command = rest.first, !socket.isEmpty else { return arguments }
        return [command] + socket + rest.dropFirst()
    }

    /// The names a user may type first: the visible subcommands and `help`.
    static var commandNames: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName } + ["help"]
    }

    /// Nil for an option or a known command; otherwise what to say.
    static func unknownCommandMessage(_ word: String) -> String? {
        let names = commandNames
        guard !word.hasPrefix("-"), !names.contains(word), ConfigParserChild.command != word else { return nil }
        return "stylusctl: " + unknownWord("command", word, among: Array(names.dropLast()))
    }
}

/// `unknown command "togle"; did you mean "toggle"?`, or with no near
/// word, `unknown command "xyzzy"; commands are status, toggle, …`.
func unknownWord(_ kind: String, _ word: String, among names: [String]) -> String {
    let suggestion = didYouMean(word, among: names)
    return "unknown \(kind) \"\(word)\"" + (suggestion.isEmpty ? "; \(kind)s are \(names.joined(separator: ", "))" : suggestion)
}

/// `; did you mean "toggle"?` for the nearest word (`nearestWord`), or "" when nothing is that near.
func didYouMean(_ word: String, among candidates: [String]) -> String {
    nearestWord(word, among: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
}

extension CommandName {
    /// The stylusctl subcommand that sends this command; `subscribe` is `watch`.
    var subcommand: ParsableCommand.Type? {
        switch self {
        case .status: StateCommand<StatusKind>.self
        case .toggle: CanvasCommand<ToggleKind>.self
        case .open: CanvasCommand<OpenKind>.self
        case .minimize: CanvasCommand<MinimizeKind>.self
        case .ack: StateCommand<AckKind>.self
        case .clear: StateCommand<ClearKind>.self
        case .undo: StateCommand<UndoKind>.self
        case .redo: StateCommand<RedoKind>.self
        case .tool: ToolCommand.self
        case .export: ExportCommand.self
        case .submit: SubmitCommand.self
        case .discard: CanvasCommand<DiscardKind>.self
        case .palette: PaletteCommand.self
        case .background: BackgroundCommand.self
        case .paletteRegions: nil   // stylus-canvas's report of where its palette is
        case .strokes: Strokes.self
        case .precision: PrecisionCommand.self
        case .subscribe: Watch.self
        case .unsubscribe: nil   // only meaningful on a connection that stays open
        case .devices: Devices.self
        case .reload: Reload.self
        case .output: OutputCommand.self
        case .overlay: nil   // stylus-canvas's own report; `status` shows it
        case .pens: PensCommand.self
        case .key: nil   // a canvas forwards the keys pressed on it
        case .draw: nil   // a canvas's pointer strokes
        case .text: TextCommand.self
        case .snapshot: SnapshotCommand.self
        case .copy: CopyCommand.self
        case .shared: nil   // a canvas's answer to a snapshot or copy
        }
    }
}
