// SPDX-License-Identifier: MIT
@testable import StylusCore
import Testing
@testable import StylusProtocol

@Suite("Event JSON")
struct EventJSONTests {
    static func text(_ event: EngineEvent) -> String { String(decoding: event.jsonLine(), as: UTF8.self) }

    @Test func aDoublePressCarriesButtonAndSecondPressTime() {
        let e = EngineEvent.doublePress(DoublePressEvent(device: DeviceID(1), button: .side(.stylus), time: 1_369_413_645_958_613,
                                                         firstPress: 1_369_413_645_468_622, action: .toggleCanvas, outcome: .applied))
        #expect(Self.text(e) == #"{"event":"double-press","button":"BTN_STYLUS","device":1,"time_us":1369413645958613,"first_press_us":1369413645468622,"gap_us":489991,"action":"toggle-canvas","outcome":"applied"}"# + "\n")
    }

    @Test func anIgnoredDoublePressCarriesTheReason() {
        let e = EngineEvent.doublePress(DoublePressEvent(device: DeviceID(1), button: .pad(0), time: 5, firstPress: 1, action: .toggleCanvas,
                                                         outcome: .ignored(reason: "canvas is opening")))
        #expect(Self.text(e).contains(#""button":"pad-0""#))
        #expect(Self.text(e).contains(#""outcome":"ignored","reason":"canvas is opening""#))
    }

    @Test func aCanvasChangeCarriesStateSourceAndContent() {
        let e = EngineEvent.canvas(CanvasEvent(state: .open, source: .pen, cause: .timeout, hasContent: false, strokeCount: 0, time: 9))
        #expect(Self.text(e) == #"{"event":"canvas","state":"open","source":"pen","cause":"timeout","has_content":false,"stroke_count":0,"time_us":9}"# + "\n")
    }

    @Test func deviceNamesAreEscaped() {
        let e = EngineEvent.device(DeviceEvent(change: .added, device: DeviceID(3), info: DeviceInfo(name: "a \"quoted\"\\\n\u{1}", kind: .pen), endedStroke: false, time: 1))
        #expect(Self.text(e).contains(#""name":"a \"quoted\"\\\n\u0001""#))
    }

    @Test func precisionScaleIsRoundedAndNonFiniteBecomesNull() {
        var w = JSONWriter(lineInto: [])
        w.double("a", .infinity)
        #expect(String(decoding: w.finishLine(), as: UTF8.self) == "{\"a\":null}\n")
        let e = EngineEvent.precision(PrecisionEvent(device: nil, enabled: true, active: true, scale: 0.123456, source: .command, time: 2))
        #expect(Self.text(e) == #"{"event":"precision","enabled":true,"active":true,"scale":0.123,"source":"command","time_us":2}"# + "\n")
    }

    @Test func theJSONLineCarriesWhatAClientNeeds() {
        let press = EngineEvent.button(ButtonEvent(device: DeviceID(2), button: .side(.stylus2), pressed: true, double: false, bounce: false,
                                                   implicit: false, gap: 612_000, interval: 500_000, time: 3_000_000))
        #expect(String(decoding: press.jsonLine(), as: UTF8.self)
                == #"{"event":"button","button":"BTN_STYLUS2","device":2,"state":"pressed","bounce":false,"double":false,"gap_us":612000,"interval_ms":500,"time_us":3000000}"# + "\n")
        let first = EngineEvent.button(ButtonEvent(device: DeviceID(2), button: .pad(0), pressed: true, double: false, bounce: false,
                                                   implicit: false, gap: nil, interval: 500_000, time: 1))
        #expect(String(decoding: first.jsonLine(), as: UTF8.self).contains(#""gap_us":null"#))
        let release = EngineEvent.button(ButtonEvent(device: DeviceID(2), button: .pad(0), pressed: false, double: false, bounce: false,
                                                     implicit: true, gap: nil, interval: 500_000, time: 1))
        #expect(String(decoding: release.jsonLine(), as: UTF8.self)
                == #"{"event":"button","button":"pad-0","device":2,"state":"released","bounce":false,"implicit":true,"time_us":1}"# + "\n")
        #expect(press.text == "3.000000 BTN_STYLUS2 pressed (device 2), 612 ms after the last press")
    }
}
