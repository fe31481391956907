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
            case .snapshot: return .success(.snapshot)
            case .copy: return .success(.copy(snapshot: false))
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
        case .tool, .color, .width:
            return StyleArgument(Form(rawValue: name)!)!.parse(argument).map(Action.style)
        case .background:
            return BackgroundRequest(actionArgument: argument).map { .success(.background($0)) }
                ?? .failure(ActionError("unknown background \"\(argument)\"; use background:next or \(CanvasBackground.spellings)"))
        case .click:
            guard let button = PointerButton(rawValue: argument.lowercased()) else {
                return .failure(ActionError("unknown click button \"\(argument)\"; use \(PointerButton.allCases.map { "click:\($0.rawValue)" }.joined(separator: ", "))"))
            }
            return .success(.click(button))
        case .copy:
            switch argument {
            case "snapshot": return .success(.copy(snapshot: true))
            case "drawing": return .success(.copy(snapshot: false))
            default: return .failure(ActionError("copy takes snapshot after a colon, or nothing (the drawing): \"copy:snapshot\", not \"\(text)\""))
            }
        case let form? where form.argument == nil:
            return .failure(ActionError("\(name) takes nothing after a colon; write \"\(name)\""))
        default:
            return .failure(ActionError("unknown action \"\(text)\"; use \(spelledOut)"))
        }
    }
}
