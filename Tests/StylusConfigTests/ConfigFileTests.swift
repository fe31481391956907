// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

@Suite("config.toml")
struct ConfigFileTests {
    static func load(_ text: String) throws(ConfigError) -> EngineConfig {
        try ConfigParserChild.parse(text, file: "config.toml")
    }

    static func error(_ text: String) -> ConfigError? {
        do {
            _ = try load(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func anEmptyFileGivesTheDefaults() throws {
        #expect(try Self.load("") == EngineConfig())
        #expect(try Self.load("# only a comment\n") == EngineConfig())
    }

    @Test func everyKeyIsRead() throws {
        let c = try Self.load("""
            interval_ms = 650
            debounce_ms = 30
            transition_ms = 0
            [bindings]
            BTN_STYLUS = "toggle-precision"
            BTN_STYLUS2 = "none"
            BTN_STYLUS3 = "toggle-canvas"
            pad-4 = "toggle-canvas"
            [precision]
            minimum_scale = 0.25
            full_speed_pressure = 0.7
            hysteresis = 0.1
            curve = [0, 5, 95, 100]
            [canvas]
            max_points = 1000
            max_strokes = 10
            """)
        #expect(c.doublePressIntervalMS == 650 && c.debounceMS == 30 && c.transitionMS == 0)
        #expect(c.sideButtonBindings == [.togglePrecision, .none, .toggleCanvas])
        #expect(c.binding(for: .pad(4)) == .toggleCanvas)
        #expect(c.precision.minimumScale == 0.25 && c.precision.fullSpeedPressure == 0.7 && c.precision.hysteresis == 0.1)
        #expect(c.precision.curve == PressureCurve(x1: 0, y1: 0.05, x2: 0.95, y2: 1))
        #expect(c.canvasLimits.maxPoints == 1000 && c.canvasLimits.maxStrokes == 10)
    }

    @Test func aPresetIsTheStartingPointAndKeysOverrideIt() throws {
        let c = try Self.load("preset = \"accessibility\"\ntransition_ms = 400\n")
        #expect(c.doublePressIntervalMS == 900, "from the preset")
        #expect(c.transitionMS == 400, "the file's own key wins")
        #expect(Preset.accessibility.config.doublePressIntervalMS > EngineConfig().doublePressIntervalMS)
        #expect(Preset.accessibility.config.transitionMS > EngineConfig().transitionMS)
        for preset in Preset.allCases {
            #expect(preset.config.problems().isEmpty, "\(preset) is valid")
        }
    }

    @Test(arguments: [
        ("interval_ms = 100\n", 1, "interval_ms", "100 ms is outside 150-1000 ms"),
        ("\n\ninterval_ms = \"fast\"\n", 3, "interval_ms", "expected a whole number, found string"),
        ("colour = 1\n", 1, "colour", "unknown key"),
        ("preset = \"turbo\"\n", 1, "preset", "unknown preset \"turbo\""),
        ("[bindings]\nBTN_STYLUS = \"explode\"\n", 2, "bindings.BTN_STYLUS", "unknown action \"explode\""),
        ("[bindings]\nBTN_LEFT = \"none\"\n", 2, "bindings.BTN_LEFT", "unknown button"),
        ("[precision]\ncurve = [0, 0, 100]\n", 2, "precision.curve", "expected four numbers 0-100"),
        ("[precision]\nminimum_scale = 2\n", 2, "precision.minimum_scale", "2.0 is outside (0, 1]"),
        ("[precision]\nspeed = 2\n", 2, "precision.speed", "unknown key"),
        ("[canvas]\nmax_points = 0\n", 2, "canvas.max_points", "0 is outside"),
        ("# comment\ndebounce_ms = 101\n", 2, "debounce_ms", "101 ms is outside 0-100 ms"),
    ] as [(String, Int, String, String)])
    func aBadValueNamesTheFileTheLineAndTheKey(text: String, line: Int, key: String, message: String) throws {
        let e = try #require(Self.error(text))
        #expect(e.file == "config.toml")
        #expect(e.line == line, "\(e)")
        #expect(e.key == key, "\(e)")
        #expect(e.message.contains(message), "\(e)")
        #expect(e.description.hasPrefix("config.toml:\(line): \(key): "))
    }

    @Test func invalidTOMLNamesTheLine() throws {
        let e = try #require(Self.error("interval_ms = 500\n[precision\n"))
        #expect(e.line == 2)
        #expect(e.message.hasPrefix("not valid TOML"))
    }

    // Found by the config fuzzer: toml++ (in TOMLKit, the parser before
    // StylusTOML) aborted the process on these headers.
    @Test(arguments: [
        ("[!]\n", 1, "found \"!]\""),
        ("interval_ms = 500\n[[ é]]\n", 2, "found \"é]]\""),
        ("[bindings]\n[\u{FFFD}x]\n", 2, "a table name follows"),
        ("[\nbindings]\n", 1, "found the end of the line"),
        ("[ \r\n", 1, "found the end of the line"),
    ] as [(String, Int, String)])
    func aTableHeaderThatIsNotANameIsRefusedWithItsLine(text: String, line: Int, message: String) throws {
        let e = try #require(Self.error(text))
        #expect(e.line == line, "\(e)")
        #expect(e.message.contains(message), "\(e)")
    }

    // Found by the config fuzzer: an empty quoted key crashed the line lookup.
    @Test func anEmptyKeyIsAnUnknownKeyOnItsLine() throws {
        let e = try #require(Self.error("# keys\n\"\" = 1\n"))
        #expect(e.line == 2, "\(e)")
        #expect(e.description.hasPrefix("config.toml:2: \"\": unknown key"), "\(e)")
        let nested = try #require(Self.error("[precision]\n\"\" = 1\n"))
        #expect(nested.key == "precision.", "\(nested)")
    }

    @Test func bracketsInsideValuesAndStringsAreNotTableHeaders() throws {
        let c = try Self.load("""
            [precision]
            curve = [
              0, 0,
              100, 100,
            ]
            [bindings]
            "BTN_STYLUS" = "none" # [!] in a comment
            """)
        #expect(c.binding(for: .side(.stylus)) == Action.none)
        let e = try #require(Self.error("preset = \"\"\"\n[!]\n\"\"\"\n"))
        #expect(e.key == "preset", "a multi-line string is read by TOML, not taken for a header: \(e)")
    }

    @Test func bytesThatAreNotUTF8OrHoldNULAreRefusedWithTheirLine() throws {
        func error(_ bytes: [UInt8]) -> ConfigError? {
            do { _ = try ConfigParserChild.parse(bytes, file: "config.toml"); return nil } catch { return error }
        }
        let notUTF8 = try #require(error(Array("interval_ms = 500\n# caf".utf8) + [0xe9, 0x0a]))
        #expect(notUTF8.line == 2)
        #expect(notUTF8.message.contains("not UTF-8"), "\(notUTF8)")
        // A parser reading a C string would have stopped at the NUL, silently.
        let nul = try #require(error(Array("interval_ms = 300\u{0}\ninterval_ms = 2000\n".utf8)))
        #expect(nul.line == 1)
        #expect(nul.message.contains("NUL"), "\(nul)")
    }

    // Found by the config fuzzer: `[}]` as a value aborted toml++ (TOMLKit), the parser before StylusTOML.
    @Test func whatAbortedTheOldParserIsAnErrorWithItsLine() throws {
        let stylusd = try Built.stylusd
        do {
            _ = try ConfigParserClient.parse(Array("[precision]\ncurve = [}]\n".utf8), file: "config.toml", executable: stylusd)
            Issue.record("accepted")
        } catch {
            #expect(error.file == "config.toml" && error.line == 2, "\(error)")
            #expect(error.message.hasPrefix("not valid TOML (column 10): expected a value"), "\(error)")
        }
        let good = try ConfigParserClient.parse(Array("interval_ms = 640\n".utf8), file: "config.toml", executable: stylusd)
        #expect(good.doublePressIntervalMS == 640)
        do {
            _ = try ConfigParserClient.parse(Array("debounce_ms = 101\n".utf8), file: "config.toml", executable: stylusd)
            Issue.record("accepted")
        } catch {
            #expect(error.line == 1 && error.key == "debounce_ms", "the child's error comes back whole: \(error)")
        }
    }

    @Test func theChildSendsBackExactlyWhatItParsed() throws {
        let stylusd = try Built.stylusd
        let text = """
            preset = "accessibility"
            [bindings]
            BTN_STYLUS = "toggle-precision"
            pad-4 = "toggle-canvas"
            [precision]
            minimum_scale = 0.123456789
            curve = [3, 7, 95, 99.5]
            [canvas]
            max_strokes = 77
            """
        let isolated = try ConfigParserClient.parse(Array(text.utf8), file: "config.toml", executable: stylusd)
        #expect(isolated == (try ConfigParserChild.parse(text, file: "config.toml")))
        #expect(isolated.binding(for: .pad(4)) == .toggleCanvas)
    }

    @Test func aFileOverAMebibyteIsNotAConfigFile() {
        #expect(throws: ConfigError.self) {
            try ConfigParserClient.parse([UInt8](repeating: 0x23, count: ConfigParserChild.maxBytes + 1), file: "config.toml")
        }
    }
}

@Suite("config.toml with several problems")
struct ConfigFileAllProblemsTests {
    static let text = """
        preset = "turbo"
        interval_ms = 5000
        colour = 1
        [bindings]
        BTN_STYLUS = "explode"
        [precision]
        minimum_scale = "x"

        """

    @Test func everyProblemIsReportedInFileOrder() throws {
        let e = try #require(ConfigFileTests.error(Self.text))
        #expect(e.all.map(\.line) == [1, 2, 3, 5, 7], "\(e)")
        #expect(e.all.map(\.key) == ["preset", "interval_ms", "colour", "bindings.BTN_STYLUS", "precision.minimum_scale"], "\(e)")
        #expect(e.description.split(separator: "\n").count == 5, "one line per problem: \(e)")
        #expect(e.description.hasPrefix("config.toml:1: preset: unknown preset \"turbo\""))
    }

    @Test func theParserChildSendsThemAll() throws {
        let e = try ConfigParserClientTests.error(ConfigParserClientTests.parse(Self.text))
        #expect(e == ConfigFileTests.error(Self.text), "the child's answer is this process's error, every problem of it")
        #expect(e.others.count == 4)
    }

    // 500 tables, not thousands: under AddressSanitizer on a busy machine the child
    // needs several seconds for 5000, near its 10 s limit. The cut at 100 is the same.
    @Test func aFileOfHundredsOfBadKeysListsTheFirstHundredAndCountsTheRest() throws {
        let text = (1...500).map { "[table\($0)]\nkey = \($0)\n" }.joined()
        let e = try ConfigParserClientTests.error(ConfigParserClientTests.parse(text))
        #expect(e.all.count == ConfigParserChild.maxProblemsListed + 1, "\(e.all.count) problems")
        #expect(e.all.dropLast().map(\.line) == Array(stride(from: 1, through: 199, by: 2)), "in file order, each with its line")
        #expect(e.all.last?.message == "400 more problems not listed", "\(e.all.last?.message ?? "")")
    }

    @Test func oneProblemIsStillOneLine() throws {
        let e = try #require(ConfigFileTests.error("debounce_ms = 101\n"))
        #expect(e.others.isEmpty && !e.description.contains("\n"))
    }
}

@Suite("examples/config.toml")
struct ExampleConfigTests {
    static let path: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/examples/config.toml"
    }()

    static func text() throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    @Test func itIsTheDefaultsExactly() throws {
        var parsed = try ConfigParserChild.parse(Self.text(), file: Self.path)
        #expect(parsed.setInFile.isEmpty, "a key a preset chooses, set in the example, would silently defeat every preset")
        #expect(parsed == EngineConfig(), "the example documents the defaults as they are")
        // Uncommented, the preset's keys give the defaults too.
        let presetKeys = PresetSetting.allCases.map { "\($0.rawValue.split(separator: ".").last!) = " }
        var uncommented = 0
        let text = try Self.text().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("# "), presetKeys.contains(where: { line.dropFirst(2).hasPrefix($0) }) else { return String(line) }
            uncommented += 1
            return String(line.dropFirst(2))
        }.joined(separator: "\n")
        #expect(uncommented == PresetSetting.allCases.count, "each key a preset chooses is shown, commented out")
        var all = try ConfigParserChild.parse(text, file: Self.path)
        #expect(all.setInFile == Set(PresetSetting.allCases))
        all.setInFile = []
        #expect(all == EngineConfig(), "the commented-out values are the defaults")
    }

    /// Every key is shown (set, or for a preset's, commented out), and a comment stands above it or above the run of keys and table headers it is in.
    @Test func itSetsEveryKeyWithACommentAboveIt() throws {
        let lines = try Self.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let keys = ["preset", "interval_ms", "debounce_ms", "transition_ms", "BTN_STYLUS", "BTN_STYLUS2", "BTN_STYLUS3",
                    "minimum_scale", "full_speed_pressure", "hysteresis", "curve", "report_step", "max_points", "max_strokes",
                    "mode", "capture_while_canvas_open"]
        for key in keys {
            var index = try #require(lines.firstIndex { $0.hasPrefix("\(key) = ") || $0.hasPrefix("# \(key) = ") }, "\(key) is not shown")
            repeat { index -= 1 } while index > 0 && (lines[index].hasPrefix("[") || lines[index].contains(" = ") && !lines[index].hasPrefix("#"))
            #expect(lines[index].hasPrefix("#"), "\(key) has no comment above it")
        }
        for table in ["[bindings]", "[precision]", "[canvas]", "[output]", "[output.passthrough]"] { #expect(lines.contains(table)) }
    }
}
