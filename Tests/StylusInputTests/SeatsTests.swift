// SPDX-License-Identifier: MIT
import FoundationEssentials
import Testing
@testable import StylusInput

@Suite("--seat and --device at start")
struct SeatsTests {
    @Test func recordsWithoutASeatAreOnSeat0() {
        let records = ["E:ID_INPUT=1\nE:ID_INPUT_TABLET=1\n", "E:ID_INPUT=1\nE:ID_SEAT=seat1\n", "G:seat\nE:ID_SEAT=seat1\n"]
        #expect(Seats.named(inRecords: records) == ["seat0", "seat1"])
        #expect(Seats.named(inRecords: []) == [])
    }

    @Test func anUnknownSeatIsSaidWithTheKnownOnes() throws {
        #expect(Seats.warning(for: "seat0", known: ["seat0"]) == nil)
        let warning = try #require(Seats.warning(for: "seta0", known: ["seat0", "seat1"]))
        #expect(warning.hasPrefix("no input device is on seat \"seta0\" (udev has input devices on seat0, seat1 only)"), "\(warning)")
        #expect(Seats.warning(for: "seat0", known: nil) == nil, "without udev's database seat0 is assumed")
        #expect(Seats.warning(for: "seat1", known: nil)?.hasPrefix("cannot check seat \"seat1\"") == true)
    }

    @Test func theGivenNodesAloneAreTheReason() {
        let missing = ProbedNode(path: "/dev/input/event99", name: "?", kind: .unreadable, error: "no such device node (unplugged, or the path is wrong)")
        let keyboard = ProbedNode(path: "/dev/input/event2", name: "Keyboard", kind: .other)
        #expect(Probe.buttonOnlyReason(given: [missing]) == "cannot use /dev/input/event99: no such device node (unplugged, or the path is wrong)")
        #expect(Probe.buttonOnlyReason(given: [missing, keyboard])?.hasSuffix("; /dev/input/event2 (Keyboard) is not a tablet pen") == true)
        #expect(Probe.buttonOnlyReason(given: [keyboard, ProbedNode(path: "/dev/input/event3", name: "Pen", kind: .pen)]) == nil)
        let report = Probe.run(paths: ["/nonexistent/event7"], sysfs: "/nonexistent", libwacom: false)
        #expect(report.buttonOnlyReason == "cannot use /nonexistent/event7: no such device node (unplugged, or the path is wrong)")
    }

    @Test func probeJSONKeysAreSnakeCase() throws {
        var node = ProbedNode(path: "/dev/input/event9", name: "Pen", kind: .unreadable, error: "Permission denied")
        node.looksLikePen = true
        let json = String(decoding: try JSONEncoder().encode(ProbeReport(nodes: [node], buttonOnlyReason: "x")), as: UTF8.self)
        #expect(json.contains("\"looks_like_pen\":true") && json.contains("\"button_only_reason\""), "\(json)")
        #expect(!json.contains("looksLikePen"))
    }
}
