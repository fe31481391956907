// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol

/// `stylusctl text TEXT --at X,Y [--size N] [--color C]`: a text on the open canvas,
/// recorded as a stroke (undo, erasers, exports and the state file treat it as one).
struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.text.rawValue, abstract: CommandName.text.summary,
        discussion: """
            X and Y are from 0 to 1 across the area the tablet maps to: where the first line's top left goes. \
            A newline (\\n in the shell's $'…') starts a new line. Without --size the size is \
            \(Int(StrokeText.widthFactor)) × the current width (\(Int(StrokeText.sizeRange.lowerBound))-\(Int(StrokeText.sizeRange.upperBound)) pixels \
            of a drawing 1600 wide); without --color the current colour.
            """)
    @Argument(help: "The text: 1-\(StrokeText.maxLength) characters, at most \(StrokeText.maxLines) lines.") var text: String
    @Option(help: "X,Y: where its top left goes, each from 0 to 1.") var at: String
    @Option(help: "Its size in pixels of a drawing 1600 wide.") var size: Double?
    @Option(help: "A colour's name or #rrggbb.") var color: String?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func anchor() throws -> (Double, Double) {
        let parts = at.split(separator: ",").map { Double(String($0.filter { $0 != " " })) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else { throw ValidationError("--at is X,Y (e.g. 0.1,0.2), not \"\(at)\"") }
        return (x, y)
    }

    func validate() throws {
        _ = try anchor()
        if let color, case .failure(let error) = ColorName.parse(color) { throw ValidationError(error.message) }
        if let problem = TextRequest(string: text, x: try anchor().0, y: try anchor().1, size: size).problem { throw ValidationError(problem) }
    }

    func run() throws {
        let (x, y) = try anchor()
        let rgb = color.flatMap { try? ColorName.parse($0).get() }
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.text(TextRequest(string: text, x: x, y: y, size: size, color: rgb)))
            if json { return emit(stylusctl.json(try response.raw())) }
            _ = try response.typed(StatusResult.self)
            emit("text placed")
        }
    }
}
