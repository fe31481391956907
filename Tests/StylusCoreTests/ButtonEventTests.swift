// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("The button event")
struct ButtonEventTests {
    private func buttons(_ h: EngineHarness) -> [ButtonEvent] {
        h.events.compactMap { if case .button(let e) = $0 { e } else { nil } }
    }

    @Test func everyPressAndReleaseIsAnEventWithItsKernelTimeAndGap() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 100)                 // first press: no gap
        h.click(at: 400)                 // 300 ms later: a double press
        h.click(at: 1500)                // 1100 ms later: missed the 500 ms interval by 600 ms
        let events = buttons(h)
        #expect(events.count == 6)
        #expect(events.map(\.pressed) == [true, false, true, false, true, false])
        #expect(events.map(\.time) == [100, 180, 400, 480, 1500, 1580].map { EngineHarness.us(Double($0)) })
        let presses = events.filter(\.pressed)
        #expect(presses.map(\.gap) == [nil, 300_000, 1_100_000])
        #expect(presses.map(\.double) == [false, true, false])
        #expect(presses.allSatisfy { $0.interval == 500_000 && $0.button == .side(.stylus) && $0.device == h.pen })
    }

    @Test func theButtonEventComesBeforeTheDoublePressItCompletes() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.doubleClick(at: 100, gap: 250)
        let names = h.events.compactMap { e -> String? in
            switch e {
            case .button(let b) where b.pressed: "press"
            case .doublePress: "double"
            default: nil
            }
        }
        #expect(names == ["press", "press", "double"])
    }

    @Test func bounceIsReportedAndDoesNotMoveTheGap() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 200)
        h.press(at: 210)                 // 10 ms after the release: bounce
        h.release(at: 215)
        h.press(at: 450)
        let presses = buttons(h).filter(\.pressed)
        #expect(presses.map(\.bounce) == [false, true, false])
        #expect(presses.last?.gap == 350_000, "measured from the last accepted press, not the bounce")
        #expect(presses.last?.double == true)
    }

    @Test func padButtonsAndOtherSideButtonsHaveTheirOwnGaps() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(.stylus, at: 100)
        h.click(.stylus2, at: 300)
        h.send(.button(h.pen, .pad(3), pressed: true), at: 400)
        h.send(.button(h.pen, .pad(3), pressed: false), at: 450)
        let presses = buttons(h).filter(\.pressed)
        #expect(presses.map(\.button) == [.side(.stylus), .side(.stylus2), .pad(3)])
        #expect(presses.map(\.gap) == [nil, nil, nil])
        #expect(presses.map(\.button.description) == ["BTN_STYLUS", "BTN_STYLUS2", "pad-3"], "named as config.toml names them")
    }

    @Test func leavingProximityWithAButtonDownReleasesItImplicitly() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.leave(at: 200)
        let events = buttons(h)
        #expect(events.count == 2)
        #expect(events.last?.pressed == false && events.last?.implicit == true)
    }
}
