// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

/// An input method's preedit as a canvas shows it: after the entry's text in the canvas's
/// layers, marked (`TextEntry.preeditLength`, which the layers underline), while the entry
/// without it (`base`) is what the overlay types into, ends and sends, so the preedit never
/// reaches the daemon. Both input method clients keep theirs here (X11InputMethod for XIM,
/// WaylandTextInput for text-input-v3), so that rule lives in one place. A class: the
/// overlay's code runs inside `without`, and may come back.
@MainActor
final class ShownPreedit {
    /// The entry without the preedit, while one shows.
    private(set) var base: TextEntry?
    /// The preedit, in Unicode scalars (what XIM's preedit draws count).
    var scalars: [Unicode.Scalar] = []

    /// The preedit as text-input-v3 gives it, a whole string.
    var text: String {
        get { String(String.UnicodeScalarView(scalars)) }
        set { scalars = Array(newValue.unicodeScalars) }
    }

    /// Runs `body` with the layers' entry as typed, then shows the preedit again on the entry
    /// that is there after it, if that is still the text at `anchor`.
    func without<T>(_ layers: InkLayers, anchor: InkPoint?, _ body: () -> T) -> T {
        guard let typed = base else { return body() }
        layers.textEntry = typed
        base = nil
        defer { show(layers, anchor: anchor) }
        return body()
    }

    /// Puts the preedit after the layers' entry (the text at `anchor`), if there is one to show.
    func show(_ layers: InkLayers, anchor: InkPoint?) {
        guard base == nil, !scalars.isEmpty, let entry = layers.textEntry, entry.anchor == anchor else { return }
        base = entry
        layers.textEntry = entry.showing(preedit: text)
    }

    /// No preedit any more: the layers' entry (nil: the canvas's no longer followed) is as typed again.
    func drop(_ layers: InkLayers?) {
        if let layers, let base { layers.textEntry = base }
        base = nil
        scalars = []
    }

    /// An input method's update, in text-input-v3's order: the old preedit goes, `deleting` UTF-8
    /// bytes before the caret go, `commit` is typed, `preedit` shows. The caret is always at the
    /// entry's end (the canvas has no caret motion), so "before the caret" is the entry's last
    /// characters, whole ones: an IM that counts into a character takes it all. Returns whether
    /// anything was typed (the entry's limits may drop all of `commit`).
    @discardableResult
    func update(_ layers: InkLayers, anchor: InkPoint?, deleting bytes: Int = 0, commit: String, preedit: String) -> Bool {
        drop(layers)
        var typed = false
        if var entry = layers.textEntry {
            var deleted = 0
            while deleted < bytes, let last = entry.string.last, entry.backspace() { deleted += String(last).utf8.count }
            if !commit.isEmpty { typed = entry.type(commit) }
            layers.textEntry = entry
        }
        text = preedit
        show(layers, anchor: anchor)
        return typed
    }
}
