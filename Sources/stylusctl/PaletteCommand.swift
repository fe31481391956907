// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol

/// `stylusctl palette [show|hide|toggle]`: alone it toggles, as the `palette` action does.
struct PaletteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: CommandName.palette.rawValue, abstract: CommandName.palette.summary)
    @Argument(help: "show, hide or toggle (the default, as the palette action)", completion: .list(PaletteRequest.allCases.map(\.rawValue)))
    var action: String = PaletteRequest.toggle.rawValue
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        guard PaletteRequest(rawValue: action) != nil else {
            throw ValidationError("the action is show, hide or toggle, not \"\(action)\"\(didYouMean(action, among: PaletteRequest.allCases.map(\.rawValue)))")
        }
    }

    func run() throws { try runStateCommand(.palette(PaletteRequest(rawValue: action)!), socket: socket, json: json) }
}
