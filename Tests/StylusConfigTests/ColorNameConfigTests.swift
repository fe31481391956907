// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusConfig

@Suite("config.toml's colours by name")
struct ColorNameConfigTests {
    @Test func theColourThePaletteAndBindingsTakeNames() throws {
        let c = try ConfigFileTests.load("""
            [canvas]
            color = "Crimson"
            palette = ["red", "#fff", "RebeccaPurple", "#3465a4"]

            [bindings]
            BTN_STYLUS = "color:navy"
            """)
        #expect(c.style.color?.hex == "#dc143c")
        #expect(c.palette.map(\.hex) == ["#ff0000", "#ffffff", "#663399", "#3465a4"])
        #expect(c.sideButtonBindings.map(\.rawValue).contains("color:#000080"), "\(c.sideButtonBindings)")
    }

    @Test(arguments: [
        ("[canvas]\ncolor = \"crimsn\"\n", 2, "canvas.color", "unknown colour \"crimsn\"; did you mean crimson?"),
        ("[canvas]\ncolor = 3\n", 2, "canvas.color", "expected a colour (a CSS colour name, \"#RGB\" or \"#RRGGBB\", e.g. \"crimson\"), found integer"),
        ("[canvas]\ncolor = \"transparent\"\n", 2, "canvas.color", "\"transparent\" is a CSS keyword, not a colour: ink takes a colour name (e.g. crimson), #RGB or #RRGGBB"),
        ("[canvas]\n\npalette = [\"red\", \"bleu\"]\n", 3, "canvas.palette",
         "expected 1 to 16 colours (CSS colour names, \"#RGB\" or \"#RRGGBB\"), e.g. [\"crimson\", \"#3465a4\", \"black\"]; entry 2: unknown colour \"bleu\"; did you mean blue?"),
        ("[canvas]\npalette = [\"red\", 5]\n", 2, "canvas.palette", "expected 1 to 16 colours (CSS colour names, \"#RGB\" or \"#RRGGBB\"), e.g. [\"crimson\", \"#3465a4\", \"black\"]; entry 2 is a integer"),
        ("[bindings]\nBTN_STYLUS = \"color:crimsn\"\n", 2, "bindings.BTN_STYLUS", "unknown colour \"crimsn\"; did you mean crimson?"),
    ])
    func anUnknownNameIsRefusedWithItsLineKeyAndTheNearestNames(text: String, line: Int, key: String, message: String) {
        guard let error = ConfigFileTests.error(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(error.key == key, "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.message == message, "\(error.message)")
    }
}
