// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import Testing

@Suite("Typing a text on the canvas (TextEntry)")
struct TextEntryTests {
    static let style = InkStyle(tool: .text, color: StrokeColor(hex: "#4e9a06")!, width: 12)

    @Test func typedKeysEnterAndBackspaceMakeTheTextCommand() {
        var entry = TextEntry(anchor: InkPoint(x: 0.3, y: 0.4, pressure: 1), style: Self.style)
        #expect(entry.request == nil, "nothing typed: nothing to keep")
        entry.type("Hellp")
        let tookBack = entry.backspace()
        #expect(tookBack)
        entry.type("o")
        entry.newLine()
        entry.type("wörld ✓")
        let request = entry.request
        #expect(request == TextRequest(string: "Hello\nwörld ✓", x: 0.3, y: 0.4, size: 36, color: StrokeColor(hex: "#4e9a06")))
        #expect(request?.problem == nil)
        #expect(entry.lineCount == 2)
    }

    @Test func aPreeditShowsButIsNeverSent() {
        var entry = TextEntry(anchor: InkPoint(x: 0.3, y: 0.4, pressure: 1), style: Self.style)
        entry.type("a")
        let shown = entry.showing(preedit: "にほんご")
        #expect(shown.string == "aにほんご" && shown.preeditLength == 4)
        #expect(shown.committed == "a")
        #expect(shown.request?.string == "a", "the preedit never goes to the daemon")
        var edited = shown
        edited.type("b")
        #expect(edited.preeditLength == 0, "an edit ends the preedit's marking")
    }

    @Test func whatTheDaemonWouldRefuseIsNeverTyped() {
        var entry = TextEntry(anchor: InkPoint(x: 1.02, y: -0.01, pressure: 1), style: Self.style)
        let typed = entry.type("\t\u{1b}\u{7f}\u{85}")
        #expect(!typed)
        entry.type("  ")
        #expect(entry.request == nil, "blanks alone are nothing to keep")
        for _ in 0..<60 { entry.newLine() }
        #expect(entry.lineCount == StrokeText.maxLines)
        entry.type(String(repeating: "x", count: 2000))
        #expect(entry.string.unicodeScalars.count == StrokeText.maxLength)
        #expect(entry.request?.x == 1 && entry.request?.y == 0, "an anchor a hair off the edge is clamped onto it")
        var empty = TextEntry(anchor: InkPoint(x: 0.5, y: 0.5, pressure: 1), style: Self.style)
        let erased = empty.backspace()
        #expect(!erased)
    }

    @Test func keysymsTypeTheirCharacters() {
        #expect(TextEntry.text(keysym: 0x41) == "A")
        #expect(TextEntry.text(keysym: 0x21) == "!")
        #expect(TextEntry.text(keysym: 0x20) == " ")
        #expect(TextEntry.text(keysym: 0xe9) == "é")
        #expect(TextEntry.text(keysym: 0x100_20ac) == "€")
        #expect(TextEntry.text(keysym: 0xffb7) == "7")
        #expect(TextEntry.text(keysym: 0xffab) == "+")
        #expect(TextEntry.text(keysym: 0xff0d) == nil, "Return is Enter's, not a character")
        #expect(TextEntry.text(keysym: 0xff1b) == nil)
        #expect(TextEntry.text(keysym: 0xffe1) == nil, "a lone Shift")
        #expect(TextEntry.text(keysym: 0x100_d800) == nil, "a surrogate is no character")
    }
}

@Suite("The text tool's taps (StrokeBook)")
struct TextTapTests {
    @Test func aTapWithTheTextToolIsCountedAndDrawsNoLiveInk() {
        var book = StrokeBook()
        let text = InkStyle(tool: .text)
        #expect(book.penSample(device: 1, style: text, point: InkPoint(x: 0.2, y: 0.3, pressure: 1), tip: true) == .none)
        #expect(book.penSample(device: 1, style: text, point: InkPoint(x: 0.25, y: 0.3, pressure: 1), tip: true) == .none)
        #expect(book.penSample(device: 1, style: text, point: InkPoint(x: 0.25, y: 0.3, pressure: 0), tip: false) == .none)
        #expect(book.textTaps == 1 && book.textTap == InkPoint(x: 0.2, y: 0.3, pressure: 1), "the tip's first point")
        #expect(book.liveStrokes.isEmpty && book.liveDone.isEmpty, "nothing waits for a stroke the daemon never records")
        _ = book.penSample(device: 1, style: text, point: InkPoint(x: 0.6, y: 0.7, pressure: 1), tip: true)
        #expect(book.textTaps == 2 && book.textTap?.x == 0.6)
        // A pen stroke after it draws as ever.
        _ = book.penSample(device: 1, style: InkStyle(), point: InkPoint(x: 0.1, y: 0.1, pressure: 1), tip: false)
        _ = book.penSample(device: 1, style: InkStyle(), point: InkPoint(x: 0.1, y: 0.1, pressure: 1), tip: true)
        #expect(book.penSample(device: 1, style: InkStyle(), point: InkPoint(x: 0.2, y: 0.1, pressure: 1), tip: true) != .none)
    }
}
