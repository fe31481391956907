// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import StylusProtocol

/// Typing a text with the text tool, the same on every canvas of this program
/// (X11 windows, layer surfaces, toplevels): a tap of the pen or a click
/// (StrokeBook's `textTap`) places the caret on the canvas it lands on; typed
/// keys appear at once in the current colour, Enter starts a line, Backspace
/// takes one back, and Escape or the next tap elsewhere ends it, sending the
/// `text` command, whose stroke then comes back with the drawing. Each canvas
/// keeps its entry in its layers and the taps it followed; the backend says
/// what a key types, since only it knows the keymap.
extension CanvasOverlay {
    /// Before each frame: a new tap with the text tool ends the text being typed and
    /// places the caret there, on the monitor it lands on; a minimized canvas or another
    /// tool ends the entry without sending it (the daemon takes texts only while open).
    func followTextTaps(_ layers: InkLayers, seen: inout Int) {
        guard drawsWithPointer, currentStyle.tool == .text else {
            if let entry = layers.textEntry, drawsWithPointer { sendText(entry) }
            layers.textEntry = nil
            seen = book.textTaps
            return
        }
        guard book.textTaps != seen, let tap = book.textTap else { return }
        seen = book.textTaps
        if let entry = layers.textEntry { sendText(entry) }
        let (x, y) = layers.geometry.pixel(tap)
        let here = x >= 0 && y >= 0 && x < layers.everything.width && y < layers.everything.height
        layers.textEntry = here ? TextEntry(anchor: tap, style: currentStyle) : nil
    }

    /// A key while a text is being typed on the canvas of `layers`, `typed` being what it
    /// types (nil: nothing, or a shortcut with Ctrl, Alt or Super); false when it is not
    /// one for the text (no entry, or a shortcut), so it does what it always does. A key
    /// the key table cannot name (`key` nil: é, € on their layouts) may still type.
    func typeText(_ key: CanvasKey?, typed: String?, _ layers: InkLayers, seen: inout Int) -> Bool {
        followTextTaps(layers, seen: &seen)
        guard var entry = layers.textEntry else { return false }
        switch key {
        case nil:
            guard let typed else { return false }
            entry.type(typed)
            layers.textEntry = entry
        case .minimize:
            // Escape ends the text first; the next one minimizes.
            layers.textEntry = nil
            sendText(entry)
        case .forward(let name) where name.modifiers.isEmpty && name.key == "return":
            entry.newLine()
            layers.textEntry = entry
        case .forward(let name) where name.modifiers.isEmpty && name.key == "backspace":
            entry.backspace()
            layers.textEntry = entry
        case .forward(let name):
            // A key that types nothing: a shortcut with Ctrl, Alt or Super does its action;
            // a plain one (Delete, an arrow) is held back, so it does not clear what is being typed.
            guard let typed else { return name.modifiers.isEmpty }
            entry.type(typed)
            layers.textEntry = entry
        }
        return true
    }

    private func sendText(_ entry: TextEntry) {
        guard let request = entry.request else { return }
        log("text: \(request.string.unicodeScalars.count) characters at (\(request.x), \(request.y))")
        link.send(.key(.text(request))) { [self] error in
            if let error { MainInbox.shared.post { self.log("text: \(error)") } }
        }
    }
}
