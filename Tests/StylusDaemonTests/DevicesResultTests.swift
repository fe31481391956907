// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusDaemon
@testable import StylusInput
import StylusProtocol

@Suite("The devices answer")
struct DevicesResultTests {
    @Test func theProtocolShapeIsTheProbeReportsJSONByteForByte() {
        let pen = PenCapabilities(pressureLevels: 2048, sideButtons: ["BTN_STYLUS", "BTN_STYLUS2"], eraser: true, tilt: true, distance: false,
                                  display: true, libwacomModel: "Cintiq", libwacomStylusButtons: 2, notes: ["note"])
        var unreadable = ProbedNode(path: "/dev/input/event9", name: "Pen", kind: .unreadable, error: "Permission denied")
        unreadable.looksLikePen = true
        let reports = [
            ProbeReport(nodes: [ProbedNode(path: "/dev/input/event3", name: "Wacom Pen", id: "056a:0001", kind: .pen, pen: pen),
                                ProbedNode(path: "/dev/input/event4", name: "Wacom Pad", id: "056a:0001", kind: .pad, pad: PadCapabilities(buttons: 4)),
                                ProbedNode(path: "/dev/input/event5", name: "Keyboard", id: "0001:0001", kind: .other),
                                unreadable], buttonOnlyReason: nil),
            ProbeReport(nodes: [], buttonOnlyReason: "there is no /dev/input"),
        ]
        for report in reports {
            #expect(Response.line(DevicesResult(report)) == Response.line(report))
        }
    }
}
