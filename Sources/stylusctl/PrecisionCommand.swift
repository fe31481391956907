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

struct PrecisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: CommandName.precision.rawValue, abstract: CommandName.precision.summary)
    @Argument(help: "enable, disable or toggle", completion: .list(PrecisionRequest.allCases.map(\.rawValue))) var action: String
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        let actions = PrecisionRequest.allCases.map(\.rawValue)
        guard PrecisionRequest(rawValue: action) != nil else {
            throw ValidationError("the action is enable, disable or toggle, not \"\(action)\"\(didYouMean(action, among: actions))")
        }
    }

    func run() throws { try runStateCommand(.precision(PrecisionRequest(rawValue: action)!), socket: socket, json: json) }
}
