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

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.devices.summary)
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.devices)
            if json { return emit(stylusctl.json(try response.raw())) }
            let result = try response.typed(DevicesResult.self)
            for node in result.nodes {
                var line = "\(node.path)  \(node.name)  \(node.kind.rawValue)"
                if let error = node.error { line += ": \(error)" }
                if let pen = node.pen {
                    line += ": " + pen.sideButtons.joined(separator: " ")
                    if pen.display { line += ", pen display" }
                }
                emit(line)
            }
            if let reason = result.buttonOnlyReason { emit("no pen: \(reason)") }
        }
    }
}
