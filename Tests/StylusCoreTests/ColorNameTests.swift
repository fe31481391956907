// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Colours by CSS name, #rgb and #rrggbb")
struct ColorNameTests {
    @Test func theTableIsCSSLevel4sNamedColours() {
        #expect(ColorName.names.count == 148)
        #expect(Set(ColorName.names).count == 148, "no name twice")
        #expect(ColorName.names == ColorName.names.sorted())
        #expect(ColorName.names.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
        for keyword in ["transparent", "currentcolor"] { #expect(ColorName.color(named: keyword) == nil, "\(keyword) is no colour here") }
        let known = ["crimson": "#dc143c", "rebeccapurple": "#663399", "red": "#ff0000", "green": "#008000", "lime": "#00ff00",
                     "gray": "#808080", "grey": "#808080", "aqua": "#00ffff", "cyan": "#00ffff", "fuchsia": "#ff00ff",
                     "magenta": "#ff00ff", "lightgoldenrodyellow": "#fafad2", "black": "#000000", "white": "#ffffff"]
        for (name, hex) in known { #expect(ColorName.color(named: name)?.hex == hex, "\(name)") }
        // The two spellings of each grey are one colour.
        for name in ColorName.names where name.contains("gray") {
            #expect(ColorName.color(named: name) == ColorName.color(named: name.replacingOccurrences(of: "gray", with: "grey")), "\(name)")
        }
    }

    @Test(arguments: [("crimson", "#dc143c"), ("CRIMSON", "#dc143c"), ("DarkSlateGray", "#2f4f4f"), ("#3465a4", "#3465a4"),
                      ("#3465A4", "#3465a4"), ("#fff", "#ffffff"), ("#F0a", "#ff00aa"), ("#000", "#000000")])
    func aNameOrHexReadsAsItsRRGGBB(text: String, hex: String) throws {
        #expect(try ColorName.parse(text).get().hex == hex)
        #expect(StrokeColor(css: text)?.hex == hex)
    }

    @Test(arguments: [
        ("crimsn", "unknown colour \"crimsn\"; did you mean crimson?"),
        ("bleu", "unknown colour \"bleu\"; did you mean blue?"),
        ("lightgoldenrod", "unknown colour \"lightgoldenrod\"; did you mean lightgoldenrodyellow?"),
        ("xyzzy", "unknown colour \"xyzzy\"; use a CSS colour name (e.g. crimson, listed at https://www.w3.org/TR/css-color-4/#named-colors), #RGB or #RRGGBB"),
        ("transparent", "\"transparent\" is a CSS keyword, not a colour"),
        ("currentColor", "\"currentColor\" is a CSS keyword, not a colour"),
        ("", "unknown colour \"\"; use a CSS colour name"),
        (" red", "unknown colour \" red\"; did you mean red?"),
        ("#12345", "\"#12345\" is not a colour; use #RGB or #RRGGBB (hex digits, e.g. #3465a4) or a CSS colour name (e.g. crimson)"),
        ("#ggg", "\"#ggg\" is not a colour"),
        ("#", "\"#\" is not a colour"),
        ("#1234567", "\"#1234567\" is not a colour"),
        ("#éé", "\"#éé\" is not a colour"),
        ("red\u{1b}[31m", "unknown colour \"red\\u{1B}[31m\""),
    ])
    func aBadColourIsRefusedWithTheNearestNames(text: String, message: String) {
        guard case .failure(let error) = ColorName.parse(text) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func severalNamesEquallyNearAreAllSuggested() {
        #expect(ColorName.nearest(to: "gren") == ["green", "grey"])
        guard case .failure(let error) = ColorName.parse("gren") else { return }
        #expect(error.message == "unknown colour \"gren\"; did you mean green or grey?")
    }

    @Test func aHugeWordIsRefusedQuicklyAndShownShort() {
        let huge = String(repeating: "a", count: 1 << 20)
        guard case .failure(let error) = ColorName.parse(huge) else {
            Issue.record("taken")
            return
        }
        #expect(error.message.count < 200, "the message quotes only the start")
        #expect(ColorName.nearest(to: huge).isEmpty)
    }

    @Test func editsCountASwapOfNeighboursAsOne() {
        func d(_ a: String, _ b: String) -> Int { editDistance(Array(a.utf8), Array(b.utf8)) }
        #expect(d("", "red") == 3 && d("red", "") == 3 && d("red", "red") == 0)
        #expect(d("rde", "red") == 1 && d("crimsn", "crimson") == 1 && d("kitten", "sitting") == 3)
    }

    @Test func aColourActionTakesNamesAndSpellsTheHex() {
        #expect(Action.parse("color:Crimson") == .success(.style(.set(tool: nil, color: StrokeColor(hex: "#dc143c")!, width: nil))))
        #expect(Action(rawValue: "color:crimson")?.rawValue == "color:#dc143c")
        #expect(Action(rawValue: "color:#abc")?.rawValue == "color:#aabbcc")
        guard case .failure(let error) = Action.parse("color:crimsn") else {
            Issue.record("taken")
            return
        }
        #expect(error.message == "unknown colour \"crimsn\"; did you mean crimson?")
        #expect(PaletteRegion.selection("color:navy") == .success(.style(.set(tool: nil, color: StrokeColor(hex: "#000080")!, width: nil))))
    }

    @Test func aNamedColourReachesTheEngineAsItsHex() {
        var h = EngineHarness.open()
        guard case .success(.style(let request)) = Action.parse("color:rebeccapurple") else {
            Issue.record("not a style")
            return
        }
        #expect(h.command(.style(request), at: 60) == .done)
        #expect(h.engine.canvas.style.color.hex == "#663399")
    }
}
