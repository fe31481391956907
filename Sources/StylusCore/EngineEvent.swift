// SPDX-License-Identifier: MIT
/// What the engine tells the world. Each case is one published JSON object
/// (`jsonLine`, in StylusProtocol), the same on the socket and in `stylusd replay --json`.
public enum EngineEvent: Equatable, Sendable {
    case device(DeviceEvent)
    case proximity(ProximityEvent)
    case doublePress(DoublePressEvent)
    case canvas(CanvasEvent)
    case stroke(StrokeEvent)
    case canvasFull(CanvasFullEvent)
    case precision(PrecisionEvent)
    case button(ButtonEvent)
    case tool(ToolEvent)
    case background(BackgroundEvent)

    public var time: Microseconds {
        switch self {
        case .device(let e): e.time
        case .proximity(let e): e.time
        case .doublePress(let e): e.time
        case .canvas(let e): e.time
        case .stroke(let e): e.time
        case .canvasFull(let e): e.time
        case .precision(let e): e.time
        case .button(let e): e.time
        case .tool(let e): e.time
        case .background(let e): e.time
        }
    }
}

public struct DeviceEvent: Equatable, Sendable {
    public enum Change: String, Sendable { case added, removed }
    public var change: Change
    public var device: DeviceID
    public var info: DeviceInfo
    /// On removal: a stroke was in progress and has been ended.
    public var endedStroke: Bool
    public var time: Microseconds
}

public struct ProximityEvent: Equatable, Sendable {
    public var device: DeviceID
    public var inProximity: Bool
    public var tool: Tool
    public var time: Microseconds
}

public struct DoublePressEvent: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        case applied
        case ignored(reason: String)
    }
    public var device: DeviceID
    public var button: ButtonID
    /// The second press, which is when the double press fires.
    public var time: Microseconds
    public var firstPress: Microseconds
    public var action: Action
    public var outcome: Outcome
}

/// One press or release of a side or pad button, as the double-press rule
/// saw it: raw material for clients that show or tune the rule.
public struct ButtonEvent: Equatable, Sendable {
    public var device: DeviceID
    public var button: ButtonID
    public var pressed: Bool
    /// A press that completed a double press (its event follows this one).
    public var double: Bool
    /// Contact bounce: the rule ignored this press, or the release of one.
    public var bounce: Bool
    /// A release the engine made because the pen left proximity.
    public var implicit: Bool
    /// A press: the time since this button's previous accepted press on
    /// this device, nil for its first; measured before `double` is decided,
    /// so a press that missed the interval shows by how much.
    public var gap: Microseconds?
    /// The double-press interval in force at this press.
    public var interval: Microseconds
    public var time: Microseconds
}

public struct CanvasEvent: Equatable, Sendable {
    public enum Cause: String, Sendable {
        /// A toggle, open or minimize started a transition.
        case request
        /// The transition ended because `transition_ms` passed.
        case timeout
        /// The transition ended because a client acknowledged it.
        case ack
        case clear
        /// `undo` took back the last stroke or clear; the state is unchanged.
        case undo
        /// `redo` took again what undo took back; the state is unchanged.
        case redo
        /// An eraser stroke (`[canvas] eraser = "stroke"`) removed the strokes it touched.
        case erase
        /// `submit` wrote the drawing to `path`; a clear and a minimize follow.
        case submit
        /// `discard` threw the drawing away; a clear and a minimize follow.
        case discard
    }
    public var state: CanvasState
    public var source: ChangeSource
    public var cause: Cause
    public var hasContent: Bool
    public var strokeCount: Int
    public var time: Microseconds
    /// How the drawing ended, on the events where it ends: a submit's or a
    /// discard's own event, and both events of the minimize that follows
    /// (a plain minimize's say `minimized`). Nil elsewhere.
    public var result: DrawingResult? = nil
    /// Where `submit` wrote the drawing (a PNG); nil on every other event.
    public var path: String? = nil
    /// An inline `submit`'s PNG as base64, instead of `path`.
    public var pngBase64: String? = nil
}

/// How a drawing ended, as the seed's canvas named it.
public enum DrawingResult: String, Sendable, CaseIterable {
    /// Kept: written as a picture (`submit`), then cleared and minimized.
    case submitted
    /// Put away with its strokes (`minimize`, `toggle`).
    case minimized
    /// Thrown away (`discard`): cleared, undoable until the next stroke.
    case cancelled
}

public struct StrokeEvent: Equatable, Sendable {
    public var device: DeviceID
    public var index: Int
    public var points: Int
    public var time: Microseconds
    /// The name of the pen tool that drew it (`Stroke.pen`); nil for a stroke from no pen tool.
    public var pen: String? = nil
}

public struct CanvasFullEvent: Equatable, Sendable {
    public enum Limit: String, Sendable {
        case points = "max_points"
        case strokes = "max_strokes"
    }
    public var limit: Limit
    public var strokeCount: Int
    public var pointCount: Int
    public var time: Microseconds
}

public struct PrecisionEvent: Equatable, Sendable {
    /// nil when the change is global (enable/disable), not one pen's.
    public var device: DeviceID?
    public var enabled: Bool
    public var active: Bool
    public var scale: Double
    public var source: ChangeSource?
    public var time: Microseconds
}

/// One pen sample as clients of the `pen` topic see it, with the
/// precision-adjusted position.
public struct PenSample: Equatable, Sendable {
    public var device: DeviceID
    public var tool: ToolType
    public var axes: PenAxes
    public var tipDown: Bool
    public var adjustedX: Double
    public var adjustedY: Double
    public var scale: Double
    public var time: Microseconds
    /// The name of the pen tool in proximity; nil before one was seen on this device.
    public var pen: String? = nil
}

/// The engine's output for one input. The caller owns it and reuses it, so
/// that handling a pen sample allocates nothing once the buffers have grown.
public struct Effects: Sendable {
    public var events: [EngineEvent] = []
    public var samples: [PenSample] = []
    /// Canvas, strokes or the precision setting changed: persist the state.
    public var stateChanged = false
    /// For the output stage, always filled (unlike `samples`): a frame per
    /// pen position input, a decision per button event, canvas changes.
    public var output: [OutputEffect] = []
    /// Double presses whose action the shell performs (preset, exec, key, click).
    public var actionRequests: [ActionRequest] = []

    public init() {
        events.reserveCapacity(8)
        samples.reserveCapacity(4)
        output.reserveCapacity(16)
    }

    /// Called once per pen event: an array that is already empty is left
    /// alone (clearing one still costs a uniqueness check and a call).
    public mutating func removeAll() {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if !samples.isEmpty { samples.removeAll(keepingCapacity: true) }
        if !output.isEmpty { output.removeAll(keepingCapacity: true) }
        if !actionRequests.isEmpty { actionRequests.removeAll(keepingCapacity: true) }
        stateChanged = false
    }
}
