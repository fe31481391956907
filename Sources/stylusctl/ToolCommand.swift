// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol

/// `stylusctl tool [TOOL] [--color '#RRGGBB'] [--width N] [--pen NAME]`: the style of the
/// next strokes, shown or changed; the daemon keeps it (every canvas and a
/// restart see it).
struct ToolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.tool.rawValue, abstract: CommandName.tool.summary,
        discussion: """
            Without arguments: the current tool, colour and width. Tools: \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")) \
            (the laser's ink fades and is never kept). The width is in pixels of a drawing 1600 wide, \
            \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)); the pen's pressure still shapes the pen's.
            """)
    @Argument(help: "The tool of the next strokes.", completion: .list(DrawingTool.allCases.map(\.rawValue))) var tool: String?
    @Option(help: "The colour, #RRGGBB.") var color: String?
    // Unconditional: "--width -3" is a width to refuse by name, not a missing value and an unknown option.
    @Option(parsing: .unconditional, help: "The width, \(Int(StrokeStyle.widthRange.lowerBound))-\(Int(StrokeStyle.widthRange.upperBound)).") var width: Double?
    @Option(help: "Set this pen's style, in use or not: its name or serial (`stylusctl pens` lists them).") var pen: String?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        if let tool, DrawingTool(rawValue: tool) == nil {
            throw ValidationError("the tool is one of \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(tool)\"\(didYouMean(tool, among: DrawingTool.allCases.map(\.rawValue)))")
        }
        if let color, StrokeColor(hex: color) == nil {
            throw ValidationError("--color takes #RRGGBB (six hex digits, e.g. '#3465a4'), not \"\(color)\"")
        }
        if let width, !StrokeStyle.widthRange.contains(width) {
            throw ValidationError("--width takes \(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound)) (pixels of a drawing 1600 wide), not \(StyleRequest.describe(width))")
        }
    }

    func run() throws {
        try runStateCommand(.tool(tool: tool.flatMap(DrawingTool.init(rawValue:)), color: color.flatMap(StrokeColor.init(hex:)), width: width, pen: pen),
                            socket: socket, json: json)
    }
}
