// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

@Suite("config.toml's [canvas.keys]")
struct CanvasKeysConfigTests {
    @Test func keysAreReadByTheirCanonicalNamesAndCrossToTheDaemon() throws {
        let c = try ConfigFileTests.load("""
            [canvas.keys]
            q = "tool:pen"
            e = "none"
            "Control+Shift+Z" = "undo"
            "+" = "width:-"
            """)
        #expect(c.canvasKeys == ["q": .style(.set(tool: .pen, color: nil, width: nil)), "e": .none, "ctrl+shift+z": .undo, "plus": .style(.narrower)])
        #expect(ConfigParserChild.readConfiguration(Array(try JSONEncoder().encode(c)))?.canvasKeys == c.canvasKeys)
        #expect(try ConfigFileTests.load("").canvasKeys.isEmpty)
    }

    /// Each refused with its line and key, all of them at once.
    @Test func badKeysAreRefusedWithTheirLines() {
        let text = """
            [canvas.keys]
            q = "tool:pen"
            hyper = "undo"
            w = "tool:crayon"
            "ctrl+z" = "redo"
            "Ctrl+Z" = "undo"
            escape = "none"
            k = "exec:notify-send hi"
            n = 3
            f1 = "undo"
            "?" = "redo"
            """
        do {
            _ = try ConfigFileTests.load(text)
            Issue.record("accepted")
        } catch {
            let problems = error.all.map { ($0.line, $0.key) }
            #expect(problems.map(\.0) == [3, 4, 6, 7, 8, 9, 10, 11])
            #expect(problems.map(\.1) == ["canvas.keys.hyper", "canvas.keys.w", "canvas.keys.Ctrl+Z", "canvas.keys.escape", "canvas.keys.k", "canvas.keys.n",
                                           "canvas.keys.f1", "canvas.keys.?"])
            #expect(error.all[6].message.contains("F1 and ? are the canvas's own"), "\(error.all[6].message)")
            #expect(error.all[0].message.contains("unknown key name \"hyper\""), "\(error.all[0].message)")
            #expect(error.all[1].message.contains("unknown tool \"crayon\""), "\(error.all[1].message)")
            #expect(error.all[2].message.contains("the same key as \"ctrl+z\" on line 5"), "\(error.all[2].message)")
            #expect(error.all[4].message.contains("pen and pad bindings"), "\(error.all[4].message)")
        }
    }

    @Test func aKeysValueThatIsNotATableIsRefused() {
        #expect(throws: ConfigError.self) { try ConfigFileTests.load("[canvas]\nkeys = \"p\"\n") }
    }
}
