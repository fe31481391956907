// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol

/// `stylusctl tool [TOOL] [--color COLOR] [--width N] [--pen NAME]`: the style of the
/// next strokes, shown or changed; the daemon keeps it (every canvas and a
/// restart see it). Each part takes what the binding `tool:`, `color:` or
/// `width:` takes (`StyleArgument`, one reader for both).
struct ToolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.tool.rawValue, abstract: CommandName.tool.summary,
        discussion: """
            Without arguments: the current tool, colour and width. Tools: \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")) \
            (the laser's ink fades and is never kept), or previous for the tool before the last change. Colours: the CSS \
            colour names (\(ColorName.reference)), #RGB or #RRGGBB in any case, or next or previous in the palette. \
            The width is in pixels of a drawing 1600 wide, \(Int(StrokeStyle.widthRange.lowerBound)) to \
            \(Int(StrokeStyle.widthRange.upperBound)), or + or - for a step; the pen's pressure still shapes the pen's. \
            A step (previous, next, +, -) goes alone, as a binding's would.
            """)
    @Argument(help: "The tool of the next strokes, or previous.", completion: .list(StyleArgument.tool.words)) var tool: String?
    @Option(help: "The colour: a CSS colour name, #RGB, #RRGGBB, next or previous.", completion: .list(StyleArgument.color.words)) var color: String?
    // Unconditional: "--width -" is a step and "--width -3" a width to refuse by name, not a missing value and an unknown option.
    @Option(parsing: .unconditional, help: "The width, \(Int(StrokeStyle.widthRange.lowerBound))-\(Int(StrokeStyle.widthRange.upperBound)), or + or -.",
            completion: .list(StyleArgument.width.words)) var width: String?
    @Option(help: "Set this pen's style, in use or not: its name or serial (`stylusctl pens` lists them).") var pen: String?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    /// What the arguments ask, as the bindings they match would; nil without
    /// any: the style, unchanged.
    var request: StyleRequest? {
        get throws {
            var parts: [(given: String, request: StyleRequest)] = []
            for (argument, text, name) in [(StyleArgument.tool, tool, "tool"), (.color, color, "--color"), (.width, width, "--width")] {
                guard let text else { continue }
                switch argument.parse(text) {
                case .success(let request): parts.append(("\(name) \(text)", request))
                case .failure(let error): throw ValidationError(argument == .tool ? error.message : "\(name): \(error.message)")
                }
            }
            var tool: DrawingTool?, color: StrokeColor?, width: Double?
            for part in parts {
                guard case .set(let t, let c, let w) = part.request else {
                    guard parts.count == 1 else {
                        throw ValidationError("\(part.given) is a step from the current style; give it alone, as a binding does")
                    }
                    return part.request
                }
                (tool, color, width) = (t ?? tool, c ?? color, w ?? width)
            }
            return parts.isEmpty ? nil : .set(tool: tool, color: color, width: width)
        }
    }

    func validate() throws { _ = try request }

    func run() throws {
        let command: ClientCommand = switch try request {
        case nil: .tool(tool: nil, color: nil, width: nil, pen: pen)
        case .set(let tool, let color, let width)?: .tool(tool: tool, color: color, width: width, pen: pen)
        case let step?: .styleStep(step, pen: pen)
        }
        try runStateCommand(command, socket: socket, json: json)
    }
}
