// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol

/// `stylusctl background [BOARD]`: the board under the ink, shown or changed;
/// the daemon keeps it (every canvas, exports and a restart see it).
struct BackgroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.background.rawValue, abstract: CommandName.background.summary,
        discussion: """
            Without an argument: the current board. none shows the desktop under the ink; white, black and grid \
            (white paper with light lines) and a colour #rrggbb are opaque boards under it, part of every export. \
            next goes round none, white, black, grid.
            """)
    static let names = ["none", "white", "black", "grid", "next"]
    @Argument(help: "none, white, black, grid, #rrggbb or next.", completion: .list(names)) var background: String?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        if let background, BackgroundRequest(name: background) == nil {
            throw ValidationError("the background is \(CanvasBackground.spellings) or next, not \"\(background)\"\(didYouMean(background, among: Self.names))")
        }
    }

    func run() throws {
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.background(background.flatMap(BackgroundRequest.init(name:))))
            if json { return emit(stylusctl.json(try response.raw())) }
            let status = try response.typed(StatusResult.self)
            var lines: [String] = []
            if status.changed == false, let reason = status.reason { lines.append("unchanged: \(reason)") }
            lines.append("background \(status.canvas.background ?? "none (a daemon older than boards)")")
            emit(lines.joined(separator: "\n"))
        }
    }
}
