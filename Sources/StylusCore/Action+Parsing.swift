// SPDX-License-Identifier: MIT
extension Action {
    /// Reads one action; the error says what is wrong with it, for a
    /// message that already names where it came from.
    public static func parse(_ text: String) -> Result<Action, ActionError> {
        guard let colon = text.firstIndex(of: ":") else {
            switch Form(rawValue: text) {
            case .toggleCanvas: return .success(.toggleCanvas)
            case .togglePrecision: return .success(.togglePrecision)
            case .undo: return .success(.undo)
            case .redo: return .success(.redo)
            case .clearCanvas: return .success(.clearCanvas)
            case .openCanvas: return .success(.openCanvas)
            case .minimizeCanvas: return .success(.minimizeCanvas)
            case .submit: return .success(.submit)
            case .discard: return .success(.discard)
            case .palette: return .success(.palette)
            case .none?: return .success(.none)
            case let form? where form.argument != nil:
                return .failure(ActionError("\(text) needs \(form.argument!) after a colon, e.g. \"\(form.example)\""))
            default:
                return .failure(ActionError("unknown action \"\(text)\"; use \(spelledOut)"))
            }
        }
        let name = String(text[..<colon]), argument = String(text[text.index(after: colon)...])
        switch Form(rawValue: name) {
        case .preset:
            guard presetNames.contains(argument) else {
                return .failure(ActionError("unknown preset \"\(argument)\"; use \(presetNames.map { "preset:\($0)" }.joined(separator: ", "))"))
            }
            return .success(.preset(argument))
        case .exec:
            guard argument.contains(where: { !$0.isWhitespace }) else {
                return .failure(ActionError("exec: needs a command, e.g. \"\(Form.exec.example)\""))
            }
            guard !argument.utf8.contains(0) else { return .failure(ActionError("the command holds a NUL byte")) }
            return .success(.exec(argument))
        case .key:
            return KeyChord.parse(argument).map(Action.key)
        case .tool:
            if argument == "previous" { return .success(.style(.previousTool)) }
            guard let tool = DrawingTool(rawValue: argument) else {
                return .failure(ActionError("unknown tool \"\(argument)\"; use \(Form.tool.completions.joined(separator: ", "))"))
            }
            return .success(.style(.set(tool: tool, color: nil, width: nil)))
        case .color:
            switch argument {
            case "next": return .success(.style(.nextColor))
            case "previous": return .success(.style(.previousColor))
            default:
                guard let color = StrokeColor(hex: argument) else {
                    return .failure(ActionError("\"\(argument)\" is not a colour; use #RRGGBB (six hex digits, e.g. color:#3465a4), color:next or color:previous"))
                }
                return .success(.style(.set(tool: nil, color: color, width: nil)))
            }
        case .width:
            switch argument {
            case "+": return .success(.style(.wider))
            case "-": return .success(.style(.narrower))
            default: return .failure(ActionError("width: takes + or -, e.g. \"width:+\" (the steps are \(StyleRequest.widthSteps.map { StyleRequest.describe($0) }.joined(separator: ", ")))"))
            }
        case .background:
            return BackgroundRequest(name: argument).map { .success(.background($0)) }
                ?? .failure(ActionError("unknown background \"\(argument)\"; use background:next or \(CanvasBackground.spellings)"))
        case .click:
            guard let button = PointerButton(rawValue: argument.lowercased()) else {
                return .failure(ActionError("unknown click button \"\(argument)\"; use \(PointerButton.allCases.map { "click:\($0.rawValue)" }.joined(separator: ", "))"))
            }
            return .success(.click(button))
        case let form? where form.argument == nil:
            return .failure(ActionError("\(name) takes nothing after a colon; write \"\(name)\""))
        default:
            return .failure(ActionError("unknown action \"\(text)\"; use \(spelledOut)"))
        }
    }
}
