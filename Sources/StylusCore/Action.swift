// SPDX-License-Identifier: MIT
/// What a double press of a button does, as config.toml, `--bind`, the
/// `double-press` event and `status` spell it: "toggle-canvas",
/// "preset:fast", "exec:notify-send hi", "key:CTRL+Z", "click:right".
///
/// The engine performs the canvas and precision actions itself; the others
/// act on the world outside it (a preset is the shell's configuration, a
/// command, a key, a click) and reach the shell as `ActionRequest`s, so a
/// replay through the engine alone stays deterministic.
public enum Action: Hashable, Sendable {
    case toggleCanvas
    case togglePrecision
    /// Takes back the last stroke or clear, like the `undo` command.
    case undo
    /// Takes again what undo took back, like the `redo` command.
    case redo
    /// Changes the style of the next stroke: `tool:NAME`, `tool:previous`,
    /// `color:#RRGGBB`, `color:next`, `color:previous`, `width:+`, `width:-`.
    case style(StyleRequest)
    /// Shows the canvas's palette, or hides it (`palette`).
    case palette
    case clearCanvas
    case openCanvas
    case minimizeCanvas
    /// Ends the drawing as `submitted`: the shell writes it as a PNG into the
    /// export directory, then the engine clears (undoably) and minimizes.
    case submit
    /// Ends the drawing as `cancelled`: minimizes and clears (undoably), like the `discard` command.
    case discard
    /// Switches the running preset (one of `Action.presetNames`).
    case preset(String)
    /// A shell command line, run with `/bin/sh -c`.
    case exec(String)
    /// Modifiers and one key, written to a virtual keyboard.
    case key(KeyChord)
    /// A click at the cursor, written to a virtual pointer.
    case click(PointerButton)
    case none

    /// The presets `preset:` takes, the same as StylusConfig's `Preset`
    /// (a test keeps the two lists equal; the engine cannot see that type).
    public static let presetNames = ["default", "precision", "fast", "accessibility"]

    /// Whether the engine hands this action to the shell instead of performing it.
    public var isPerformedByShell: Bool {
        switch self {
        case .preset, .exec, .key, .click, .submit: true
        case .toggleCanvas, .togglePrecision, .undo, .redo, .style, .palette, .clearCanvas, .openCanvas, .minimizeCanvas, .discard, .none: false
        }
    }

    /// The form of the action, without its argument.
    public var form: Form {
        switch self {
        case .toggleCanvas: .toggleCanvas
        case .togglePrecision: .togglePrecision
        case .undo: .undo
        case .redo: .redo
        case .style(.set(let tool, _, _)) where tool != nil: .tool
        case .style(.previousTool): .tool
        case .style(.wider), .style(.narrower): .width
        case .style: .color
        case .palette: .palette
        case .clearCanvas: .clearCanvas
        case .openCanvas: .openCanvas
        case .minimizeCanvas: .minimizeCanvas
        case .submit: .submit
        case .discard: .discard
        case .preset: .preset
        case .exec: .exec
        case .key: .key
        case .click: .click
        case .none: .none
        }
    }

    /// Every kind of action, in the order help texts list them: the one
    /// place that `spelledOut`, `--help`, completions, `hello` and the
    /// table in docs/USAGE.md come from.
    public enum Form: String, CaseIterable, Sendable {
        case toggleCanvas = "toggle-canvas"
        case togglePrecision = "toggle-precision"
        case undo
        case redo
        case clearCanvas = "clear-canvas"
        case openCanvas = "open-canvas"
        case minimizeCanvas = "minimize-canvas"
        case submit
        case discard
        case tool
        case color
        case width
        case palette
        case preset
        case exec
        case key
        case click
        case none

        /// What the form takes after its colon, nil for a plain name.
        public var argument: String? {
            switch self {
            case .preset: "NAME"
            case .tool: "TOOL"
            case .color: "COLOR"
            case .width: "STEP"
            case .exec: "COMMAND"
            case .key: "KEYS"
            case .click: "BUTTON"
            default: nil
            }
        }

        /// "toggle-canvas", "preset:NAME".
        public var spelling: String { argument.map { "\(rawValue):\($0)" } ?? rawValue }

        /// A binding of this form as a user would write it.
        public var example: String {
            switch self {
            case .preset: "preset:precision"
            case .tool: "tool:eraser"
            case .color: "color:next"
            case .width: "width:+"
            case .exec: "exec:notify-send hi"
            case .key: "key:CTRL+Z"
            case .click: "click:right"
            default: rawValue
            }
        }

        /// What it does, in a few words (the help table wraps a longer one).
        public var summary: String {
            switch self {
            case .toggleCanvas: "opens or minimizes the canvas"
            case .togglePrecision: "turns precision mode on or off"
            case .undo: "takes back the last stroke or clear"
            case .redo: "takes again what undo took back"
            case .tool: "next strokes' tool: \(DrawingTool.allCases.map(\.rawValue).joined(separator: ", ")) or previous"
            case .color: "next strokes' colour: #RRGGBB, or next or previous in the palette"
            case .width: "next strokes' width a step up (+) or down (-)"
            case .palette: "shows or hides the canvas's palette"
            case .clearCanvas: "removes every stroke"
            case .openCanvas: "opens the canvas"
            case .minimizeCanvas: "minimizes the canvas"
            case .submit: "saves the drawing as a PNG, clears, minimizes"
            case .discard: "minimizes and clears (undo brings it back)"
            case .preset: "switches preset: \(Action.presetNames.joined(separator: "|"))"
            case .exec: "runs COMMAND with /bin/sh -c, one at a time"
            case .key: "modifiers and a key on a virtual keyboard"
            case .click: "left|middle|right click on a virtual pointer"
            case .none: "does nothing"
            }
        }

        /// Words a shell completes after `BUTTON=`: plain names, and for the
        /// forms with an argument every value or the prefix.
        public var completions: [String] {
            switch self {
            case .preset: Action.presetNames.map { "preset:\($0)" }
            case .tool: DrawingTool.allCases.map { "tool:\($0.rawValue)" } + ["tool:previous"]
            case .color: ["color:next", "color:previous", "color:#"]
            case .width: ["width:+", "width:-"]
            case .click: PointerButton.allCases.map { "click:\($0.rawValue)" }
            case .exec, .key: ["\(rawValue):"]
            default: [rawValue]
            }
        }
    }

    /// One line per form, its example then what it does, for `--help`; wrapped to 78 columns with the summary's column kept:
    /// the help's own wrapping would start a long summary's second line at column 0.
    public static var helpTable: String {
        let width = Form.allCases.map(\.example.count).max()! + 2
        let room = 78 - 2 - width
        let indent = String(repeating: " ", count: 2 + width)
        return Form.allCases.map { form in
            var lines = [""]
            for word in form.summary.split(separator: " ") {
                if lines[lines.count - 1].isEmpty {
                    lines[lines.count - 1] = String(word)
                } else if lines[lines.count - 1].count + 1 + word.count <= room {
                    lines[lines.count - 1] += " " + word
                } else {
                    lines.append(String(word))
                }
            }
            let first = "  " + form.example + String(repeating: " ", count: width - form.example.count) + lines[0]
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// "toggle-canvas, toggle-precision, undo, …, click:BUTTON or none", as help and errors list them.
    public static var spelledOut: String {
        let names = Form.allCases.map(\.spelling)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

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

extension Action: RawRepresentable, Codable {
    /// The action as it is written, in its canonical spelling ("key:LEFTCTRL+Z" for "key:ctrl+z").
    public var rawValue: String {
        switch self {
        case .preset(let name): "preset:\(name)"
        case .exec(let command): "exec:\(command)"
        case .key(let chord): "key:\(chord)"
        case .click(let button): "click:\(button.rawValue)"
        case .style(.set(let tool?, nil, nil)): "tool:\(tool.rawValue)"
        case .style(.set(nil, let color?, nil)): "color:\(color.hex)"
        case .style(.set(let tool, let color, let width)):
            // Not an action anyone writes (the `tool` command's request): spelled for logs.
            "tool:\(tool?.rawValue ?? "-"),color:\(color?.hex ?? "-"),width:\(width.map(StyleRequest.describe) ?? "-")"
        case .style(.previousTool): "tool:previous"
        case .style(.nextColor): "color:next"
        case .style(.previousColor): "color:previous"
        case .style(.wider): "width:+"
        case .style(.narrower): "width:-"
        default: form.rawValue
        }
    }

    public init?(rawValue: String) {
        guard case .success(let action) = Action.parse(rawValue) else { return nil }
        self = action
    }
}

extension Action: CustomStringConvertible {
    public var description: String { rawValue }
}

/// What is wrong with an action's text.
public struct ActionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The buttons `click:` takes, with their evdev codes.
public enum PointerButton: String, CaseIterable, Sendable {
    case left, middle, right

    /// BTN_LEFT, BTN_MIDDLE, BTN_RIGHT.
    public var code: UInt16 {
        switch self {
        case .left: 0x110
        case .middle: 0x112
        case .right: 0x111
        }
    }
}

/// Modifiers held while one key is pressed: "CTRL+SHIFT+Z". Each part is an
/// evdev key name with or without KEY_ ("LEFTCTRL", "KEY_Z") or one of the
/// common aliases (CTRL, SHIFT, ALT, ALTGR, SUPER, META, WIN, ESCAPE, RETURN,
/// DEL, INS, PGUP, PGDN, …), in any case.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// Evdev codes, pressed in this order and released in the reverse.
    public var modifiers: [UInt16]
    public var key: UInt16

    public init(modifiers: [UInt16], key: UInt16) {
        self.modifiers = modifiers
        self.key = key
    }

    /// Every code in press order: modifiers first, the key last.
    public var pressOrder: [UInt16] { modifiers + [key] }

    /// The canonical spelling: evdev names without KEY_, joined by "+".
    public var description: String {
        pressOrder.map { KeyChord.name(of: $0) ?? "\($0)" }.joined(separator: "+")
    }

    static let modifierCodes: Set<UInt16> = [29, 97, 42, 54, 56, 100, 125, 126]   // LEFT/RIGHT CTRL, SHIFT, ALT, META

    static let aliases: [String: String] = [
        "CTRL": "LEFTCTRL", "CONTROL": "LEFTCTRL", "SHIFT": "LEFTSHIFT", "ALT": "LEFTALT", "ALTGR": "RIGHTALT",
        "SUPER": "LEFTMETA", "META": "LEFTMETA", "WIN": "LEFTMETA", "LOGO": "LEFTMETA", "CMD": "LEFTMETA",
        "ESCAPE": "ESC", "RETURN": "ENTER", "DEL": "DELETE", "INS": "INSERT", "PGUP": "PAGEUP", "PGDN": "PAGEDOWN",
        "PAGE_UP": "PAGEUP", "PAGE_DOWN": "PAGEDOWN", "BKSP": "BACKSPACE", "PRINTSCREEN": "SYSRQ",
        "ARROWUP": "UP", "ARROWDOWN": "DOWN", "ARROWLEFT": "LEFT", "ARROWRIGHT": "RIGHT",
    ]

    private static let codesByName: [String: UInt16] = {
        var table: [String: UInt16] = [:]
        for (name, code) in KeyCodeTable.entries where table[name] == nil { table[name] = code }
        return table
    }()

    private static let namesByCode: [UInt16: String] = {
        var table: [UInt16: String] = [:]
        for (name, code) in KeyCodeTable.entries where table[code] == nil { table[code] = name }
        return table
    }()

    /// The evdev code of a key name or alias, nil for an unknown one. An
    /// evdev name wins over an alias of the same spelling (KEY_PRINT and PRINT
    /// are key 210, PRINTSCREEN is SYSRQ); a KEY_ name is never an alias.
    public static func code(named name: String) -> UInt16? {
        var upper = name.uppercased()
        if upper.hasPrefix("KEY_") {
            upper.removeFirst(4)
            return codesByName[upper]
        }
        return codesByName[upper] ?? aliases[upper].flatMap { codesByName[$0] }
    }

    /// The evdev name of a code, without KEY_.
    public static func name(of code: UInt16) -> String? { namesByCode[code] }

    public static func parse(_ text: String) -> Result<KeyChord, ActionError> {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard !text.isEmpty else { return .failure(ActionError("key: needs a key, e.g. \"key:CTRL+Z\"")) }
        if let empty = parts.firstIndex(where: \.isEmpty) {
            return .failure(ActionError("\"\(text)\" has an empty key name at part \(empty + 1); join keys with one \"+\" (\"CTRL+Z\"); the plus key itself is KPPLUS"))
        }
        var codes: [UInt16] = []
        for part in parts {
            guard let code = code(named: part) else {
                return .failure(ActionError("unknown key name \"\(part)\" in \"\(text)\"; use an evdev name (Z, F5, LEFTCTRL, KEY_ENTER) or CTRL, SHIFT, ALT, SUPER"))
            }
            guard !codes.contains(code) else { return .failure(ActionError("\"\(part)\" appears twice in \"\(text)\"")) }
            codes.append(code)
        }
        for (part, code) in zip(parts, codes).dropLast() where !modifierCodes.contains(code) {
            return .failure(ActionError("\"\(part)\" in \"\(text)\" is not a modifier; only the last key may be another key (CTRL+SHIFT+Z)"))
        }
        return .success(KeyChord(modifiers: Array(codes.dropLast()), key: codes.last!))
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// An action the engine leaves to the shell, with the double press that
/// asked for it. The shell performs it and, when it cannot, rewrites the
/// double-press event at `eventIndex` in the same `Effects` to say why
/// before the event is published.
public struct ActionRequest: Equatable, Sendable {
    public var action: Action
    public var device: DeviceID
    public var button: ButtonID
    public var time: Microseconds
    /// Index into `Effects.events` of the `.doublePress` event.
    public var eventIndex: Int

    public init(action: Action, device: DeviceID, button: ButtonID, time: Microseconds, eventIndex: Int) {
        self.action = action
        self.device = device
        self.button = button
        self.time = time
        self.eventIndex = eventIndex
    }
}
