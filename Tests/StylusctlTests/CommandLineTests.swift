// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import stylusctl

@Suite("stylusctl's command line")
struct CommandLineTests {
    @Test func watchPrintsAnEventAtItsTimeOfDayAndItsFields() throws {
        setenv("TZ", "UTC", 1)
        tzset()
        guard case .event(let event)? = ServerLine.decode(Array(#"{"event":"canvas","state":"open","stroke_count":2,"time_us":5000123456}"#.utf8)) else {
            Issue.record("not an event")
            return
        }
        // Monotonic 5000.123456 s; the machine booted at 2026-11-25 12:00:00 UTC (1 795 608 000 s).
        #expect(Watch.describe(event, wallClockOffset: 1_795_608_000_000_000) == "13:23:20.123 canvas state=open stroke_count=2")
    }

    @Test func aTypoGetsTheNearestCommand() throws {
        let message = try #require(Stylusctl.unknownCommandMessage("togle"))
        #expect(message == "stylusctl: unknown command \"togle\"; did you mean \"toggle\"?")
        #expect(Stylusctl.unknownCommandMessage("stauts")?.hasSuffix("did you mean \"status\"?") == true, "a swap of neighbours is one edit")
        #expect(Stylusctl.unknownCommandMessage("devics")?.hasSuffix("did you mean \"devices\"?") == true)
    }

    @Test func aWordNearNothingListsTheCommands() throws {
        let message = try #require(Stylusctl.unknownCommandMessage("xyzzy"))
        #expect(message.hasPrefix("stylusctl: unknown command \"xyzzy\"; commands are status, toggle"), "\(message)")
        #expect(!message.contains("parse-config-child") && !message.contains("did you mean"))
    }

    @Test func aSocketGivenBeforeTheCommandGoesAfterIt() {
        #expect(Stylusctl.socketAfterTheCommand(["--socket", "/tmp/s", "status"]) == ["status", "--socket", "/tmp/s"])
        #expect(Stylusctl.socketAfterTheCommand(["--socket=/tmp/s", "watch", "canvas"]) == ["watch", "--socket=/tmp/s", "canvas"])
        #expect(Stylusctl.socketAfterTheCommand(["status", "--socket", "/tmp/s"]) == ["status", "--socket", "/tmp/s"])
        #expect(Stylusctl.socketAfterTheCommand(["--socket", "/tmp/s"]) == ["--socket", "/tmp/s"], "no command: the parser says so")
        #expect(Stylusctl.socketAfterTheCommand(["--socket"]) == ["--socket"])
    }

    @Test func commandsOptionsAndHelpAreLeftToTheParser() {
        for word in ["status", "toggle", "watch", "config", "completions", "help", "--version", "-h"] {
            #expect(Stylusctl.unknownCommandMessage(word) == nil, "\(word)")
        }
    }

    @Test(arguments: [("togle", "toggle", 1), ("tgogle", "toggle", 1), ("toggle", "toggle", 0), ("", "ack", 3), ("abc", "xyz", 3), ("canvs", "canvas", 1)])
    func editDistances(a: String, b: String, distance: Int) {
        #expect(editDistance(a, b) == distance)
        #expect(editDistance(b, a) == distance)
    }

    @Test func shortWordsGetASuggestionOnlyOneEditAway() {
        #expect(didYouMean("ak", among: ["ack"]) == "; did you mean \"ack\"?")
        #expect(didYouMean("ax", among: ["ack"]) == "", "two edits in a three-letter word is another word")
        #expect(unknownWord("topic", "canvs", among: Topic.allCases.map(\.rawValue)) == "unknown topic \"canvs\"; did you mean \"canvas\"?")
    }

    static func status(strokes: Int, points: Int, mode: String = "button-only") -> StatusResult {
        StatusResult(canvas: .init(state: "minimized", hasContent: strokes > 0, strokeCount: strokes, pointCount: points, full: false),
                     precision: .init(enabled: false, active: false),
                     input: .init(mode: mode, reason: mode == "pen" ? nil : "no pen here", devices: []),
                     config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250))
    }

    @Test func oneStrokeIsOneStroke() {
        #expect(describeStatus(Self.status(strokes: 1, points: 1)).hasPrefix("canvas     minimized (1 stroke, 1 point)"))
        #expect(describeStatus(Self.status(strokes: 2, points: 0)).hasPrefix("canvas     minimized (2 strokes, 0 points)"))
    }

    @Test func aCommandThatChangesOnePartPrintsThatPartsLineAndStatusPrintsAll() {
        var r = Self.status(strokes: 2, points: 40)
        #expect(describeStatus(r, only: StatusPart(.toggle)) == "canvas     minimized (2 strokes, 40 points)")
        #expect(describeStatus(r, only: StatusPart(.precision(.enable))) == "precision  disabled, inactive")
        r.changed = false
        r.reason = "canvas is already minimized"
        #expect(describeStatus(r, only: StatusPart(.minimize)) == "unchanged: canvas is already minimized\ncanvas     minimized (2 strokes, 40 points)")
        #expect(describeStatus(r, only: StatusPart(.status)).split(separator: "\n").count == 6, "status: the reason, canvas, tool, precision, input, config")
        r.changed = nil
        r.reason = nil
        r.tool = StatusResult.ToolInfo(StrokeStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 12))
        #expect(describeStatus(r, only: StatusPart(.tool(tool: .highlighter, color: nil, width: nil))) == "tool       highlighter, #edd400, width 12")
    }

    @Test func watchSaysAtOnceWhatItWatchesAndFromWhatState() {
        let line = Watch.firstLine(topics: [.canvas, .doublePress], status: Self.status(strokes: 1, points: 9, mode: "pen"))
        #expect(line == "watching canvas, double-press (Ctrl-C stops); now: canvas minimized (1 stroke), precision disabled, input pen")
    }
}
