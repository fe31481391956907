// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol

/// `stylusctl pens`: each pen tool the daemon has seen, most recent first,
/// with the name `tool --pen` takes and the style it draws with.
struct PensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: CommandName.pens.rawValue, abstract: CommandName.pens.summary)
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.pens)
            if json { return emit(stylusctl.json(try response.raw())) }
            let result = try response.typed(PensResult.self)
            if result.pens.isEmpty { return emit("no pen seen yet") }
            for pen in result.pens {
                var ids = [pen.type]
                if let serial = pen.serial { ids.append("serial \(serial)") }
                if let toolID = pen.toolID { ids.append("tool id \(toolID)") }
                let seen = pen.lastSeenSecondsAgo.map { "seen \(Self.ago($0))" } ?? "not seen since the daemon started"
                emit("\(pen.name)\n  \(ids.joined(separator: ", ")) on \(pen.device)\n"
                    + "  \(pen.style.tool), \(pen.style.color), width \(StyleRequest.describe(pen.style.width)); \(seen)")
            }
        }
    }

    static func ago(_ seconds: Double) -> String {
        switch seconds {
        case ..<60: "\(Int(seconds)) s ago"
        case ..<3600: "\(Int(seconds / 60)) min ago"
        default: "\(Int(seconds / 3600)) h ago"
        }
    }
}
