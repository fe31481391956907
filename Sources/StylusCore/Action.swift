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
    /// `color:NAME`, `color:#RRGGBB`, `color:next`, `color:previous`, `width:N`, `width:+`, `width:-`.
    case style(StyleRequest)
    /// Changes the board under the ink: `background:white|black|grid|none|next|#rrggbb`.
    case background(BackgroundRequest)
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
    /// The screen with the ink as a PNG in the export folder, like the `snapshot` command (the canvas takes it).
    case snapshot
    /// The drawing (`copy`), or the screen with it (`copy:snapshot`), on the clipboard, like the `copy` command.
    case copy(snapshot: Bool)
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
        case .preset, .exec, .key, .click, .submit, .snapshot, .copy: true
        case .toggleCanvas, .togglePrecision, .undo, .redo, .style, .background, .palette, .clearCanvas, .openCanvas, .minimizeCanvas, .discard, .none: false
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
        case .style(.wider), .style(.narrower), .style(.set(nil, nil, _?)): .width
        case .style: .color
        case .background: .background
        case .palette: .palette
        case .clearCanvas: .clearCanvas
        case .openCanvas: .openCanvas
        case .minimizeCanvas: .minimizeCanvas
        case .submit: .submit
        case .discard: .discard
        case .snapshot: .snapshot
        case .copy: .copy
        case .preset: .preset
        case .exec: .exec
        case .key: .key
        case .click: .click
        case .none: .none
        }
    }
}
