// SPDX-License-Identifier: MIT
import StylusCore
/// What the overlay hears from stylusd, in the overlay's own terms. The link
/// (Sources/stylus-canvas/DaemonLink.swift) is the only code that knows the
/// socket protocol; it turns the daemon's lines into these.
public enum DaemonUpdate: Sendable, Equatable {
    /// Subscribed (again, after a drop, when `again`); the canvas as `status`
    /// has it, whether the daemon captures the pen (filter mode), and its pens' surfaces.
    case connected(canvas: CanvasState, strokeCount: Int, capturesPen: Bool, pens: [PenSurface], style: InkStyle, again: Bool)
    /// A `tool` event: the style the next stroke gets.
    case style(InkStyle)
    /// After `connected` and each `tool` event: whether the canvas shows its
    /// palette, and its colours (nil: the daemon did not say; keep the last).
    case palette(shown: Bool, colors: [InkColor]?)
    /// After `connected` (from `status`) and each `background` event: the board under the ink.
    case background(CanvasBackground)
    /// A pen came or went (a `device` event, then `status`): the pens' surfaces now.
    case pens([PenSurface])
    /// An `output` event: the daemon started or stopped capturing the pen.
    /// While it captures, the pen never reaches the desktop as a pointer, so
    /// the window lets pointer input through (a mouse still works under it).
    case capturesPen(Bool)
    /// The connection dropped; the link is reconnecting.
    case disconnected(reason: String)
    /// A `canvas` event.
    case canvas(CanvasState, cause: String, strokeCount: Int)
    /// A `stroke` event: the daemon recorded stroke `index`.
    case strokeRecorded(index: Int)
    /// One `pen` sample.
    case pen(device: UInt32, tool: InkTool, point: InkPoint, tip: Bool)
    /// A `proximity` event: the tool came in or went out.
    case proximity(device: UInt32, inProximity: Bool)
}

public enum CanvasState: String, Sendable, Equatable {
    case minimized, opening, open, minimizing

    /// Whether the window is (becoming) visible in this state.
    public var shown: Bool { self == .opening || self == .open }
}
