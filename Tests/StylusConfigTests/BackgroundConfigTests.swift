// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

@Suite("config.toml's [canvas] background")
struct BackgroundConfigTests {
    @Test func theBoardIsReadAndCrossesToTheDaemon() throws {
        for (text, board) in [("white", CanvasBackground.white), ("black", .black), ("grid", .grid), ("none", .none),
                              ("#1E1E1E", .color(StrokeColor(hex: "#1e1e1e")!))] {
            let c = try ConfigFileTests.load("[canvas]\nbackground = \"\(text)\"\n")
            #expect(c.background == board)
            #expect(Engine(config: c).canvas.background == board, "the file's board is where the daemon starts")
            let sent = try JSONEncoder().encode(c)
            #expect(ConfigParserChild.readConfiguration(Array(sent))?.background == board, "the parser child's JSON, read by the daemon")
        }
        #expect(try ConfigFileTests.load("").background == nil, "unset: the state file's board")
    }

    @Test(arguments: [
        ("background = \"paper\"", "unknown background \"paper\"; use none, white, black, grid, a CSS colour name or #rrggbb"),
        ("background = \"#12345\"", "unknown background \"#12345\""),
        ("background = 1", "expected a string, found integer"),
    ])
    func aBadValueNamesItsFileLineAndKey(line: String, message: String) {
        guard let error = ConfigFileTests.error("[canvas]\n\(line)\n") else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.key == "canvas.background", "\(error)")
        #expect(error.line == 2, "\(error)")
        #expect(error.file == "config.toml", "\(error)")
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }
}
