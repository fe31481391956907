// SPDX-License-Identifier: MIT
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl monitor while the pen is away")
struct MonitorPenAwayTests {
    @Test func outOfProximityShowsNoPositionTiltOrPressure() {
        var m = MonitorModelTests.model()
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":1,"time_us":1}"#))
        m.apply(MonitorModelTests.event(#"{"event":"pen","device":1,"tool":"pen","x":0.5,"y":0.25,"pressure":0.3,"tilt_x":-12,"tilt_y":5.5,"tip":true,"adjusted_x":0.5,"adjusted_y":0.25,"scale":1,"time_us":2}"#))
        #expect(m.lines(width: 80, height: 24).joined(separator: "\n").contains("Position   x 0.5000"))
        // What the driver reports as the pen leaves: zeros and -64° tilt.
        m.apply(MonitorModelTests.event(#"{"event":"pen","device":1,"tool":"pen","x":0,"y":0,"pressure":0,"tilt_x":-64,"tilt_y":-64,"tip":false,"adjusted_x":0,"adjusted_y":0,"scale":1,"time_us":3}"#))
        m.apply(MonitorModelTests.event(#"{"event":"proximity","device":1,"state":"out","tool":"pen","serial":1,"time_us":4}"#))
        let lines = m.lines(width: 80, height: 24)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("out of proximity"), "\(text)")
        #expect(lines.contains("Position   - (pen away)"), "\(text)")
        #expect(lines.contains("Tilt       -"), "\(text)")
        #expect(lines.contains("Pressure   -"), "\(text)")
        #expect(!text.contains("-64"), "\(text)")
    }
}
