// SPDX-License-Identifier: MIT
/// What `tool:`, `color:` and `width:` take after the colon, and what
/// `stylusctl tool` takes as its TOOL, `--color` and `--width`: one reader and
/// one list of words, so a binding and the command line accept the same
/// things and ask the same (StylusctlTests walks `examples` both ways).
public enum StyleArgument: String, CaseIterable, Sendable {
    case tool, color, width

    public init?(_ form: Action.Form) {
        switch form {
        case .tool: self = .tool
        case .color: self = .color
        case .width: self = .width
        default: return nil
        }
    }

    /// The words that step from the current style rather than set it, and what each asks.
    public var steps: [(word: String, request: StyleRequest)] {
        switch self {
        case .tool: [("previous", .previousTool)]
        case .color: [("next", .nextColor), ("previous", .previousColor)]
            + (1...StyleRequest.paletteLimit).map { (String($0), .paletteColor($0)) }
        case .width: [("+", .wider), ("-", .narrower)]
        }
    }

    /// The words a shell completes: the steps and every value with a name
    /// (for the width, the steps' widths).
    public var words: [String] {
        let values = switch self {
        case .tool: DrawingTool.allCases.map(\.rawValue)
        case .color: ColorName.names
        case .width: StyleRequest.widthSteps.map(StyleRequest.describe)
        }
        return values + steps.map(\.word)
    }

    /// Every word and a few values written other ways: what the parity test
    /// walks, each one accepted alike by an action and by stylusctl.
    public var examples: [String] {
        switch self {
        case .tool: words
        case .color: words + ["CRIMSON", "DarkSlateGray", "#3465a4", "#3465A4", "#fff", "#F0a"]
        case .width: words + ["2.5", "64", "1"]
        }
    }

    /// What it takes, in a few words, for help texts.
    public var accepted: String {
        switch self {
        case .tool: "\(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")) or previous (the tool before the last change)"
        case .color: "a CSS colour name (e.g. crimson), #RGB, #RRGGBB, next or previous in the palette, or its place in the palette (1 to \(StyleRequest.paletteLimit))"
        case .width: "\(Self.widthRange) (pixels of a drawing 1600 wide), or + or - for a step up or down"
        }
    }

    /// The request the text asks; the error says what is wrong, for a message
    /// that already says where it came from (a binding's key, `--color`).
    public func parse(_ text: String) -> Result<StyleRequest, ActionError> {
        if let step = steps.first(where: { $0.word == text }) { return .success(step.request) }
        switch self {
        case .tool:
            guard let tool = DrawingTool(rawValue: text) else {
                return .failure(ActionError("unknown tool \(ColorName.quoted(text)); use \(accepted)"))
            }
            return .success(.set(tool: tool, color: nil, width: nil))
        case .color:
            return ColorName.parse(text).map { .set(tool: nil, color: $0, width: nil) }.mapError { ActionError($0.message) }
        case .width:
            guard let width = Double(text), StrokeStyle.widthRange.contains(width) else {
                let shown = Double(text).map(StyleRequest.describe) ?? ColorName.quoted(text)
                return .failure(ActionError("the width is \(Self.widthRange) (pixels of a drawing 1600 wide), + or -, not \(shown)"))
            }
            return .success(.set(tool: nil, color: nil, width: width))
        }
    }

    /// The argument and word a step is written with; nil for a request that sets.
    public static func spelling(of request: StyleRequest) -> (argument: StyleArgument, word: String)? {
        for argument in allCases {
            if let step = argument.steps.first(where: { $0.request == request }) { return (argument, step.word) }
        }
        return nil
    }

    private static var widthRange: String { "\(Int(StrokeStyle.widthRange.lowerBound)) to \(Int(StrokeStyle.widthRange.upperBound))" }
}
