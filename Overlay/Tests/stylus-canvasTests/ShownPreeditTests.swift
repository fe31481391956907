// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
@testable import stylus_canvas
import Testing

/// The rule both input method clients keep through ShownPreedit: the preedit shows in the
/// layers' entry, marked, but what the overlay types into, ends and sends never holds it.
@MainActor
struct ShownPreeditTests {
    static let here = InkPoint(x: 0.25, y: 0.5, pressure: 1)

    static func layers(typed: String = "ab") -> InkLayers {
        let layers = InkLayers(geometry: InkGeometry(width: 1600, height: 900))
        var entry = TextEntry(anchor: here, style: InkStyle(tool: .text, color: StrokeColor(hex: "#3465a4")!, width: 8))
        entry.type(typed)
        layers.textEntry = entry
        return layers
    }

    @Test func aPreeditShowsMarkedAfterTheTextAndTheOverlaySeesTheTextWithoutIt() throws {
        let layers = Self.layers()
        let preedit = ShownPreedit()
        preedit.text = "にほ"
        preedit.show(layers, anchor: Self.here)
        let shown = try #require(layers.textEntry)
        #expect(shown.string == "abにほ" && shown.preeditLength == 2 && shown.committed == "ab")
        #expect(preedit.base?.string == "ab" && preedit.base?.preeditLength == 0)
        let seen = preedit.without(layers, anchor: Self.here) { layers.textEntry }
        #expect(seen?.string == "ab" && seen?.preeditLength == 0, "the overlay's code never sees the preedit")
        #expect(layers.textEntry == shown, "shown again after")
    }

    @Test func whatTheOverlayTypesMeanwhileGoesBeforeThePreedit() {
        let layers = Self.layers()
        let preedit = ShownPreedit()
        preedit.text = "x"
        preedit.show(layers, anchor: Self.here)
        preedit.without(layers, anchor: Self.here) { layers.textEntry?.type("c") }
        #expect(layers.textEntry?.string == "abcx" && layers.textEntry?.preeditLength == 1)
        #expect(preedit.base?.string == "abc")
    }

    @Test func anEndedOrOtherTextGetsNoPreedit() {
        let layers = Self.layers()
        let preedit = ShownPreedit()
        preedit.text = "x"
        preedit.show(layers, anchor: Self.here)
        preedit.without(layers, anchor: Self.here) { layers.textEntry = nil }
        #expect(layers.textEntry == nil && preedit.base == nil, "ended: nothing shown, nothing kept")
        let other = Self.layers()
        preedit.show(other, anchor: InkPoint(x: 0.5, y: 0.5, pressure: 1))
        #expect(other.textEntry?.string == "ab" && preedit.base == nil, "a text at another anchor")
    }

    @Test func droppedTheEntryIsAsTypedAgain() {
        let layers = Self.layers()
        let preedit = ShownPreedit()
        preedit.text = "xy"
        preedit.show(layers, anchor: Self.here)
        preedit.drop(layers)
        #expect(layers.textEntry?.string == "ab" && layers.textEntry?.preeditLength == 0)
        #expect(preedit.scalars.isEmpty && preedit.base == nil)
        preedit.show(layers, anchor: Self.here)
        #expect(layers.textEntry?.string == "ab", "nothing left to show")
    }

    @Test func anUpdateReplacesThePreeditDeletesCommitsThenShowsTheNewOne() {
        let layers = Self.layers(typed: "aé")
        let preedit = ShownPreedit()
        preedit.text = "zz"
        preedit.show(layers, anchor: Self.here)
        // é is 2 UTF-8 bytes: deleting 2 takes it, and not the preedit's characters.
        let typed = preedit.update(layers, anchor: Self.here, deleting: 2, commit: "日本", preedit: "ご")
        #expect(typed)
        #expect(layers.textEntry?.string == "a日本ご" && layers.textEntry?.preeditLength == 1)
        #expect(preedit.base?.committed == "a日本")
        // Into a character: the whole one goes; past the text: what there is.
        preedit.update(layers, anchor: Self.here, deleting: 1, commit: "", preedit: "")
        #expect(layers.textEntry?.string == "a日" && layers.textEntry?.preeditLength == 0 && preedit.base == nil)
        preedit.update(layers, anchor: Self.here, deleting: 100, commit: "", preedit: "")
        #expect(layers.textEntry?.string == "")
    }

    @Test func scalarsAndTextAreOnePreedit() {
        let preedit = ShownPreedit()
        preedit.text = "e\u{301}x"
        #expect(preedit.scalars.count == 3, "XIM counts scalars, not characters")
        preedit.scalars.removeFirst()
        #expect(preedit.text == "\u{301}x")
    }
}
