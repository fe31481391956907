// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

/// An input method's preedit as a canvas shows it: after the entry's text in the canvas's
/// layers, marked (`TextEntry.preeditLength`, which the layers underline), while the entry
/// without it (`base`) is what the overlay types into, ends and sends, so the preedit never
/// reaches the daemon. A class: the overlay's code runs inside `without`, and may come back.
@MainActor
final class ShownPreedit {
    /// The entry without the preedit, while one shows.
    private(set) var base: TextEntry?
    /// The preedit, in Unicode scalars (what XIM's preedit draws count).
    var scalars: [Unicode.Scalar] = []

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
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        layers.textEntry = entry.showing(preedit: String(text))
    }

    /// No preedit any more: the layers' entry (nil: the canvas's no longer followed) is as typed again.
    func drop(_ layers: InkLayers?) {
        if let layers, let base { layers.textEntry = base }
        base = nil
        scalars = []
    }
}
