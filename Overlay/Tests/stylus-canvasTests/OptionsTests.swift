// SPDX-License-Identifier: MIT
import CanvasModel
@testable import stylus_canvas
import Testing

@Test func noArgumentsRunWithTheDefaults() {
    #expect(Options.parse([]) == .run(Options()))
    #expect(Options().fadeMilliseconds == 120 && Options().monitor == .auto && !Options().clickThrough)
}

@Test func everyOptionIsRead() {
    var expected = Options()
    expected.socket = "/run/s.sock"
    expected.clickThrough = true
    expected.fadeMilliseconds = 0
    expected.monitor = .connector("HDMI-1")
    expected.verbose = true
    #expect(Options.parse(["--socket", "/run/s.sock", "--click-through", "--fade-ms", "0", "--monitor", "HDMI-1", "-v"]) == .run(expected))
}

@Test func monitorTakesANumberOrAName() {
    func monitor(_ argument: String) -> MonitorRequest? {
        if case .run(let options) = Options.parse(["--monitor", argument]) { options.monitor } else { nil }
    }
    #expect(monitor("auto") == .auto)
    #expect(monitor("all") == .all)
    #expect(monitor("1") == .index(1))
    #expect(monitor("DP-2") == .connector("DP-2"))
}

@Test func helpAndVersionEndTheParse() {
    #expect(Options.parse(["--help", "--bogus"]) == .help)
    #expect(Options.parse(["-h"]) == .help)
    #expect(Options.parse(["--verbose", "--version"]) == .version)
}

@Test func badArgumentsAreRefusedByName() {
    #expect(Options.parse(["--fade-ms", "1001"]) == .failure("--fade-ms takes 0-1000"))
    #expect(Options.parse(["--fade-ms", "-1"]) == .failure("--fade-ms takes 0-1000"))
    #expect(Options.parse(["--fade-ms", "fast"]) == .failure("--fade-ms takes 0-1000"))
    #expect(Options.parse(["--fade-ms"]) == .failure("--fade-ms needs a value"))
    #expect(Options.parse(["--socket"]) == .failure("--socket needs a value"))
    #expect(Options.parse(["--monitor"]) == .failure("--monitor needs a value"))
    #expect(Options.parse(["--monitor", "--verbose"]) == .failure("--monitor takes auto, all, a connector's name or a number from 0"))
    #expect(Options.parse(["--monitor", ""]) == .failure("--monitor takes auto, all, a connector's name or a number from 0"))
    #expect(Options.parse(["--frobnicate"]) == .failure("unknown argument --frobnicate"))
}

@Test func renderModesOutOfPlaceSayHowTheyAreCalled() {
    // main.swift runs them only in their exact shape, before the options are read.
    guard case .failure(let png) = Options.parse(["--render-png", "out.png"]),
          case .failure(let bench) = Options.parse(["--verbose", "--render-bench", "10x10"]) else {
        Issue.record("a render mode among other options was accepted")
        return
    }
    #expect(png.hasPrefix("--render-png takes PATH --size WIDTHxHEIGHT"))
    #expect(bench.hasPrefix("--render-bench takes WIDTHxHEIGHT"))
}

@Test func theUsageNamesEveryOption() {
    for option in ["--socket", "--click-through", "--fade-ms", "--monitor", "--verbose", "--render-png", "--render-bench", "--version", "--help"] {
        #expect(Options.usage.contains(option), "usage does not name \(option)")
    }
}
