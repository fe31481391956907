// SPDX-License-Identifier: MIT

/// What `OverlayState` asks of the canvas shell, in order: the shell runs
/// each after the state has changed, so a surface that reads it (alpha,
/// `passesPointerInput`) sees the new value.
public enum OverlayEffect: Sendable, Equatable {
    /// Cover the placement's monitors with surfaces, shown (at alpha 0 until the fade paints).
    case present
    /// Take every surface off the screen.
    case hideSurfaces
    /// Feed `.frame` before each frame until `isFading` is false.
    case startTicks
    case stopTicks
    /// Redraw the surfaces (the shell draws only while shown).
    case queueDraw
    /// Tell the daemon its transition has been drawn to its end.
    case sendAck
    /// Apply `passesPointerInput` to every surface now, not at the next frame.
    case updateInputRegion
    /// Feed `.hideTimerFired` after this long.
    case startHideTimer(milliseconds: Int)
    /// The first thing heard is a drop: the canvas started before the daemon.
    case waitingForDaemon(reason: String)
    /// A line for `--verbose`.
    case log(String)
}
