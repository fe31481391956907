// SPDX-License-Identifier: MIT
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
    /// A palette glyph's inset from its button's edge, as a share of the side.
    public static let paletteGlyphInsetShare = 0.18
}
