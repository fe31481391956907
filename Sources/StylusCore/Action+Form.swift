// SPDX-License-Identifier: MIT
extension Action {
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
        case snapshot
        case copy
        case tool
        case color
        case width
        case background
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
            case .background: "BOARD"
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
            case .background: "background:next"
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
            case .tool, .color, .width: "next strokes' \(self == .color ? "colour" : rawValue): \(StyleArgument(self)!.accepted)"
            case .background: "the board under the ink: none, white, black, grid, a CSS colour name, #RRGGBB or next"
            case .palette: "shows or hides the canvas's palette"
            case .clearCanvas: "removes every stroke"
            case .openCanvas: "opens the canvas"
            case .minimizeCanvas: "minimizes the canvas"
            case .submit: "saves the drawing as a PNG, clears, minimizes"
            case .discard: "minimizes and clears (undo brings it back)"
            case .snapshot: "writes the screen with the ink as a PNG in the export folder"
            case .copy: "the drawing on the clipboard; copy:snapshot, the screen with it"
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
            case .tool, .color, .width: StyleArgument(self)!.words.map { "\(rawValue):\($0)" } + (self == .color ? ["color:#"] : [])
            case .background: ["next", "none", "white", "black", "grid", "#"].map { "background:\($0)" }
            case .click: PointerButton.allCases.map { "click:\($0.rawValue)" }
            case .exec, .key: ["\(rawValue):"]
            case .copy: ["copy", "copy:snapshot"]
            default: [rawValue]
            }
        }
    }
}
