// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

/// Every action a binding takes, read from config.toml, and the errors for
/// bad ones: each names the file, the line and the key.
@Suite("actions in config.toml")
struct ActionConfigTests {
    static func bind(_ action: String, to button: String = "BTN_STYLUS2") throws(ConfigError) -> Action {
        let config = try ConfigParserChild.parse("interval_ms = 400\n[bindings]\n\(button) = \"\(action)\"\n", file: "/home/u/config.toml")
        return config.binding(for: ButtonID(name: button)!)
    }

    static func error(_ action: String) -> ConfigError? {
        do { _ = try bind(action); return nil } catch { return error }
    }

    @Test(arguments: [
        ("toggle-canvas", Action.toggleCanvas), ("toggle-precision", .togglePrecision), ("undo", .undo), ("none", .none),
        ("clear-canvas", .clearCanvas), ("open-canvas", .openCanvas), ("minimize-canvas", .minimizeCanvas),
        ("preset:default", .preset("default")), ("preset:precision", .preset("precision")),
        ("preset:fast", .preset("fast")), ("preset:accessibility", .preset("accessibility")),
        ("exec:notify-send 'double press'", .exec("notify-send 'double press'")), ("exec:notify-send hi", .exec("notify-send hi")),
        ("exec:a:b; echo c", .exec("a:b; echo c")),
        ("key:CTRL+Z", .key(KeyChord(modifiers: [29], key: 44))),
        ("key:ctrl+shift+z", .key(KeyChord(modifiers: [29, 42], key: 44))),
        ("key:KEY_LEFTMETA+KEY_TAB", .key(KeyChord(modifiers: [125], key: 15))),
        ("key:SUPER+ALTGR+F5", .key(KeyChord(modifiers: [125, 100], key: 63))),
        ("key:Escape", .key(KeyChord(modifiers: [], key: 1))),
        ("key:PGDN", .key(KeyChord(modifiers: [], key: 109))),
        ("click:left", .click(.left)), ("click:middle", .click(.middle)), ("click:right", .click(.right)),
    ])
    func everyActionIsRead(text: String, expected: Action) throws {
        #expect(try Self.bind(text) == expected)
        #expect(try Self.bind(text, to: "pad-3") == expected, "pad buttons take every action too")
        #expect(Action(rawValue: expected.rawValue) == expected, "the canonical spelling reads back: \(expected.rawValue)")
    }

    @Test func theCanonicalSpellingUsesEvdevNames() {
        #expect(Action.key(KeyChord(modifiers: [29, 42], key: 44)).rawValue == "key:LEFTCTRL+LEFTSHIFT+Z")
        #expect(Action.click(.right).rawValue == "click:right")
        #expect(Action.preset("fast").rawValue == "preset:fast")
    }

    @Test(arguments: [
        ("key:CTRL+ZZ", "unknown key name \"ZZ\""),
        ("key:", "key: needs a key"),
        ("key:CTRL+", "empty key name"),
        ("key:Z+CTRL", "\"Z\" in \"Z+CTRL\" is not a modifier"),
        ("key:CTRL+CTRL+Z", "appears twice"),
        ("exec:", "exec: needs a command"),
        ("exec:   ", "exec: needs a command"),
        ("exec", "exec needs COMMAND after a colon"),
        ("preset:slow", "unknown preset \"slow\"; use preset:default, preset:precision, preset:fast, preset:accessibility"),
        ("click:back", "unknown click button \"back\"; use click:left, click:middle, click:right"),
        ("undo:now", "undo takes nothing after a colon"),
        ("launch:x", "unknown action \"launch:x\""),
        ("toggle", "unknown action \"toggle\"; use toggle-canvas, toggle-precision, undo, redo, clear-canvas, open-canvas, minimize-canvas, submit, discard, snapshot, copy, tool:TOOL, color:COLOR, width:STEP, background:BOARD, palette, preset:NAME, exec:COMMAND, key:KEYS, click:BUTTON or none"),
    ])
    func aBadActionIsAnErrorWithFileLineAndKey(text: String, message: String) throws {
        let error = try #require(Self.error(text), "\(text) was accepted")
        #expect(error.file == "/home/u/config.toml")
        #expect(error.line == 3, "\(error)")
        #expect(error.key == "bindings.BTN_STYLUS2", "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("/home/u/config.toml:3: bindings.BTN_STYLUS2: "), "\(error)")
    }

    @Test func everyBadBindingIsReportedNotOnlyTheFirst() throws {
        do {
            _ = try ConfigParserChild.parse("[bindings]\nBTN_STYLUS = \"key:NOPE\"\nBTN_STYLUS2 = \"exec:\"\npad-1 = \"click:up\"\n", file: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.all.map(\.line) == [2, 3, 4], "\(error)")
            #expect(error.all.map(\.key) == ["bindings.BTN_STYLUS", "bindings.BTN_STYLUS2", "bindings.pad-1"], "\(error)")
        }
    }

    @Test func aConfigWithActionsSurvivesTheParserChildsJSON() throws {
        let text = "[bindings]\nBTN_STYLUS = \"key:CTRL+ALT+T\"\nBTN_STYLUS2 = \"exec:echo 'a \\\"b\\\"'\"\nBTN_STYLUS3 = \"preset:fast\"\npad-0 = \"click:middle\"\n"
        let direct = try ConfigParserChild.parse(text, file: "config.toml")
        #expect(direct.binding(for: .side(.stylus2)) == .exec("echo 'a \"b\"'"))
        let isolated = try ConfigParserClient.parse(Array(text.utf8), file: "config.toml", executable: Built.stylusd)
        #expect(isolated == direct)
    }

    @Test func thePresetNamesAreStylusConfigsPresets() {
        #expect(Action.presetNames == Preset.allCases.map(\.rawValue))
    }

    /// A `preset:NAME` switch gives what the same file with `preset = NAME` gives.
    @Test(arguments: Preset.allCases, ["", "interval_ms = 420\n", "preset = \"fast\"\ndebounce_ms = 60\n[precision]\nminimum_scale = 0.5\ncurve = [5, 0, 100, 95]\n",
                                       "[bindings]\nBTN_STYLUS = \"preset:accessibility\"\n"])
    func switchingPresetIsParsingWithThatPreset(preset: Preset, file: String) throws {
        let loaded = try ConfigParserChild.parse(file, file: "config.toml")
        let withoutPreset = file.split(separator: "\n").filter { !$0.hasPrefix("preset =") }.joined(separator: "\n")
        let reparsed = try ConfigParserChild.parse("preset = \"\(preset.rawValue)\"\n" + withoutPreset, file: "config.toml")
        #expect(loaded.switchingPreset(to: preset.rawValue, presetConfig: preset.config) == reparsed)
    }
}
