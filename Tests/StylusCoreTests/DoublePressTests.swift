// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Double press rule")
struct DoublePressTests {
    @Test func twoPressesWithinTheIntervalFireOnceOnTheSecondPress() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 180)
        #expect(h.doublePresses.isEmpty)
        h.press(at: 500)
        #expect(h.doublePresses.count == 1, "fires on the second press, before its release")
        let fired = h.doublePresses[0]
        #expect(fired.button == .side(.stylus))
        #expect(fired.time == EngineHarness.us(500))
        #expect(fired.firstPress == EngineHarness.us(100))
        h.release(at: 580)
        #expect(h.doublePresses.count == 1, "the release adds nothing")
    }

    @Test func aSecondPressExactlyOneIntervalLaterStillCounts() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 100)
        h.press(at: 600)
        #expect(h.doublePresses.count == 1)
    }

    @Test func aSecondPressOneMicrosecondPastTheIntervalBecomesTheNewFirstPress() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 100)
        h.click(at: 600.001)
        #expect(h.doublePresses.isEmpty)
        h.press(at: 900)
        #expect(h.doublePresses.count == 1, "the late press was pending: 300 ms later is a double press")
        #expect(h.doublePresses[0].firstPress == EngineHarness.us(600.001))
    }

    @Test func theIntervalIsConfigurable() {
        var config = EngineConfig()
        config.doublePressIntervalMS = 800
        var h = EngineHarness(config: config)
        h.enter(at: 0)
        h.doubleClick(at: 100, gap: 750)
        #expect(h.doublePresses.count == 1)

        var strict = EngineHarness()
        strict.enter(at: 0)
        strict.doubleClick(at: 100, gap: 750)
        #expect(strict.doublePresses.isEmpty)
    }

    @Test func aPressWithinTheDebounceTimeAfterAReleaseIsBounceAndIgnored() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 200)
        h.press(at: 210)    // 10 ms after the release: bounce
        #expect(h.doublePresses.isEmpty, "bounce is not a second press")
        h.release(at: 215)
        h.press(at: 400)
        #expect(h.doublePresses.count == 1, "the real second press still pairs with the first")
        #expect(h.doublePresses[0].firstPress == EngineHarness.us(100))
    }

    @Test func aBouncedPresssReleaseDoesNotRestartTheDebounceWindow() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 200)
        h.press(at: 205)
        h.release(at: 210)
        h.press(at: 226)   // 26 ms after the real release, 16 ms after the bounce's
        #expect(h.doublePresses.count == 1)
    }

    @Test func aPressExactlyTheDebounceTimeAfterAReleaseCounts() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.release(at: 200)
        h.press(at: 225)
        #expect(h.doublePresses.count == 1)
    }

    @Test func bounceIsNeverAFirstPressEither() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 0, hold: 50)
        h.advance(to: 700)            // the first click expired
        h.press(at: 700); h.release(at: 760)
        h.press(at: 770); h.release(at: 775)   // bounce
        // 550 ms after the real press, 480 ms after the bounce.
        h.press(at: 1250)
        #expect(h.doublePresses.isEmpty, "the bounce at 770 did not become a pending press")
    }

    @Test func aThirdPressStartsANewPairRatherThanFiringAgain() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 100)
        h.click(at: 300)
        h.click(at: 500)
        #expect(h.doublePresses.count == 1)
        h.click(at: 700)
        #expect(h.doublePresses.count == 2)
    }

    @Test func leavingProximityClearsThePendingPress() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(at: 100)
        h.leave(at: 200)
        h.enter(at: 250)
        h.click(at: 300)
        #expect(h.doublePresses.isEmpty)
    }

    @Test func aDifferentToolComingInClearsThePendingPress() {
        var h = EngineHarness()
        h.enter(.pen, serial: 7, at: 0)
        h.click(at: 100)
        h.enter(.eraser, serial: 9, at: 200)
        h.click(at: 300)
        #expect(h.doublePresses.isEmpty)
    }

    @Test func leavingProximityReleasesAHeldButton() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.press(at: 100)
        h.leave(at: 150)           // the kernel sends no release here
        h.enter(at: 300)
        h.press(at: 320)
        h.release(at: 380)
        h.press(at: 500)
        #expect(h.doublePresses.count == 1, "the held button did not stay stuck down")
    }

    @Test func buttonsAreTrackedIndependently() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.click(.stylus, at: 100)
        h.click(.stylus2, at: 250)
        h.click(.stylus, at: 400)
        #expect(h.doublePresses.map(\.button) == [.side(.stylus)])
        h.click(.stylus2, at: 600)
        #expect(h.doublePresses.map(\.button) == [.side(.stylus), .side(.stylus2)])
    }

    @Test func devicesAreTrackedIndependently() {
        var h = EngineHarness()
        let other = DeviceID(2)
        h.send(.deviceAdded(other, DeviceInfo(name: "second pen", kind: .pen)), at: 0)
        h.enter(at: 0)
        h.send(.proximityIn(other, Tool(type: .pen), PenAxes()), at: 0)
        h.click(at: 100)
        h.send(.button(other, .side(.stylus), pressed: true), at: 200)
        h.send(.button(other, .side(.stylus), pressed: false), at: 260)
        #expect(h.doublePresses.isEmpty)
    }

    @Test func theDefaultBindingsToggleCanvasAndPrecision() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.doubleClick(.stylus, at: 100)
        #expect(h.doublePresses.last?.action == .toggleCanvas)
        #expect(h.canvasEvents.first?.state == .opening)
        h.doubleClick(.stylus2, at: 1000)
        #expect(h.doublePresses.last?.action == .togglePrecision)
        #expect(h.engine.precisionEnabled)
    }

    @Test func anUnboundButtonsDoublePressIsReportedAsIgnored() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.doubleClick(.stylus3, at: 100)
        #expect(h.doublePresses.count == 1)
        #expect(h.doublePresses[0].outcome == .ignored(reason: "no action is bound to BTN_STYLUS3"))
        #expect(h.canvasEvents.isEmpty)
    }

    @Test func padButtonsAreBindableAndReportThePadAsSource() {
        var config = EngineConfig()
        config.bind(.pad(2), to: .toggleCanvas)
        var h = EngineHarness(config: config)
        let pad = DeviceID(5)
        h.send(.deviceAdded(pad, DeviceInfo(name: "pad", kind: .pad)), at: 0)
        for t in [100.0, 400.0] {
            h.send(.button(pad, .pad(2), pressed: true), at: t)
            h.send(.button(pad, .pad(2), pressed: false), at: t + 90)
        }
        #expect(h.doublePresses.map(\.button) == [.pad(2)])
        #expect(h.canvasEvents.first?.source == .pad)
    }
}
