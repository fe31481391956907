// SPDX-License-Identifier: MIT
import CanvasModel

/// The text tool on the X11 canvas (CanvasOverlay+Text.swift): plain keys through
/// the core keymap, no input method.
extension X11Canvas {
    func followTextTaps() {
        (owner as? CanvasOverlay)?.followTextTaps(layers, seen: &textTapsSeen)
    }

    /// A key while a text is being typed here; false when it is not one for the text.
    func typeText(_ key: CanvasKey) -> Bool {
        guard let overlay = owner as? CanvasOverlay,
              overlay.typeText(key, typed: backend.keymap.lastTyped, layers, seen: &textTapsSeen) else { return false }
        queueDraw()
        return true
    }
}
