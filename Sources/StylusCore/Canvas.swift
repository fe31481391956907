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
    /// How it is drawn: the style current when its tip went down (the eraser
    /// when the pen's eraser end drew it).
    public var style: StrokeStyle
    public var points: [StrokePoint]
    /// The name of the pen tool that drew it; nil for a stroke from no pen (or from before tools had names).
    public var pen: String?
    /// A text stroke's words (`style.tool` is `text`; its one point is the anchor); nil for every other stroke.
    public var text: StrokeText?

    public init(device: DeviceID, style: StrokeStyle, points: [StrokePoint]) {
        self.device = device
        self.style = style
        self.points = points
    }

    /// A stroke as stylusd recorded it before strokes had styles: the pen's
    /// eraser end erased, every other tool drew the red pen.
    public init(device: DeviceID, tool: ToolType, points: [StrokePoint]) {
        self.init(device: device, style: .legacy(tool: tool == .eraser ? .eraser : .pen), points: points)
    }
}

/// One step `undo` takes back and `redo` takes again.
public enum DrawingStep: Equatable, Sendable {
    /// A stroke was finished (undo removes the last finished stroke).
    case stroke
    /// `clear` removed these strokes.
    case clear([Stroke])
    /// An eraser stroke removed these strokes whole (`[canvas] eraser = "stroke"`).
    case erase([ErasedStroke])
}

/// A stroke an eraser removed whole, and where it was: undo puts it back there.
public struct ErasedStroke: Equatable, Sendable {
    public var index: Int
    public var stroke: Stroke
}

/// What undo took away, for redo.
public enum UndoneStep: Equatable, Sendable {
    case stroke(Stroke)
    /// A clear undone: redo clears again.
    case clear
    /// An erase undone: redo removes these strokes again.
    case erase([ErasedStroke])
}

/// The overlay's state and drawing. Mutated only by `Engine`.
public struct Canvas: Equatable, Sendable {
    public internal(set) var state: CanvasState = .minimized
    public internal(set) var strokes: [Stroke] = []
    public internal(set) var pointCount = 0
    /// Set when a limit stopped recording; cleared by `clear`.
    public internal(set) var isFull = false
    /// The style the next stroke gets (`tool` command, `tool:`, `color:` and `width:` actions).
    public internal(set) var style = StrokeStyle()
    /// The tool before the last change of tool: what `tool:previous` goes back to.
    public internal(set) var previousTool = DrawingTool.highlighter
    /// The tools seen and each one's style; `style` is the first one's.
    public internal(set) var pens = ToolTable()
    /// The board under the ink (`background` command and action, `[canvas] background`).
    public internal(set) var background = CanvasBackground.none
    /// The steps undo can take back, oldest first, at most `historyLimit`.
    /// Strokes restored from the state file have no step of their own: undo
    /// removes them one by one, newest first, when the history is used up.
    public internal(set) var history: [DrawingStep] = []
    /// What undo took back, newest last, until another change (stroke, erase, clear, discard, submit).
    public internal(set) var undone: [UndoneStep] = []

    /// How many steps undo can go back (and redo forward).
    public static let historyLimit = 256

    struct Transition: Equatable {
        var source: ChangeSource
        var deadline: Microseconds
        /// A minimize's: how the drawing ended, for both of its canvas events.
        var result: DrawingResult? = nil
    }
    var transition: Transition?

    public init() {}

    public init(state: CanvasState, strokes: [Stroke], style: StrokeStyle = StrokeStyle(), background: CanvasBackground = .none) {
        self.style = style
        pens.base = style
        self.background = background
        // A restored canvas never resumes mid-transition: it lands where the
        // transition was heading.
        switch state {
        case .opening, .open: self.state = .open
        case .minimizing, .minimized: self.state = .minimized
        }
        self.strokes = strokes
        self.pointCount = strokes.reduce(0) { $0 + $1.points.count }
    }

    /// Whether any stroke inks: an eraser stroke alone is no content. (An
    /// eraser passing over every mark still leaves the strokes it erased:
    /// the drawing has content until it is cleared or undone.)
    public var hasContent: Bool { strokes.contains { $0.style.tool != .eraser } }
}
