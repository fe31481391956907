// SPDX-License-Identifier: MIT
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl monitor's view")
struct MonitorModelTests {
    static func event(_ json: String) -> EventLine {
        guard case .event(let e)? = ServerLine.decode(Array(json.utf8)) else { fatalError("not an event: \(json)") }
        return e
    }

    static func press(_ button: String = "BTN_STYLUS", gapMS: Int?, double: Bool = false, bounce: Bool = false, atMS: Int) -> EventLine {
        let gap = gapMS.map { String($0 * 1000) } ?? "null"
        return event(#"{"event":"button","button":"\#(button)","device":1,"state":"pressed","bounce":\#(bounce),"double":\#(double),"gap_us":\#(gap),"interval_ms":500,"time_us":\#(atMS * 1000)}"#)
    }

    static func model() -> MonitorModel {
        var m = MonitorModel(socket: "/s")
        m.apply(status: CommandLineTests.status(strokes: 2, points: 40, mode: "pen"))
        return m
    }

    @Test func aPressTooLateAfterASinglePressIsAMissWithItsExcess() {
        var m = Self.model()
        m.apply(Self.press(gapMS: nil, atMS: 1000))
        m.apply(Self.press(gapMS: 577, atMS: 1577))              // after a single press: 77 ms too late
        m.apply(Self.press(gapMS: 460, double: true, atMS: 2037))
        m.apply(Self.press(gapMS: 808, atMS: 2845))              // after the second press of a double: nothing to pair with
        m.apply(Self.press(gapMS: 12_000, atMS: 14_845))         // long after: a single press, not a miss
        m.apply(Self.press(gapMS: 10, bounce: true, atMS: 14_855))
        #expect(m.presses.map(\.kind) == [.single, .missed(late: 77_000), .double(spare: 40_000), .single, .single, .bounce])
        let text = m.lines(width: 80, height: 24).joined(separator: "\n")
        #expect(text.contains("BTN_STYLUS      577 ms  MISSED: 77 ms past 500 ms"), "\(text)")
        #expect(text.contains("BTN_STYLUS      460 ms  double press, 40 ms inside 500 ms"), "\(text)")
    }

    @Test func theScreenFitsEightyByTwentyFourWhateverItHolds() {
        var m = Self.model()
        m.apply(Self.event(#"{"event":"device","change":"added","device":1,"name":"A pen whose name is far too long to fit on one line of an eighty column terminal","kind":"pen","time_us":1}"#))
        m.apply(Self.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":2609905712,"time_us":2}"#))
        for i in 0..<50 { m.apply(Self.press(gapMS: 300, double: i % 2 == 1, atMS: 1000 * i)) }
        let lines = m.lines(width: 80, height: 24)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[2].hasPrefix("Tool       pen, serial 0x9b900030, device 1, in proximity"), "\(lines[2])")
        #expect(lines.last!.contains("double press"), "the newest press is at the bottom")
    }

    @Test func thePressureBarMarksThePrecisionThreshold() {
        #expect(MonitorModel.bar(0.25, threshold: 0.6, width: 20) == "[#####.......|.......]")
        #expect(MonitorModel.bar(1, threshold: 0.6, width: 10) == "[######|###]")
        var m = Self.model()
        m.apply(Self.event(#"{"event":"pen","device":1,"tool":"pen","x":0.5,"y":0.25,"pressure":0.3,"tilt_x":-12,"tilt_y":5.5,"tip":true,"adjusted_x":0.5,"adjusted_y":0.25,"scale":0.65,"time_us":3}"#))
        let text = m.lines(width: 80, height: 24).joined(separator: "\n")
        #expect(text.contains("Tilt       x -12.0°  y +5.5°"))
        #expect(text.contains("Tip        down"))
        #expect(text.contains("scale 0.65"))
    }

    @Test func heldButtonsAndCanvasChangesShow() {
        var m = Self.model()
        m.apply(Self.event(#"{"event":"proximity","device":1,"state":"in","tool":"pen","serial":0,"time_us":2}"#))
        m.apply(Self.press(gapMS: nil, atMS: 5))
        m.apply(Self.event(#"{"event":"canvas","state":"open","source":"pen","cause":"ack","has_content":true,"stroke_count":3,"time_us":6}"#))
        var text = m.lines(width: 80, height: 24).joined(separator: "\n")
        #expect(text.contains("BTN_STYLUS DOWN  BTN_STYLUS2 up"))
        #expect(text.contains("Canvas     open, 3 strokes"))
        m.apply(Self.event(#"{"event":"button","button":"BTN_STYLUS","device":1,"state":"released","bounce":false,"implicit":false,"time_us":7}"#))
        text = m.lines(width: 80, height: 24).joined(separator: "\n")
        #expect(text.contains("BTN_STYLUS up  BTN_STYLUS2 up"))
    }
}
