// SPDX-License-Identifier: MIT
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl monitor names the pen tool in use")
struct MonitorPenNameTests {
    static func sample(pen: String) -> EventLine {
        MonitorModelTests.event(#"{"event":"pen","device":1,"tool":"pen","pen":"\#(pen)","x":0.5,"y":0.25,"pressure":0.3,"tilt_x":0,"tilt_y":0,"tip":false,"adjusted_x":0.5,"adjusted_y":0.25,"scale":1,"time_us":2}"#)
    }

    @Test func theToolLineShowsTheNameOfThePenThatSentTheLastSample() {
        var m = MonitorModelTests.model()
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":10,"time_us":1}"#))
        m.apply(Self.sample(pen: "blue pen"))
        #expect(m.lines(width: 100, height: 24).contains { $0.hasPrefix("Tool       pen, serial 0xa") && $0.hasSuffix(", \"blue pen\"") })
    }

    /// The other pen comes in: until its first sample the old name would be a lie.
    @Test func anotherToolComingInForgetsTheOldName() {
        var m = MonitorModelTests.model()
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":10,"time_us":1}"#))
        m.apply(Self.sample(pen: "blue pen"))
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"out","tool":"pen","serial":10,"time_us":3}"#))
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":11,"time_us":4}"#))
        let text = m.lines(width: 100, height: 24).joined(separator: "\n")
        #expect(!text.contains("blue pen"), "\(text)")
        m.apply(Self.sample(pen: "red pen"))
        #expect(m.lines(width: 100, height: 24).contains { $0.hasPrefix("Tool       pen, serial 0xb") && $0.hasSuffix(", \"red pen\"") })
    }
}
