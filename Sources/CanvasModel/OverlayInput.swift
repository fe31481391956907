// SPDX-License-Identifier: MIT

/// What the canvas shell tells `OverlayState`: what the daemon said (only
/// what decides showing, hiding and input; strokes and styles stay with the
/// shell), a timer it asked for, and each frame of a fade.
public enum OverlayInput: Sendable, Equatable {
    /// Subscribed (again); whether the daemon captures the pen then.
    /// The canvas state follows as `.canvas`, once the shell has placed the pens.
    case connected(capturesPen: Bool)
    /// The connection dropped; the link is reconnecting.
    case disconnected(reason: String)
    /// The daemon's canvas state, from `status` or a `canvas` event.
    case canvas(CanvasState)
    /// An `output` event: the daemon started or stopped capturing the pen.
    case capturesPen(Bool)
    /// The timer of `.startHideTimer` ran out.
    case hideTimerFired
    /// A frame is about to be drawn while a fade runs (`now` is the frame
    /// clock's time); `drawnAlphas`: the alpha each surface last painted.
    case frame(drawnAlphas: [Double])
}
