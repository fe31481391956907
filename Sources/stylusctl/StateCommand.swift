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

/// Sends `command` and prints the status it answers, or its JSON.
func runStateCommand(_ command: ClientCommand, socket: SocketOption, json: Bool) throws {
    try client { () throws(StylusClientError) in
        let response = try socket.connect().send(command)
        emit(json ? stylusctl.json(try response.raw()) : describeStatus(try response.typed(StatusResult.self), only: StatusPart(command)))
    }
}

/// A command without arguments that answers with the status: status, toggle, open, minimize, ack, clear.
protocol StateCommandKind {
    static var command: ClientCommand { get }
}

enum StatusKind: StateCommandKind { static let command = ClientCommand.status }
enum ToggleKind: StateCommandKind { static let command = ClientCommand.toggle }
enum OpenKind: StateCommandKind { static let command = ClientCommand.open }
enum MinimizeKind: StateCommandKind { static let command = ClientCommand.minimize }
enum AckKind: StateCommandKind { static let command = ClientCommand.ack }
enum ClearKind: StateCommandKind { static let command = ClientCommand.clear }
enum UndoKind: StateCommandKind { static let command = ClientCommand.undo }
enum RedoKind: StateCommandKind { static let command = ClientCommand.redo }
enum DiscardKind: StateCommandKind { static let command = ClientCommand.discard }

/// One definition for every `StateCommandKind`; name and help come from `CommandName`.
struct StateCommand<Kind: StateCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Kind.command.name.rawValue, abstract: Kind.command.name.summary)
    }
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws { try runStateCommand(Kind.command, socket: socket, json: json) }
}
