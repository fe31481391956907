// SPDX-License-Identifier: MIT
public enum CanvasState: String, Sendable, CaseIterable {
    case minimized, opening, open, minimizing

    public var isTransition: Bool { self == .opening || self == .minimizing }
}

/// What started a canvas change.
public enum ChangeSource: String, Sendable {
    case pen, pad, command
}

/// One recorded sample of a stroke. Stored in single precision: 32 bytes a
/// point, and exactly the same bits come back after any number of
/// minimize/open cycles because nothing but `clear` ever touches them.
public struct StrokePoint: Equatable, Sendable {
    public var x: Float
    public var y: Float
    public var pressure: Float
    public var tiltX: Float
    public var tiltY: Float
    public var time: Microseconds

    public init(x: Float, y: Float, pressure: Float, tiltX: Float, tiltY: Float, time: Microseconds) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.time = time
    }

    init(_ axes: PenAxes, time: Microseconds) {
        self.init(x: Float(axes.x), y: Float(axes.y), pressure: Float(axes.pressure),
                  tiltX: Float(axes.tiltX), tiltY: Float(axes.tiltY), time: time)
    }
}

public struct Stroke: Equatable, Sendable {
    public var device: DeviceID
    public var tool: ToolType
    public var points: [StrokePoint]

    public init(device: DeviceID, tool: ToolType, points: [StrokePoint]) {
        self.device = device
        self.tool = tool
        self.points = points
    }
}

/// The overlay's state and drawing. Mutated only by `Engine`.
public struct Canvas: Equatable, Sendable {
    public internal(set) var state: CanvasState = .minimized
    public internal(set) var strokes: [Stroke] = []
    public internal(set) var pointCount = 0
    /// Set when a limit stopped recording; cleared by `clear`.
    public internal(set) var isFull = false

    struct Transition: Equatable {
        var source: ChangeSource
        var deadline: Microseconds
    }
    var transition: Transition?

    public init() {}

    public init(state: CanvasState, strokes: [Stroke]) {
        // A restored canvas never resumes mid-transition: it lands where the
        // transition was heading.
        switch state {
        case .opening, .open: self.state = .open
        case .minimizing, .minimized: self.state = .minimized
        }
        self.strokes = strokes
        self.pointCount = strokes.reduce(0) { $0 + $1.points.count }
    }

    public var hasContent: Bool { !strokes.isEmpty }
}
