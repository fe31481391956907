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

struct OutputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.output.rawValue, abstract: CommandName.output.summary,
        discussion: """
            observe gives the pen back to the desktop at once: every grab is released and every virtual pen removed. \
            filter grabs each pen once it is out of proximity with no button held; where it cannot run \
            (no writable /dev/uinput) the daemon says why and the fix, and stays in observe. \
            auto is filter where possible, else observe. The canvas, its strokes and precision mode are kept.
            """)
    @Argument(help: "observe, filter or auto", completion: .list(OutputChoice.allCases.map(\.rawValue))) var mode: String
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        guard OutputChoice(rawValue: mode) != nil else {
            throw ValidationError("the mode is \(OutputChoice.spelledOut), not \"\(mode)\"\(didYouMean(mode, among: OutputChoice.allCases.map(\.rawValue)))")
        }
    }

    func run() throws { try runStateCommand(.output(OutputChoice(rawValue: mode)!), socket: socket, json: json) }
}
