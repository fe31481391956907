// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import StylusProtocol

/// Typing a text on the X11 canvas with the text tool: a tap of the pen or a click
/// (StrokeBook's `textTap`) places the caret on the monitor it lands on; typed keys
/// appear at once in the current colour, Enter starts a line, Backspace takes one
/// back, and Escape or the next tap elsewhere ends it, sending the `text` command,
/// whose stroke then comes back with the drawing. Plain keys through the core
/// keymap: no input method.
extension X11Canvas {
    /// Before each frame: a new tap with the text tool ends the text being typed and
    /// places the caret there, on the monitor it lands on; a minimized canvas or another
    /// tool ends the entry without sending it (the daemon takes texts only while open).
    func followTextTaps() {
        guard let overlay = owner as? CanvasOverlay else { return }
        guard overlay.drawsWithPointer, overlay.currentStyle.tool == .text else {
            if let entry = layers.textEntry, overlay.drawsWithPointer { send(entry, overlay) }
            layers.textEntry = nil
            textTapsSeen = overlay.book.textTaps
            return
        }
        guard overlay.book.textTaps != textTapsSeen, let tap = overlay.book.textTap else { return }
        textTapsSeen = overlay.book.textTaps
        if let entry = layers.textEntry { send(entry, overlay) }
        let (x, y) = layers.geometry.pixel(tap)
        let here = x >= 0 && y >= 0 && x < layers.everything.width && y < layers.everything.height
        layers.textEntry = here ? TextEntry(anchor: tap, style: overlay.currentStyle) : nil
    }

    /// A key while a text is being typed here; false when it is not one for the text
    /// (no entry, or a shortcut with Ctrl, Alt or Super), so it does what it always does.
    func typeText(_ key: CanvasKey) -> Bool {
        guard let overlay = owner as? CanvasOverlay else { return false }
        followTextTaps()
        guard var entry = layers.textEntry else { return false }
        switch key {
        case .minimize:
            // Escape ends the text first; the next one minimizes.
            layers.textEntry = nil
            send(entry, overlay)
        case .forward(let name) where name.modifiers.isEmpty && name.key == "return":
            entry.newLine()
            layers.textEntry = entry
        case .forward(let name) where name.modifiers.isEmpty && name.key == "backspace":
            entry.backspace()
            layers.textEntry = entry
        case .forward(let name):
            // A key that types nothing: a shortcut with Ctrl, Alt or Super does its action;
            // a plain one (Delete, an arrow) is held back, so it does not clear what is being typed.
            guard let typed = backend.keymap.lastTyped else { return name.modifiers.isEmpty }
            entry.type(typed)
            layers.textEntry = entry
        }
        queueDraw()
        return true
    }

    private func send(_ entry: TextEntry, _ overlay: CanvasOverlay) {
        guard let request = entry.request else { return }
        overlay.log("text: \(request.string.unicodeScalars.count) characters at (\(request.x), \(request.y))")
        overlay.link.send(.key(.text(request))) { error in
            if let error { MainInbox.shared.post { overlay.log("text: \(error)") } }
        }
    }
}
