// SPDX-License-Identifier: MIT
import StylusCore

/// Renderer constants of canvas-spec.json that no model type owns: the
/// renderers (stylus-canvas here, the GNOME extension through build.sh) draw
/// with these, and CanvasSpecTests holds them to the file, so a change to a
/// canvas's look is made in the spec and shows up as a failing test here.
public enum CanvasSpec {
    /// The default fade in and out (stylus-canvas `--fade-ms`).
    public static let fadeMilliseconds = 120
    /// How long the canvas stays on the screen after the daemon went away: a
    /// daemon restarting (systemd does it at once) comes back well within it, and
    /// with the fade one that died leaves the screen within 2 s.
    public static let deadDaemonHideMilliseconds = 1500
    /// The ring where a tool hovers, in window pixels.
    public static let hoverRingRadius = 7.0
    public static let hoverRingWidth = 3.0
    /// The open canvas's sign (`[canvas] indicator`), in window pixels: a frame this wide on each
    /// monitor's edges in the current colour at this opacity, or a dot this far in from the top
    /// right corner, with a white outline so it shows on a dark window in a dark colour too.
    public static let indicatorFrameWidth = 2.0
    public static let indicatorFrameOpacity = 0.75
    public static let indicatorBadgeRadius = 5.0
    public static let indicatorBadgeInset = 14.0
    public static let indicatorBadgeOutline = 1.5
    /// A palette glyph's inset from its button's edge, as a share of the side.
    public static let paletteGlyphInsetShare = 0.18

    /// What a key does on the open canvas unless `[canvas.keys]` says otherwise,
    /// in the order the docs list it. The daemon performs these (the `key`
    /// command); the canvas keeps Escape for itself (it minimizes, and will end
    /// a text entry first), so its entry here is what a client's `key` gets.
    public static let keys: [(key: String, action: String)] = [
        ("p", "tool:pen"), ("h", "tool:highlighter"), ("e", "tool:eraser"), ("l", "tool:line"), ("a", "tool:arrow"),
        ("r", "tool:rectangle"), ("o", "tool:ellipse"), ("x", "tool:laser"), ("t", "tool:text"),
        ("1", "color:1"), ("2", "color:2"), ("3", "color:3"), ("4", "color:4"), ("5", "color:5"),
        ("6", "color:6"), ("7", "color:7"), ("8", "color:8"), ("9", "color:9"),
        ("w", "background:white"), ("k", "background:black"), ("g", "background:grid"),
        ("plus", "width:+"), ("minus", "width:-"),
        ("ctrl+z", "undo"), ("ctrl+shift+z", "redo"), ("ctrl+y", "redo"), ("ctrl+s", "snapshot"), ("ctrl+c", "copy"),
        ("delete", "clear-canvas"), ("escape", "minimize-canvas"),
    ]

    /// `keys` read: every name and action in it is valid (CanvasKeysSpecTests).
    public static let keyTable: [CanvasKeyName: Action] = Dictionary(uniqueKeysWithValues: keys.map { entry in
        (try! CanvasKeyName.parse(entry.key).get(), try! Action.parse(entry.action).get())
    })
}
