// SPDX-License-Identifier: MIT
import CanvasModel

/// The text tool on a Wayland canvas (CanvasOverlay+Text.swift): the keys come from
/// the seat's wl_keyboard, and what they type from xkbcommon (WaylandBackend); a click
/// or a pen tap places the caret as on X11. Plain keys: no text-input-v3 yet.
extension WaylandCanvas {
    func followTextTaps() {
        (owner as? CanvasOverlay)?.followTextTaps(layers, seen: &textTapsSeen)
    }

    /// A key while a text is being typed here, `typed` what it types; false when it is not one for the text.
    func typeText(_ key: CanvasKey?, typed: String?) -> Bool {
        guard let overlay = owner as? CanvasOverlay, overlay.typeText(key, typed: typed, layers, seen: &textTapsSeen) else { return false }
        queueDraw()
        return true
    }

    /// Minimized, the surface goes with its entry, unsent: the daemon takes texts only while open.
    func dropTextEntry() {
        layers.textEntry = nil
        textTapsSeen = owner.book.textTaps
    }
}
