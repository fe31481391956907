// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

@Suite("config.toml's [canvas] style and palette")
struct CanvasStyleConfigTests {
    @Test func theStartingStyleAndThePaletteAreRead() throws {
        let c = try ConfigFileTests.load("""
            [canvas]
            tool = "highlighter"
            color = "#EDD400"
            width = 12.5
            palette = ["#000000", "#ffffff", "#3465a4"]
            eraser = "stroke"
            show_palette = "always"
            """)
        #expect(c.eraser == .stroke)
        #expect(c.showPalette == .always && Engine(config: c).paletteShown)
        #expect(try ConfigFileTests.load("").showPalette == .onRequest, "the palette shows on request unless the file says otherwise")
        #expect(try ConfigFileTests.load("").eraser == .pixel, "the eraser clears pixels unless the file says otherwise")
        #expect(c.style == ConfiguredStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 12.5))
        #expect(c.palette.map(\.hex) == ["#000000", "#ffffff", "#3465a4"])
        #expect(Engine(config: c).canvas.style == StrokeStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 12.5),
                "a daemon without a saved drawing starts with it")
        #expect(try ConfigFileTests.load("[canvas]\ncolor = \"#3465a4\"\n").style == ConfiguredStyle(color: StrokeColor(hex: "#3465a4")!))
        #expect(try ConfigFileTests.load("").style == ConfiguredStyle())
    }

    @Test func theExportFolderIsReadAndCrossesToTheDaemon() throws {
        let c = try ConfigFileTests.load("[canvas]\nexport_dir = \"~/Pictures/ink\"\n")
        #expect(c.exportDirectory == "~/Pictures/ink")
        // The parser child hands it to the daemon as JSON, read by the daemon's own reader.
        let sent = try JSONEncoder().encode(c)
        #expect(ConfigParserChild.readConfiguration(Array(sent))?.exportDirectory == "~/Pictures/ink")
        #expect(try ConfigFileTests.load("").exportDirectory == nil)
    }

    @Test(arguments: [
        ("tool = \"brush\"", "canvas.tool", "unknown tool \"brush\""),
        ("color = \"#12345\"", "canvas.color", "\"#12345\" is not a colour; use #RGB or #RRGGBB"),
        ("width = 0", "canvas.width", "0 is out of range; use 1 to 64"),
        ("width = 64.5", "canvas.width", "64.5 is out of range; use 1 to 64"),
        ("width = 10000", "canvas.width", "10000 is out of range"),
        ("palette = []", "canvas.palette", "expected 1 to 16 colours"),
        ("palette = [\"reed\"]", "canvas.palette", "expected 1 to 16 colours"),
        ("palette = [\"#000000\", \"#zzzzzz\"]", "canvas.palette",
         "expected 1 to 16 colours (CSS colour names, \"#RGB\" or \"#RRGGBB\"), e.g. [\"crimson\", \"#3465a4\", \"black\"]; entry 2: \"#zzzzzz\" is not a colour"),
        ("eraser = \"strokes\"", "canvas.eraser", "unknown eraser \"strokes\"; use \"pixel\" or \"stroke\""),
        ("eraser = 1", "canvas.eraser", "expected a string, found integer"),
        ("export_dir = \"Pictures\"", "canvas.export_dir", "expected a folder as an absolute path or one starting with ~/"),
        ("export_dir = 3", "canvas.export_dir", "expected a folder as an absolute path"),
        ("show_palette = \"sometimes\"", "canvas.show_palette", "unknown value \"sometimes\"; use \"on-request\" or \"always\""),
        ("show_palette = true", "canvas.show_palette", "expected a string, found bool"),
    ])
    func aBadValueNamesItsKeyAndWhatIsAccepted(line: String, key: String, message: String) {
        guard let error = ConfigFileTests.error("[canvas]\n\(line)\n") else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.key == key, "\(error)")
        #expect(error.line == 2, "\(error)")
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }
}
