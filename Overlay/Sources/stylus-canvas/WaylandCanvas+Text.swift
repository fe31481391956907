// SPDX-License-Identifier: MIT
import CanvasModel

/// The text tool on a Wayland canvas (CanvasOverlay+Text.swift): the keys come from
/// the seat's wl_keyboard, and what they type from xkbcommon (WaylandBackend); a click
/// or a pen tap places the caret as on X11. Where the compositor offers text-input-v3
/// and an input method runs, the IM types too (WaylandTextInput): the overlay always
/// sees the entry without the IM's preedit, so the preedit is never sent.
extension WaylandCanvas {
    func followTextTaps() {
        let input = WaylandTextInput.of(backend)
        guard let overlay = owner as? CanvasOverlay else { return }
        if let input {
            input.withoutPreedit(self) { overlay.followTextTaps(layers, seen: &textTapsSeen) }
            input.follow(self)
        } else {
            overlay.followTextTaps(layers, seen: &textTapsSeen)
        }
    }

    /// A key while a text is being typed here, `typed` what it types; false when it is not one for the text.
    func typeText(_ key: CanvasKey?, typed: String?) -> Bool {
        guard let overlay = owner as? CanvasOverlay else { return false }
        let input = WaylandTextInput.of(backend)
        let took = input.map { $0.withoutPreedit(self) { overlay.typeText(key, typed: typed, layers, seen: &textTapsSeen) } }
            ?? overlay.typeText(key, typed: typed, layers, seen: &textTapsSeen)
        input?.follow(self)
        guard took else { return false }
        queueDraw()
        return true
    }

    /// Minimized, the surface goes with its entry, unsent: the daemon takes texts only while open.
    func dropTextEntry() {
        let input = WaylandTextInput.of(backend)
        if let input { input.withoutPreedit(self) { layers.textEntry = nil } } else { layers.textEntry = nil }
        textTapsSeen = owner.book.textTaps
        input?.follow(self)
    }
}
