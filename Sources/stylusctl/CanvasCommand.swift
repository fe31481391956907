// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol

/// toggle, open, minimize, discard: a `StateCommand` that waits for the
/// transition it starts or meets (`TransitionWait`), then prints the state
/// reached; `--no-wait` answers as the daemon does.
struct CanvasCommand<Kind: StateCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Kind.command.name.rawValue, abstract: Kind.command.name.summary,
                             discussion: "Waits until the canvas has opened or minimized (at most its transition time, "
                                + "config.toml's transition_ms, and 2 s more) and prints the state reached; a command "
                                + "stylusd refuses during a transition is sent again once the transition has ended.")
    }
    @OptionGroup var socket: SocketOption
    @OptionGroup var wait: WaitOption
    @Flag(help: "Print the daemon's JSON result (after a wait, the status reached, with the answer's changed and reason).") var json = false

    func run() throws {
        if wait.noWait { return try runStateCommand(Kind.command, socket: socket, json: json) }
        try client { () throws(StylusClientError) in
            let waiter = try TransitionWait(socket.connect())
            let response = try waiter.send(Kind.command)
            let answered = try response.typed(StatusResult.self)
            guard TransitionWait.transitional(answered.canvas.state), var reached = try waiter.settle() else {
                return emit(json ? stylusctl.json(try response.raw()) : describeStatus(answered, only: StatusPart(Kind.command)))
            }
            if json {
                guard case .object(var fields) = try waiter.connection.send(.status).raw(),
                      case .object(let answer) = try response.raw() else { throw StylusClientError(.protocolViolation, "the daemon's status is not an object") }
                for key in ["changed", "reason"] { fields[key] = answer[key] }
                return emit(stylusctl.json(.object(fields)))
            }
            reached.changed = answered.changed
            reached.reason = answered.reason
            emit(describeStatus(reached, only: StatusPart(Kind.command)))
        }
    }
}
