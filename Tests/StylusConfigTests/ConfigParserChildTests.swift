// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusConfig
@testable import StylusConfigParser

/// The daemon reads the parser child's configuration with its own reader
/// (`ConfigParserChild.readConfiguration`), JSONDecoder only as the fallback.
@Suite("the parser child's answer, read without JSONDecoder")
struct ConfigParserChildTests {
    /// Every field away from its default, so that a field the reader drops or swaps shows.
    static var everyFieldSet: EngineConfig {
        var c = EngineConfig()
        c.doublePressIntervalMS = 321
        c.debounceMS = 7
        c.transitionMS = 1234
        c.sideButtonBindings = [.exec("notify-send \"hi\" /tmp"), try! Action.parse("key:ctrl+z").get(), .preset("fast")]
        c.padBindings = [0: .undo, 3: try! Action.parse("click:right").get(), 17: .clearCanvas]
        c.precision.minimumScale = 0.125
        c.precision.fullSpeedPressure = 0.75
        c.precision.hysteresis = 0.01
        c.precision.curve = PressureCurve(x1: 0.1, y1: 0.2, x2: 0.9, y2: 1)
        c.precision.reportStep = 0.2
        c.canvasLimits.maxPoints = 1000
        c.canvasLimits.maxStrokes = 10
        c.output.mode = .filter
        c.output.passthrough = [.immediate, .never, .deferred]
        c.output.captureWhileCanvasOpen = false
        c.preset = "slow"
        c.setInFile = [.interval, .curve, .reportStep]
        c.palette = [StrokeColor(hex: "#000000")!, StrokeColor(hex: "#3465a4")!]
        c.style = ConfiguredStyle(tool: .arrow, color: StrokeColor(hex: "#4e9a06")!, width: 2.5)
        c.pens = [PenConfig(name: "blue", serial: 0xa, toolID: 0x802, device: "Wacom", type: .pen, style: ConfiguredStyle(width: 3),
                            curve: PressureCurve(x1: 0, y1: 0.6, x2: 0.4, y2: 1), bindings: ["BTN_STYLUS": .undo, "BTN_STYLUS3": .exec("echo")]),
                  PenConfig(name: "plain", serial: 0xb)]
        return c
    }

    /// Only the colour set: the tool and the width stay unset across the pipe.
    static var colourOnly: EngineConfig {
        var c = EngineConfig()
        c.style.color = StrokeColor(hex: "#3465a4")!
        return c
    }

    @Test func whatTheChildEncodesIsReadBackFieldForField() throws {
        for config in [EngineConfig(), Self.everyFieldSet, Self.colourOnly] {
            let reply = Array(try JSONEncoder().encode(config))
            #expect(ConfigParserChild.readConfiguration(reply) == config)
            #expect(try ConfigParserChild.decode(status: ConfigParserChild.parsed, reply: reply, file: "config.toml").get() == config)
        }
    }

    @Test func theChildsRealAnswerToAFileIsReadWithoutTheFallback() throws {
        let text = """
            preset = "fast"
            interval_ms = 420
            [bindings]
            BTN_STYLUS = "key:ctrl+shift+z"
            pad-4 = "exec:echo done"
            [precision]
            curve = [20, 10, 80, 90]
            [output]
            mode = "observe"
            [output.passthrough]
            BTN_STYLUS2 = "never"
            [pens.blue]
            serial = "0xa"
            curve = [0, 60, 40, 100]
            [pens.blue.bindings]
            BTN_STYLUS = "undo"

            """
        let (status, reply) = ConfigParserChild.answer(Array(text.utf8), file: "config.toml")
        #expect(status == ConfigParserChild.parsed)
        let read = try #require(ConfigParserChild.readConfiguration(reply))
        #expect(read == (try ConfigParserChild.parse(text, file: "config.toml")))
        #expect(read.doublePressIntervalMS == 420 && read.padBindings[4] == .exec("echo done") && read.output.passthrough[1] == .never)
    }

    @Test func aKeyItDoesNotKnowLeavesTheAnswerToJSONDecoder() throws {
        var json = String(decoding: try JSONEncoder().encode(Self.everyFieldSet), as: UTF8.self)
        json.removeLast()
        json += #","addedInALaterVersion":{"x":1}}"#
        #expect(ConfigParserChild.readConfiguration(Array(json.utf8)) == nil)
        #expect(try ConfigParserChild.decode(status: ConfigParserChild.parsed, reply: Array(json.utf8), file: "config.toml").get() == Self.everyFieldSet)
    }

    @Test func aMissingFieldOrAWrongTypeIsNotAConfiguration() throws {
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys   // "debounceMS" then has a member after it
        let good = String(decoding: try sorted.encode(Self.everyFieldSet), as: UTF8.self)
        for bad in [good.replacing(#""debounceMS":7"#, with: #""debounceMS":"7""#),
                    good.replacing(#""debounceMS":7,"#, with: ""),
                    good.replacing(#""debounceMS":7"#, with: #""debounceMS":7.5"#),
                    good.replacing(#""mode":"filter""#, with: #""mode":"sideways""#)] {
            #expect(bad != good)
            #expect(ConfigParserChild.readConfiguration(Array(bad.utf8)) == nil, "\(bad)")
            guard case .failure(let error) = ConfigParserChild.decode(status: ConfigParserChild.parsed, reply: Array(bad.utf8), file: "config.toml") else {
                Issue.record("accepted \(bad)")
                continue
            }
            #expect(error.message.contains("another version of stylusd"), "\(error)")
        }
    }
}
