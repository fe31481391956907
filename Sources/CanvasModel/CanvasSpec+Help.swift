// SPDX-License-Identifier: MIT
/// The help overlay's look (canvas-spec.json `help`): CanvasSpecTests holds these
/// to the file, as the extension's spec_test.js holds its own copy.
extension CanvasSpec {
    /// F1 and ? show the help. They belong to the canvas, as Escape does, so that the
    /// help works without the daemon and whatever `[canvas.keys]` says.
    public static let helpKeys = ["f1", "question"]
    public static let helpTitle = "Keys on the canvas (any key hides this)"
    public static let helpFontSize = 15.0
    public static let helpLineHeight = 22.0
    /// From a line's top to its baseline.
    public static let helpBaseline = 16.0
    public static let helpPadding = 18.0
    /// The least room kept between the panel and the monitor's edges before the lines go into blocks.
    public static let helpMargin = 16.0
    /// Fixed columns, so that the layout needs no font metrics and both renderers agree on it.
    public static let helpKeyColumnWidth = 190.0
    public static let helpActionColumnWidth = 230.0
    public static let helpBlockGap = 28.0
    public static let helpCornerRadius = 8.0
    public static let helpPanelColor = "#1e1e1e"
    public static let helpPanelOpacity = 0.9
    public static let helpTitleColor = "#ffffff"
    public static let helpKeyColor = "#ffd54f"
    public static let helpActionColor = "#e8e8e8"
    /// How a key name's parts are written in the help; any other part is capitalized ("f1" is "F1").
    public static let helpKeyLabels: [String: String] = [
        "ctrl": "Ctrl", "alt": "Alt", "super": "Super", "shift": "Shift", "plus": "+", "minus": "-", "equal": "=",
        "question": "?", "slash": "/", "backslash": "\\", "comma": ",", "period": ".", "semicolon": ";",
        "apostrophe": "'", "grave": "`", "bracketleft": "[", "bracketright": "]", "asterisk": "*",
        "pageup": "Page Up", "pagedown": "Page Down",
    ]
    /// What an action is called in the help ("help" is the help's own line); an action
    /// without a label (one `[canvas.keys]` binds, e.g. `color:#ff0000`) is shown as written.
    public static let helpLabels: [String: String] = [
        "help": "show this help",
        "tool:pen": "pen", "tool:highlighter": "highlighter", "tool:eraser": "eraser", "tool:line": "line", "tool:arrow": "arrow",
        "tool:rectangle": "rectangle", "tool:ellipse": "ellipse", "tool:laser": "laser pointer", "tool:text": "text",
        "color:1": "palette colour 1", "color:2": "palette colour 2", "color:3": "palette colour 3", "color:4": "palette colour 4",
        "color:5": "palette colour 5", "color:6": "palette colour 6", "color:7": "palette colour 7", "color:8": "palette colour 8",
        "color:9": "palette colour 9",
        "background:white": "white board", "background:black": "black board", "background:grid": "grid paper",
        "width:+": "wider", "width:-": "thinner",
        "undo": "undo", "redo": "redo", "snapshot": "save a snapshot", "copy": "copy the drawing",
        "clear-canvas": "clear the canvas (undoable)", "minimize-canvas": "minimize (ends a text first)",
    ]
}
