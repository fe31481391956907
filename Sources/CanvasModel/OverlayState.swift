// SPDX-License-Identifier: MIT

/// A monotonic time or a span of it, in milliseconds (fractions from a frame clock's microseconds).
public typealias Milliseconds = Double

/// When the canvas shows, fades and hides, and when it acks: the daemon
/// decides the state, the canvas follows it with a fade and acks the end of
/// a transition once it is drawn; a daemon gone for
/// `deadDaemonHideMilliseconds` hides it. No clock and no GTK: time comes in
/// with each input, and what to do comes out as effects that the shell
/// (stylus-canvas's CanvasOverlay) runs.
public struct OverlayState: Sendable {
    /// How long the daemon may stay unreachable before a shown canvas hides:
    /// a dead daemon must not leave a window over the desktop, and a restart
    /// (reconnected within 100-200 ms) must not flash it. The GNOME extension
    /// waits as long; with the fade the canvas is off the screen within 2 s.
    public static let deadDaemonHideMilliseconds = CanvasSpec.deadDaemonHideMilliseconds

    /// How long past its end a fade waits for every surface to have drawn it:
    /// a surface whose monitor never paints (blanked, or held back by the
    /// compositor) must not keep the fade, and the daemon's transition, waiting.
    public static let fadeGraceMilliseconds: Milliseconds = 100

    public enum Fade: Sendable, Equatable { case none, inward, outward }

    public let fadeMilliseconds: Int
    /// An empty input region whatever the daemon's output (`--click-through`).
    public let clickThrough: Bool

    /// The daemon's canvas state as last heard.
    public private(set) var canvas = CanvasState.minimized
    public private(set) var connected = false
    /// Whether the surfaces are on the screen (fading counts).
    public private(set) var shown = false
    /// The daemon captures the pen (status output.captures_pen): the canvas needs no pointer input.
    public private(set) var daemonCapturesPen = false
    public private(set) var fade = Fade.none
    /// The alpha the surfaces draw with now.
    public private(set) var alpha = 0.0

    /// Nothing heard from the daemon yet, not even a drop.
    private var heardFromDaemon = false
    /// When a drop with no reconnection since hides the canvas; a later drop moves it.
    private var hideDeadline: Milliseconds?
    /// Set by the fade's first frame, so that it starts with what is drawn.
    private var fadeStart: Milliseconds?
    private var fadeFrom = 0.0
    /// Send `ack` when the running fade has been drawn to its end.
    private var ackWhenDone = false

    public init(fadeMilliseconds: Int = 120, clickThrough: Bool = false) {
        self.fadeMilliseconds = fadeMilliseconds
        self.clickThrough = clickThrough
    }

    /// Pointer input goes to the windows underneath: asked for, or the pen is captured.
    public var passesPointerInput: Bool { clickThrough || daemonCapturesPen }

    public var isFading: Bool { fade != .none }

    public mutating func handle(_ input: OverlayInput, now: Milliseconds) -> [OverlayEffect] {
        var effects: [OverlayEffect] = []
        switch input {
        case .connected(let capturesPen):
            heardFromDaemon = true
            connected = true
            hideDeadline = nil
            setDaemonCapturesPen(capturesPen, &effects)
        case .disconnected(let reason):
            if !heardFromDaemon { effects.append(.waitingForDaemon(reason: reason)) }
            heardFromDaemon = true
            connected = false
            effects.append(.log("disconnected: \(reason)"))
            // A daemon that stopped gave the pen back to the desktop: until the
            // canvas hides, it must take the pen's clicks itself.
            setDaemonCapturesPen(false, &effects)
            hideDeadline = now + Milliseconds(Self.deadDaemonHideMilliseconds)
            effects.append(.startHideTimer(milliseconds: Self.deadDaemonHideMilliseconds))
        case .canvas(let state):
            follow(state, &effects)
        case .capturesPen(let captures):
            if captures != daemonCapturesPen {
                effects.append(.log(captures ? "the daemon captures the pen" : "the daemon no longer captures the pen: the canvas takes pointer input"))
            }
            setDaemonCapturesPen(captures, &effects)
        case .hideTimerFired:
            // A timer of an earlier drop finds the deadline moved by a later one, or gone with a reconnection.
            guard let deadline = hideDeadline, now >= deadline else { break }
            hideDeadline = nil
            guard !connected, shown else { break }
            effects.append(.log("stylusd gone for \(Self.describe(Self.deadDaemonHideMilliseconds)): hiding"))
            hideNow(&effects)
        case .frame(let drawnAlphas):
            frame(now: now, drawnAlphas: drawnAlphas, &effects)
        }
        return effects
    }

    /// 1.5 s, 2 s: as the log says a span.
    static func describe(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    private mutating func follow(_ state: CanvasState, _ effects: inout [OverlayEffect]) {
        canvas = state
        switch state {
        case .opening: show(ack: true, &effects)
        case .open: show(ack: false, &effects)
        case .minimizing: hide(ack: true, &effects)
        case .minimized: if shown { hideNow(&effects) }
        }
    }

    private mutating func setDaemonCapturesPen(_ captures: Bool, _ effects: inout [OverlayEffect]) {
        guard captures != daemonCapturesPen else { return }
        daemonCapturesPen = captures
        guard shown else { return }
        effects.append(.updateInputRegion)
        if !passesPointerInput { effects.append(.log("takes pointer input")) }
    }

    // MARK: Showing and hiding

    private mutating func show(ack: Bool, _ effects: inout [OverlayEffect]) {
        if shown, fade == .none, alpha >= 1 {
            if ack { effects.append(.sendAck) }
            return
        }
        ackWhenDone = ack
        if !shown {
            shown = true
            alpha = 0
            effects.append(.present)
        }
        startFade(.inward, &effects)
    }

    private mutating func hide(ack: Bool, _ effects: inout [OverlayEffect]) {
        guard shown else {
            if ack { effects.append(.sendAck) }
            return
        }
        ackWhenDone = ack
        startFade(.outward, &effects)
    }

    private mutating func hideNow(_ effects: inout [OverlayEffect]) {
        effects.append(.stopTicks)
        fade = .none
        shown = false
        alpha = 0
        effects.append(.hideSurfaces)
        effects.append(.log("hidden"))
    }

    // MARK: The fade

    private mutating func startFade(_ direction: Fade, _ effects: inout [OverlayEffect]) {
        fade = direction
        fadeFrom = alpha
        fadeStart = nil
        effects.append(.startTicks)
        effects.append(.queueDraw)
    }

    /// The fade's end is drawn when every surface painted it.
    private func drawnAlpha(_ drawn: [Double]) -> Double {
        (fade == .outward ? drawn.max() : drawn.min()) ?? 0
    }

    private mutating func frame(now: Milliseconds, drawnAlphas: [Double], _ effects: inout [OverlayEffect]) {
        guard fade != .none else { return }
        let start = fadeStart ?? now
        fadeStart = start
        let duration = Milliseconds(max(fadeMilliseconds, 1))
        let elapsed = now - start
        let progress = min(1, elapsed / duration)
        let overdue = elapsed > duration + Self.fadeGraceMilliseconds
        let drawn = drawnAlpha(drawnAlphas)
        switch fade {
        case .inward:
            if drawn >= 1 || (overdue && alpha >= 1) { return finishFade(&effects) }
            alpha = fadeFrom + (1 - fadeFrom) * progress
        case .outward:
            if drawn <= 0 || overdue, alpha <= 0 { return finishFade(&effects) }
            alpha = fadeFrom * (1 - progress)
        case .none:
            return
        }
        effects.append(.queueDraw)
    }

    private mutating func finishFade(_ effects: inout [OverlayEffect]) {
        let direction = fade
        fade = .none
        if direction == .outward {
            shown = false
            effects.append(.hideSurfaces)
            effects.append(.log("hidden"))
        } else {
            effects.append(.log("shown"))
        }
        if ackWhenDone {
            ackWhenDone = false
            effects.append(.sendAck)
        }
    }
}
