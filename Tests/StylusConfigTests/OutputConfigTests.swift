// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput
import Testing
@testable import StylusConfig
@testable import StylusConfigParser

@Suite("config.toml's [output] table")
struct OutputConfigTests {
    static func load(_ text: String) throws(ConfigError) -> EngineConfig {
        try ConfigParserChild.parse(text, file: "config.toml")
    }

    @Test func withoutTheTableTheOutputIsAutoWithEveryPressDeferredAndTheCanvasCapturing() throws {
        let output = try Self.load("interval_ms = 500\n").output
        #expect(output.mode == .auto)
        #expect(output.passthrough == [.deferred, .deferred, .deferred])
        #expect(output.captureWhileCanvasOpen)
        let filter = output.filter
        #expect(filter.passthrough(for: .stylus, bindings: EngineConfig()) == .deferred, "a bound button is deferred by default")
        #expect(filter.passthrough(for: .stylus3, bindings: EngineConfig()) == .immediate, "an unbound one passes at once")
    }

    @Test(arguments: OutputChoice.allCases)
    func everyModeIsRead(mode: OutputChoice) throws {
        #expect(try Self.load("[output]\nmode = \"\(mode.rawValue)\"\n").output.mode == mode)
    }

    @Test func everyKeyIsRead() throws {
        let c = try Self.load("""
            [output]
            mode = "filter"
            capture_while_canvas_open = false
            [output.passthrough]
            BTN_STYLUS = "immediate"
            BTN_STYLUS2 = "never"
            BTN_STYLUS3 = "defer"
            """)
        #expect(c.output.mode == .filter)
        #expect(!c.output.captureWhileCanvasOpen)
        #expect(c.output.passthrough == [.immediate, .never, .deferred])
        #expect(c.output.filter.captureWhileCanvasOpen == false)
        #expect(c.output.filter.passthrough == [.immediate, .never, .deferred], "the filter gets what the file says")
        #expect(c.doublePressIntervalMS == EngineConfig().doublePressIntervalMS, "nothing else changes")
    }

    @Test func anInlinePassthroughTableAndAnUnlistedButtonKeepTheDefault() throws {
        let c = try Self.load("[output]\npassthrough = { BTN_STYLUS2 = \"never\" }\n")
        #expect(c.output.passthrough == [.deferred, .never, .deferred])
    }

    @Test(arguments: [
        ("[output]\nmode = \"grab\"\n", 2, "output.mode", "unknown mode \"grab\"; use observe, filter or auto"),
        ("[output]\nmode = 1\n", 2, "output.mode", "expected a string, found integer; use observe, filter or auto"),
        ("[output]\n\ncapture_while_canvas_open = \"yes\"\n", 3, "output.capture_while_canvas_open", "expected true or false, found string"),
        ("[output]\ncapture_while_canvas_open = 1\n", 2, "output.capture_while_canvas_open", "expected true or false, found integer"),
        ("[output]\nfilter = true\n", 2, "output.filter", "unknown key; known keys are mode, capture_while_canvas_open, passthrough"),
        ("[output]\npassthrough = \"defer\"\n", 2, "output.passthrough", "expected a table ([output.passthrough]) of side buttons"),
        ("[output.passthrough]\nBTN_STYLUS = \"later\"\n", 2, "output.passthrough.BTN_STYLUS", "unknown passthrough \"later\"; use defer, immediate or never"),
        ("[output.passthrough]\n# the upper button\nBTN_STYLUS2 = false\n", 3, "output.passthrough.BTN_STYLUS2", "expected a string, found bool; use defer, immediate or never"),
        ("[output.passthrough]\npad-1 = \"never\"\n", 2, "output.passthrough.pad-1", "unknown button; passthrough is set per side button: BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3"),
        ("[output]\npassthrough = { BTN_LEFT = \"never\" }\n", 2, "output.passthrough.BTN_LEFT", "unknown button"),
        ("output = \"filter\"\n", 1, "output", "expected a table ([output])"),
    ] as [(String, Int, String, String)])
    func aBadValueNamesTheFileTheLineAndTheKey(text: String, line: Int, key: String, message: String) throws {
        do {
            _ = try Self.load(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.file == "config.toml")
            #expect(error.line == line, "\(error)")
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("config.toml:\(line): \(key): "), "\(error)")
        }
    }

    @Test func everyBadOutputKeyIsReportedNotOnlyTheFirst() throws {
        do {
            _ = try Self.load("[output]\nmode = \"x\"\ncapture_while_canvas_open = 0\n[output.passthrough]\nBTN_STYLUS = \"y\"\n")
            Issue.record("accepted")
        } catch {
            #expect(error.all.map(\.key) == ["output.mode", "output.capture_while_canvas_open", "output.passthrough.BTN_STYLUS"], "\(error)")
            #expect(error.all.map(\.line) == [2, 3, 5], "\(error)")
        }
    }

    @Test func theParserChildSendsTheOutputTableBack() throws {
        // The daemon and `stylusctl config check` parse in a child process: the table must survive its JSON.
        let text = "[output]\nmode = \"observe\"\ncapture_while_canvas_open = false\n[output.passthrough]\nBTN_STYLUS2 = \"never\"\n"
        let (status, reply) = ConfigParserChild.answer(Array(text.utf8), file: "config.toml")
        let decoded = try ConfigParserChild.decode(status: status, reply: reply, file: "config.toml").get()
        #expect(decoded == (try Self.load(text)))
        #expect(decoded.output.mode == .observe && decoded.output.passthrough == [.deferred, .never, .deferred])
    }
}
