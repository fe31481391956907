// SPDX-License-Identifier: MIT
import StylusConfig
import Testing
@testable import stylusctl

@Suite("calibrate's proposal and its edit of config.toml")
struct CalibrateTests {
    @Test func theIntervalIsTheMiddleBetweenTheSlowestDoubleAndTheQuickestSingles() {
        let p = IntervalProposal(doubles: [280, 310, 345, 300], singles: [850, 920, 1000, 880])
        #expect(p.outcome == .separated(intervalMS: 598, marginMS: 252))
    }

    @Test func slowSinglesAreCappedByTheLongestInterval() {
        // Singles seconds apart: the middle would be past 1000 ms, the daemon's limit.
        let p = IntervalProposal(doubles: [700, 810], singles: [4000, 6000])
        #expect(p.outcome == .separated(intervalMS: 1000, marginMS: 190))
    }

    @Test func overlappingPressesProposeNothing() {
        let p = IntervalProposal(doubles: [300, 640], singles: [560, 900])
        #expect(p.outcome == .overlap)
        #expect(p.slowestDoubleMS == 640 && p.quickestSinglesMS == 560)
        #expect(IntervalProposal(doubles: [100], singles: [120]).outcome == .overlap, "no interval in 150-1000 ms lies between them")
    }

    @Test func theValueLineChangesAndEverythingElseStays() {
        let text = "# notes\ninterval_ms = 500   # mine\ndebounce_ms = 20\n\n[bindings]\nBTN_STYLUS = \"undo\"\n"
        #expect(ConfigEdit.setting("interval_ms", to: "598", in: text, note: "n")
                == "# notes\ninterval_ms = 598  # mine\ndebounce_ms = 20\n\n[bindings]\nBTN_STYLUS = \"undo\"\n")
    }

    @Test func aMissingKeyGoesBeforeTheFirstTable() {
        let text = "debounce_ms = 20\n[bindings]\ninterval_ms_note = 1\n"
        #expect(ConfigEdit.setting("interval_ms", to: "598", in: text, note: "set by calibrate")
                == "debounce_ms = 20\n# set by calibrate\ninterval_ms = 598\n\n[bindings]\ninterval_ms_note = 1\n")
        #expect(ConfigEdit.setting("interval_ms", to: "598", in: "", note: "n") == "# n\ninterval_ms = 598\n")
    }
}
