// SPDX-License-Identifier: MIT
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl watch's first line")
struct WatchHeaderTests {
    @Test func theInputIsSaidAsStatusSaysIt() {
        var status = CommandLineTests.status(strokes: 0, points: 0, mode: "pen")
        status.input.devices = [.init(device: 1, name: "Wacom Cintiq 22HDT Pen (recording)", kind: "pen")]
        #expect(Watch.firstLine(topics: [.canvas], status: status).hasSuffix("input pen Wacom Cintiq 22HDT Pen (recording)"))
        status.input = .init(mode: "button-only", reason: "input comes from a recording", devices: [])
        #expect(Watch.firstLine(topics: [.canvas], status: status).hasSuffix("input button-only (input comes from a recording)"))
    }
}
