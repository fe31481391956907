// SPDX-License-Identifier: MIT
public import StylusCore

/// What a key does on the open canvas, the same on X11 (core keysyms),
/// Wayland (xkb keysyms) and GTK (GDK keyvals), which share the X keysym numbers.
public enum CanvasKey: Equatable, Sendable {
    /// Escape: the canvas's own, so that it works without the daemon's answer
    /// (and will end a text entry first).
    case minimize
    /// Any other key the key table can name: the daemon performs what
    /// `[canvas.keys]` or the default keys (CanvasSpec.keys) bind it to.
    case forward(CanvasKeyName)

    /// Nil for a key no table can name (a lone Shift, "!", a dead key).
    public init?(keysym: UInt32, control: Bool, shift: Bool, alt: Bool = false, super logo: Bool = false) {
        var modifiers: CanvasKeyName.Modifiers = []
        if control { modifiers.insert(.ctrl) }
        if shift { modifiers.insert(.shift) }
        if alt { modifiers.insert(.alt) }
        if logo { modifiers.insert(.super) }
        guard let name = CanvasKeyName(keysym: keysym, modifiers: modifiers) else { return nil }
        self = name.modifiers.isEmpty && name.key == "escape" ? .minimize : .forward(name)
    }
}
