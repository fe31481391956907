// SPDX-License-Identifier: MIT
import CanvasModel

/// The text tool on the X11 canvas (CanvasOverlay+Text.swift): plain keys through
/// the core keymap; where XMODIFIERS names an XIM server (running, or once it starts), its
/// input method types too (X11InputMethod): the overlay always sees the entry without the
/// IM's preedit, so the preedit is never sent.
extension X11Canvas {
    func followTextTaps() {
        guard let overlay = owner as? CanvasOverlay else { return }
        // Asked for when the text tool is in use, so that a plain session never talks to an IM.
        let method = layers.textEntry != nil || overlay.currentStyle.tool == .text ? X11InputMethod.of(backend) : X11InputMethod.shared
        if let method {
            method.withoutPreedit(self) { overlay.followTextTaps(layers, seen: &textTapsSeen) }
            method.follow(self)
        } else {
            overlay.followTextTaps(layers, seen: &textTapsSeen)
        }
    }

    /// A key while a text is being typed here; false when it is not one for the text.
    func typeText(_ key: CanvasKey) -> Bool {
        guard let overlay = owner as? CanvasOverlay else { return false }
        let method = X11InputMethod.shared
        let typed = backend.keymap.lastTyped
        let took = method.map { $0.withoutPreedit(self) { overlay.typeText(key, typed: typed, layers, seen: &textTapsSeen) } }
            ?? overlay.typeText(key, typed: typed, layers, seen: &textTapsSeen)
        method?.follow(self)
        guard took else { return false }
        queueDraw()
        return true
    }
}
