// SPDX-License-Identifier: MIT
import CanvasModel
import Testing

/// An overlay driven with its own clock; `frames` plays a fade as every surface draws what it is told.
private struct Driver {
    var state: OverlayState
    var now: Milliseconds = 1000

    init(fadeMilliseconds: Int = 120, clickThrough: Bool = false) {
        state = OverlayState(fadeMilliseconds: fadeMilliseconds, clickThrough: clickThrough)
    }

    mutating func send(_ input: OverlayInput, at time: Milliseconds? = nil) -> [OverlayEffect] {
        if let time { now = time }
        return state.handle(input, now: now)
    }

    /// Frames every 16 ms, each surface having drawn the previous frame's alpha, until the fade ends.
    mutating func frames(surfaces: Int = 1, limit: Int = 100) -> [OverlayEffect] {
        var all: [OverlayEffect] = []
        var drawn = Array(repeating: state.alpha, count: surfaces)
        for _ in 0..<limit where state.isFading {
            all += send(.frame(drawnAlphas: drawn))
            drawn = Array(repeating: state.alpha, count: surfaces)
            now += 16
        }
        return all
    }

    /// Connected with the canvas open and faded in.
    mutating func openAndShown(capturesPen: Bool = false) {
        _ = send(.connected(capturesPen: capturesPen))
        _ = send(.canvas(.open))
        _ = frames()
    }
}

private func logs(_ effects: [OverlayEffect]) -> [String] {
    effects.compactMap { if case .log(let line) = $0 { line } else { nil } }
}

@Test func theDeadDaemonDelayIsTheProjects() {
    #expect(OverlayState.deadDaemonHideMilliseconds == 1500)
}

@Test func openingShowsFadesInAndAcksOnceDrawn() {
    var d = Driver()
    #expect(d.send(.connected(capturesPen: false)).isEmpty)
    #expect(d.send(.canvas(.opening)) == [.present, .startTicks, .queueDraw])
    #expect(d.state.shown && d.state.alpha == 0 && d.state.fade == .inward)
    // The first frame starts the clock: nothing has faded yet.
    #expect(d.send(.frame(drawnAlphas: [0])) == [.queueDraw])
    #expect(d.state.alpha == 0)
    #expect(d.send(.frame(drawnAlphas: [0]), at: 1060) == [.queueDraw])
    #expect(d.state.alpha == 0.5)
    #expect(d.send(.frame(drawnAlphas: [0.5]), at: 1200) == [.queueDraw])
    #expect(d.state.alpha == 1 && d.state.isFading)
    // Acked only once the surface painted the end, not when the alpha reached it.
    #expect(d.send(.frame(drawnAlphas: [1]), at: 1216) == [.log("shown"), .sendAck])
    #expect(!d.state.isFading && d.state.shown)
}

@Test func openShowsWithoutAck() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    #expect(d.send(.canvas(.open)) == [.present, .startTicks, .queueDraw])
    let effects = d.frames()
    #expect(!effects.contains(.sendAck))
    #expect(logs(effects) == ["shown"])
}

@Test func openingWhenAlreadyShownAcksAtOnce() {
    var d = Driver()
    d.openAndShown()
    #expect(d.send(.canvas(.opening)) == [.sendAck])
    #expect(d.send(.canvas(.open)).isEmpty)
}

@Test func minimizingFadesOutHidesAndAcks() {
    var d = Driver()
    d.openAndShown()
    #expect(d.send(.canvas(.minimizing)) == [.startTicks, .queueDraw])
    #expect(d.state.fade == .outward && d.state.shown)
    let effects = d.frames()
    #expect(effects.suffix(3) == [.hideSurfaces, .log("hidden"), .sendAck])
    #expect(!d.state.shown && d.state.alpha == 0)
    #expect(d.send(.canvas(.minimized)).isEmpty)
}

@Test func minimizingWhileHiddenAcksAtOnce() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    #expect(d.send(.canvas(.minimizing)) == [.sendAck])
    #expect(!d.state.shown)
}

@Test func minimizedCutsARunningFade() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: [0]))
    #expect(d.send(.canvas(.minimized), at: 1050) == [.stopTicks, .hideSurfaces, .log("hidden")])
    #expect(!d.state.shown && !d.state.isFading && d.state.alpha == 0)
    // The ack the opening waited for is not sent by a later frame.
    #expect(d.send(.frame(drawnAlphas: [0])).isEmpty)
}

@Test func aReversedFadeStartsFromWhereItWas() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: [0]), at: 1000)
    _ = d.send(.frame(drawnAlphas: [0]), at: 1060)
    #expect(d.state.alpha == 0.5)
    // Minimizing mid-fade: fades out from 0.5, no second present, and only the minimize is acked.
    #expect(d.send(.canvas(.minimizing)) == [.startTicks, .queueDraw])
    _ = d.send(.frame(drawnAlphas: [0.5]), at: 2000)
    _ = d.send(.frame(drawnAlphas: [0.5]), at: 2060)
    #expect(d.state.alpha == 0.25)
    let rest = d.frames()
    #expect(rest.filter { $0 == .sendAck }.count == 1)
    #expect(!rest.contains(.present) && !d.state.shown)
}

@Test func reopeningDuringTheFadeOutFadesBackIn() {
    var d = Driver()
    d.openAndShown()
    _ = d.send(.canvas(.minimizing))
    _ = d.send(.frame(drawnAlphas: [1]), at: 2000)
    _ = d.send(.frame(drawnAlphas: [1]), at: 2060)
    #expect(d.state.alpha == 0.5)
    // Still shown: no present, the fade turns round from 0.5 and the opening is acked at its end.
    #expect(d.send(.canvas(.opening)) == [.startTicks, .queueDraw])
    let effects = d.frames()
    #expect(!effects.contains(.hideSurfaces))
    #expect(effects.suffix(2) == [.log("shown"), .sendAck])
    #expect(d.state.alpha == 1)
}

@Test func aFadeEndsWhenEverySurfaceDrewIt() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: [0, 0]), at: 1000)
    _ = d.send(.frame(drawnAlphas: [0, 0]), at: 1130)
    // In: the least drawn surface decides.
    #expect(d.send(.frame(drawnAlphas: [1, 0.9]), at: 1150) == [.queueDraw])
    #expect(d.send(.frame(drawnAlphas: [1, 1]), at: 1166).contains(.sendAck))
    _ = d.send(.canvas(.minimizing))
    _ = d.send(.frame(drawnAlphas: [1, 1]), at: 2000)
    _ = d.send(.frame(drawnAlphas: [0, 0]), at: 2130)
    // Out: the most drawn surface decides.
    #expect(d.send(.frame(drawnAlphas: [0, 0.1]), at: 2150) == [.queueDraw])
    #expect(d.send(.frame(drawnAlphas: [0, 0]), at: 2166).contains(.sendAck))
}

@Test func aSurfaceThatNeverPaintsHoldsTheFadeOnlyForItsGrace() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: [1, 0]), at: 1000)
    _ = d.send(.frame(drawnAlphas: [1, 0]), at: 1120)
    #expect(d.state.alpha == 1)
    // 120 ms of fade and 100 of grace: waits until then for the blank monitor.
    #expect(d.send(.frame(drawnAlphas: [1, 0]), at: 1220) == [.queueDraw])
    #expect(d.send(.frame(drawnAlphas: [1, 0]), at: 1221) == [.log("shown"), .sendAck])
    _ = d.send(.canvas(.minimizing))
    _ = d.send(.frame(drawnAlphas: [1, 1]), at: 2000)
    _ = d.send(.frame(drawnAlphas: [0, 1]), at: 2120)
    #expect(d.state.alpha == 0)
    #expect(d.send(.frame(drawnAlphas: [0, 1]), at: 2221) == [.hideSurfaces, .log("hidden"), .sendAck])
}

@Test func noSurfaceEndsAFadeIn() {
    // With no monitor to present on, no surface draws: the overdue fade still ends and acks.
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: []), at: 1000)
    _ = d.send(.frame(drawnAlphas: []), at: 1120)
    #expect(d.send(.frame(drawnAlphas: []), at: 1221) == [.log("shown"), .sendAck])
}

@Test func aZeroFadeEndsOnTheSecondFrame() {
    var d = Driver(fadeMilliseconds: 0)
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.opening))
    _ = d.send(.frame(drawnAlphas: [0]), at: 1000)
    _ = d.send(.frame(drawnAlphas: [0]), at: 1001)
    #expect(d.state.alpha == 1)
    #expect(d.send(.frame(drawnAlphas: [1]), at: 1017) == [.log("shown"), .sendAck])
}

@Test func aDeadDaemonHidesTheShownCanvasAfterTheDelay() {
    var d = Driver()
    d.openAndShown()
    let dropped = d.now
    #expect(d.send(.disconnected(reason: "connection reset")) == [
        .log("disconnected: connection reset"), .startHideTimer(milliseconds: 1500),
    ])
    #expect(d.state.shown && !d.state.connected)
    // A timer that fires early does nothing.
    #expect(d.send(.hideTimerFired, at: dropped + 1499).isEmpty)
    #expect(d.send(.hideTimerFired, at: dropped + 1500) == [
        .log("stylusd gone for 1.5 s: hiding"), .stopTicks, .hideSurfaces, .log("hidden"),
    ])
    #expect(!d.state.shown && d.state.alpha == 0)
    // Once only.
    #expect(d.send(.hideTimerFired, at: dropped + 3000).isEmpty)
}

@Test func aDeadDaemonLeavesAHiddenCanvasHidden() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    _ = d.send(.canvas(.minimized))
    _ = d.send(.disconnected(reason: "gone"), at: 5000)
    #expect(d.send(.hideTimerFired, at: 6500).isEmpty)
    #expect(!d.state.shown)
}

@Test func aReconnectionWithinTheDelayKeepsTheCanvas() {
    var d = Driver()
    d.openAndShown()
    _ = d.send(.disconnected(reason: "restart"), at: 5000)
    #expect(d.send(.connected(capturesPen: false), at: 5200).isEmpty)
    #expect(d.send(.canvas(.open)).isEmpty)
    #expect(d.send(.hideTimerFired, at: 6500).isEmpty)
    #expect(d.state.shown && d.state.connected && d.state.alpha == 1)
}

@Test func aSecondDropRestartsTheDelay() {
    var d = Driver()
    d.openAndShown()
    _ = d.send(.disconnected(reason: "restart"), at: 5000)
    _ = d.send(.connected(capturesPen: false), at: 5200)
    _ = d.send(.canvas(.open))
    _ = d.send(.disconnected(reason: "killed"), at: 6000)
    // The first drop's timer: the daemon has been gone for 500 ms only.
    #expect(d.send(.hideTimerFired, at: 6500).isEmpty)
    #expect(d.state.shown)
    #expect(logs(d.send(.hideTimerFired, at: 7500)) == ["stylusd gone for 1.5 s: hiding", "hidden"])
}

@Test func aReconnectionWithTheCanvasMinimizedHidesIt() {
    // The daemon restarted without its state: the canvas follows the new one at once.
    var d = Driver()
    d.openAndShown()
    _ = d.send(.disconnected(reason: "restart"), at: 5000)
    _ = d.send(.connected(capturesPen: false), at: 5100)
    #expect(d.send(.canvas(.minimized)) == [.stopTicks, .hideSurfaces, .log("hidden")])
}

@Test func aDropBeforeAnyConnectionSaysTheCanvasWaits() {
    var d = Driver()
    #expect(d.send(.disconnected(reason: "no socket")) == [
        .waitingForDaemon(reason: "no socket"), .log("disconnected: no socket"), .startHideTimer(milliseconds: 1500),
    ])
    // Said once: later drops only log.
    #expect(!d.send(.disconnected(reason: "no socket")).contains(.waitingForDaemon(reason: "no socket")))
    _ = d.send(.connected(capturesPen: false))
    #expect(!d.send(.disconnected(reason: "gone")).contains(.waitingForDaemon(reason: "gone")))
}

@Test func aDaemonThatDiesHoldingThePenLeavesTheCanvasTakingClicks() {
    var d = Driver()
    d.openAndShown(capturesPen: true)
    #expect(d.state.passesPointerInput)
    let effects = d.send(.disconnected(reason: "reset"))
    #expect(effects == [
        .log("disconnected: reset"), .updateInputRegion, .log("takes pointer input"), .startHideTimer(milliseconds: 1500),
    ])
    #expect(!d.state.passesPointerInput)
}

@Test func clickThroughPassesPointerInputWhateverTheDaemonSays() {
    var d = Driver(clickThrough: true)
    d.openAndShown(capturesPen: true)
    // The region is applied again, but the canvas never takes pointer input.
    #expect(d.send(.disconnected(reason: "reset")).contains(.updateInputRegion))
    #expect(d.state.passesPointerInput)
    #expect(!logs(d.send(.capturesPen(false))).contains("takes pointer input"))
}

@Test func capturingThePenChangesTheInputRegionOnlyWhileShown() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    #expect(d.send(.capturesPen(true)) == [.log("the daemon captures the pen")])
    #expect(d.state.passesPointerInput)
    #expect(d.send(.capturesPen(true)).isEmpty)
    _ = d.send(.canvas(.open))
    _ = d.frames()
    #expect(d.send(.capturesPen(false)) == [
        .log("the daemon no longer captures the pen: the canvas takes pointer input"),
        .updateInputRegion, .log("takes pointer input"),
    ])
    #expect(d.send(.capturesPen(true)) == [.log("the daemon captures the pen"), .updateInputRegion])
}

@Test func aConnectionSaysWhetherTheDaemonCapturesThePen() {
    var d = Driver()
    d.openAndShown()
    #expect(d.send(.connected(capturesPen: true)) == [.updateInputRegion])
    #expect(d.state.daemonCapturesPen)
}

@Test func framesWithoutAFadeDoNothing() {
    var d = Driver()
    d.openAndShown()
    #expect(d.send(.frame(drawnAlphas: [1])).isEmpty)
    #expect(!d.state.isFading)
}

@Test func theStateFollowsTheDaemon() {
    var d = Driver()
    _ = d.send(.connected(capturesPen: false))
    for state in [CanvasState.opening, .open, .minimizing, .minimized] {
        _ = d.send(.canvas(state))
        #expect(d.state.canvas == state)
    }
}
