// SPDX-License-Identifier: MIT
public import StylusCore

/// What `status` and the state-changing commands answer.
public struct StatusResult: Codable, Equatable, Sendable {
    public struct CanvasInfo: Codable, Equatable, Sendable {
        /// `minimized`, `opening`, `open` or `minimizing`.
        public var state: String
        public var hasContent: Bool
        public var strokeCount: Int
        public var pointCount: Int
        public var full: Bool
        enum CodingKeys: String, CodingKey {
            case state, hasContent = "has_content", strokeCount = "stroke_count", pointCount = "point_count", full
        }
        public init(state: String, hasContent: Bool, strokeCount: Int, pointCount: Int, full: Bool) {
            self.state = state
            self.hasContent = hasContent
            self.strokeCount = strokeCount
            self.pointCount = pointCount
            self.full = full
        }
    }
    public struct PrecisionInfo: Codable, Equatable, Sendable {
        public var enabled: Bool
        public var active: Bool
        public init(enabled: Bool, active: Bool) {
            self.enabled = enabled
            self.active = active
        }
    }
    public struct DeviceInfoResult: Codable, Equatable, Sendable {
        public var device: UInt32
        public var name: String
        /// `pen` or `pad`.
        public var kind: String
        /// A pen's active area in millimetres, where the device says (absent for pads and from older daemons).
        public var widthMM: Double?
        public var heightMM: Double?
        /// A pen display: the pen draws on a screen (INPUT_PROP_DIRECT). Absent for pads and from older daemons.
        public var direct: Bool?
        /// A pen's connection: `usb`, `bluetooth`, `i2c` (built into a laptop's panel), … or the
        /// kernel's bus number in hex; and its USB vendor id (1386 = 0x056a, Wacom), where known.
        public var bus: String?
        public var vendor: Int?
        enum CodingKeys: String, CodingKey {
            case device, name, kind, widthMM = "width_mm", heightMM = "height_mm", direct, bus, vendor
        }
        public init(device: UInt32, name: String, kind: String, widthMM: Double? = nil, heightMM: Double? = nil, direct: Bool? = nil,
                    bus: String? = nil, vendor: Int? = nil) {
            self.device = device
            self.name = name
            self.kind = kind
            self.widthMM = widthMM
            self.heightMM = heightMM
            self.direct = direct
            self.bus = bus
            self.vendor = vendor
        }

        /// The kernel's BUS_* number as `bus` reports it.
        public static func busName(_ bustype: UInt16) -> String {
            switch bustype {
            case 0x03: "usb"
            case 0x05: "bluetooth"
            case 0x06: "virtual"
            case 0x18: "i2c"
            case 0x19: "host"
            case 0x1c: "spi"
            default: "0x" + String(bustype, radix: 16)
            }
        }
    }
    public struct InputInfo: Codable, Equatable, Sendable {
        /// `pen` or `button-only`.
        public var mode: String
        public var reason: String?
        public var devices: [DeviceInfoResult]
        public init(mode: String, reason: String?, devices: [DeviceInfoResult]) {
            self.mode = mode
            self.reason = reason
            self.devices = devices
        }
    }
    public struct ConfigInfo: Codable, Equatable, Sendable {
        public var intervalMS: Int
        public var debounceMS: Int
        public var transitionMS: Int
        /// `[precision] full_speed_pressure`: the pressure below which
        /// precision slows the cursor (`stylusctl monitor` draws it). Optional
        /// only so that a client reads an older daemon's status.
        public var fullSpeedPressure: Double?
        /// The running preset (the file's, or the last `preset:NAME` double press). Optional for older daemons.
        public var preset: String?
        /// Every button with an action, side buttons first. Optional for older daemons.
        public var bindings: [BindingInfo]?
        enum CodingKeys: String, CodingKey {
            case intervalMS = "interval_ms", debounceMS = "debounce_ms", transitionMS = "transition_ms", preset, bindings
            case fullSpeedPressure = "full_speed_pressure"
        }
        public init(intervalMS: Int, debounceMS: Int, transitionMS: Int, fullSpeedPressure: Double? = nil,
                    preset: String? = nil, bindings: [BindingInfo]? = nil) {
            self.intervalMS = intervalMS
            self.debounceMS = debounceMS
            self.transitionMS = transitionMS
            self.fullSpeedPressure = fullSpeedPressure
            self.preset = preset
            self.bindings = bindings
        }
    }

    /// One button's double-press action, and why it cannot work here when it cannot.
    public struct BindingInfo: Codable, Equatable, Sendable {
        /// BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 or pad-N.
        public var button: String
        /// As config.toml spells it: "toggle-canvas", "key:LEFTCTRL+Z", "exec:…".
        public var action: String
        /// Why a double press would not apply it, with the fix; nil when it works.
        public var unavailable: String?
        public init(button: String, action: String, unavailable: String? = nil) {
            self.button = button
            self.action = action
            self.unavailable = unavailable
        }
    }

    /// How pen input reaches the desktop, and why.
    public struct OutputInfo: Codable, Equatable, Sendable {
        /// `observe` or `filter`: the mode that runs.
        public var mode: String
        /// `observe`, `filter` or `auto`: what was asked for (`--output`,
        /// `[output] mode`, or the `output` command).
        public var requested: String
        /// Why this mode runs; where filter is not possible, why and the fix.
        public var reason: String
        /// Filter mode: the nodes not grabbed yet, because the pen is in
        /// proximity or a button is held.
        public var waiting: [String]
        /// Whether, while the canvas is open, the pen reaches the desktop
        /// only through stylusd: filter mode, every pen node grabbed, and
        /// `capture_while_canvas_open`. An overlay then needs no pointer
        /// input; otherwise the pen's clicks would go to the windows under
        /// it. Optional only so that a client reads an older daemon's status.
        public var capturesPen: Bool?
        enum CodingKeys: String, CodingKey {
            case mode, requested, reason, waiting, capturesPen = "captures_pen"
        }
        public init(mode: String, requested: String, reason: String, waiting: [String] = [], capturesPen: Bool = false) {
            self.mode = mode
            self.requested = requested
            self.reason = reason
            self.waiting = waiting
            self.capturesPen = capturesPen
        }
    }

    public var protocolVersion = ProtocolV1.version
    public var canvas: CanvasInfo
    public var precision: PrecisionInfo
    public var input: InputInfo
    public var config: ConfigInfo
    /// Optional only so that a client reads an older daemon's status; stylusd always sends it.
    public var output: OutputInfo?
    /// How the running canvas overlay reaches the screen, as it reported it
    /// (`overlay`); absent while no overlay that reported is running.
    public var overlay: OverlayReport?
    /// The style the next stroke gets; absent from a daemon before styles.
    public var tool: ToolInfo?
    /// Set by state-changing commands: whether anything changed.
    public var changed: Bool?
    /// Why nothing changed.
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", canvas, precision, input, config, output, overlay, tool, changed, reason
    }

    /// `tool`: the tool, `#RRGGBB` colour and width (pixels of a drawing 1600 wide) of the next stroke.
    public struct ToolInfo: Codable, Equatable, Sendable {
        public var tool: String
        public var color: String
        public var width: Double
        /// Whether the canvas shows its palette while open; absent from a daemon before the palette.
        public var palette: Bool?
        /// The colours `color:next` goes round (`[canvas] palette`), which the palette shows.
        public var colors: [String]?
        public init(_ style: StrokeStyle, palette: Bool? = nil, colors: [StrokeColor]? = nil) {
            tool = style.tool.rawValue
            color = style.color.hex
            width = style.width
            self.palette = palette
            self.colors = colors?.map(\.hex)
        }
        /// The palette's colours, where the daemon says.
        public var paletteColors: [StrokeColor]? { colors?.compactMap(StrokeColor.init(hex:)) }
        public var style: StrokeStyle { StrokeStyle(tool: DrawingTool(name: tool), color: StrokeColor(hex: color) ?? .red, width: width) }
    }

    public init(canvas: CanvasInfo, precision: PrecisionInfo, input: InputInfo, config: ConfigInfo,
                output: OutputInfo? = nil, overlay: OverlayReport? = nil, tool: ToolInfo? = nil, changed: Bool? = nil, reason: String? = nil) {
        self.overlay = overlay
        self.tool = tool
        self.canvas = canvas
        self.precision = precision
        self.input = input
        self.config = config
        self.output = output
        self.changed = changed
        self.reason = reason
    }
}

/// What a canvas overlay says of itself (the `overlay` command): the route
/// it took to the screen (`layer-shell`, `x11`, `wayland-toplevel`) and how
/// many outputs that route offers it.
public struct OverlayReport: Codable, Equatable, Sendable {
    public var backend: String
    public var outputs: Int
    /// The area the tablet maps to, in the desktop's logical pixels (the
    /// monitors the canvas covers): the size `export` draws at when it is
    /// given none. Nil from an overlay that does not say.
    public var width: Int?
    public var height: Int?
    public static let maxBackendLength = 32
    public static let maxOutputs = 64
    /// A side of the area, in pixels: 64 monitors of 8K side by side, and more.
    public static let sideRange = 1...1_048_576

    public init(backend: String, outputs: Int, width: Int? = nil, height: Int? = nil) {
        self.backend = backend
        self.outputs = outputs
        self.width = width
        self.height = height
    }

    static func isBackendName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxBackendLength
            && name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }
}

/// The `output` topic's event: the output's mode or the requested one
/// changed (the `output` command, or a reload).
public struct OutputEvent: Codable, Equatable, Sendable {
    public var event = "output"
    public var mode: String
    public var requested: String
    public var reason: String
    /// As `status`'s `output.captures_pen`; optional for an older daemon.
    public var capturesPen: Bool?
    /// CLOCK_MONOTONIC µs of the change, as every event's `time_us`.
    public var time: Int64
    enum CodingKeys: String, CodingKey {
        case event, mode, requested, reason, capturesPen = "captures_pen", time = "time_us"
    }

    public init(_ output: StatusResult.OutputInfo, time: Int64) {
        mode = output.mode
        requested = output.requested
        reason = output.reason
        capturesPen = output.capturesPen
        self.time = time
    }
}

/// `strokes`: every stroke, each point as [x, y, pressure, tilt_x, tilt_y, time_us].
public struct StrokesResult: Codable, Equatable, Sendable {
    public struct Point: Codable, Equatable, Sendable {
        public var point: StrokePoint
        public init(_ point: StrokePoint) { self.point = point }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(point.x)
            try c.encode(point.y)
            try c.encode(point.pressure)
            try c.encode(point.tiltX)
            try c.encode(point.tiltY)
            try c.encode(point.time)
        }

        public init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            let x = try c.decode(Float.self), y = try c.decode(Float.self), pressure = try c.decode(Float.self)
            let tiltX = try c.decode(Float.self), tiltY = try c.decode(Float.self)
            point = StrokePoint(x: x, y: y, pressure: pressure, tiltX: tiltX, tiltY: tiltY, time: try c.decode(Microseconds.self))
        }
    }
    public struct StrokeResult: Codable, Equatable, Sendable {
        public var device: UInt32
        /// The drawing tool: `pen`, `highlighter`, `eraser`, `line`, … (a daemon before
        /// styles sent the pen's own tool here: `pen`, `eraser`, `brush`, …).
        public var tool: String
        /// `#RRGGBB`; absent from a daemon before styles (its strokes are red).
        public var color: String?
        /// In pixels of a drawing 1600 wide; absent from a daemon before styles (8).
        public var width: Double?
        public var points: [Point]
        public init(device: UInt32, tool: String, color: String? = nil, width: Double? = nil, points: [Point]) {
            self.device = device
            self.tool = tool
            self.color = color
            self.width = width
            self.points = points
        }

        /// The stroke's style; a daemon's before styles as it drew them.
        public var style: StrokeStyle {
            StrokeStyle(tool: DrawingTool(name: tool), color: color.flatMap(StrokeColor.init(hex:)) ?? .red,
                        width: width ?? StrokeStyle.defaultWidth)
        }
    }
    /// The canvas state.
    public var canvas: String
    public var strokes: [StrokeResult]

    public init(canvas: String, strokes: [StrokeResult]) {
        self.canvas = canvas
        self.strokes = strokes
    }

    public init(canvas: Canvas) {
        self.canvas = canvas.state.rawValue
        strokes = canvas.strokes.map {
            StrokeResult(device: $0.device.rawValue, tool: $0.style.tool.rawValue, color: $0.style.color.hex, width: $0.style.width,
                         points: $0.points.map(Point.init))
        }
    }
}

/// `export` and `submit`: the file written.
public struct ExportResult: Codable, Equatable, Sendable {
    public var path: String
    /// `png` or `svg`.
    public var format: String
    public var width: Int
    public var height: Int
    /// The strokes drawn into it (eraser strokes included).
    public var strokeCount: Int
    /// Whether the drawing had ink (`Canvas.hasContent`): false, the picture is blank.
    public var hasContent: Bool

    enum CodingKeys: String, CodingKey {
        case path, format, width, height, strokeCount = "stroke_count", hasContent = "has_content"
    }

    public init(path: String, format: String, width: Int, height: Int, strokeCount: Int, hasContent: Bool) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.strokeCount = strokeCount
        self.hasContent = hasContent
    }
}

/// `subscribe` and `unsubscribe`: the topics now subscribed.
public struct TopicsResult: Codable, Equatable, Sendable {
    /// Names, so that a client reads a newer daemon's answer; `known` has the typed ones.
    public var topics: [String]
    public init(topics: [String]) { self.topics = topics }
    public var known: [Topic] { topics.compactMap(Topic.init(rawValue:)) }
}

/// The first line on every connection.
public struct HelloEvent: Codable, Equatable, Sendable {
    public var event = "hello"
    public var protocolVersion = ProtocolV1.version
    public var daemon = "stylusd"
    public var version: String
    public var pid: Int32
    /// Names, not `Topic`s, so that a client reads a newer daemon's greeting.
    public var topics = Topic.allCases.map(\.rawValue)
    public var commands: [String]? = CommandName.allCases.map(\.rawValue)
    /// The double-press actions this daemon performs, as `Action.Form.spelling`: "toggle-canvas", "key:KEYS".
    public var actions: [String]? = Action.Form.allCases.map(\.spelling)
    enum CodingKeys: String, CodingKey {
        case event, protocolVersion = "protocol", daemon, version, pid, topics, commands, actions
    }

    public init(version: String = StylusVersion.current, pid: Int32) {
        self.version = version
        self.pid = pid
    }
}

/// `devices`: the daemon's probe of /dev/input. Mirrors StylusInput's probe
/// report key for key (the daemon converts it).
public struct DevicesResult: Codable, Equatable, Sendable {
    public struct Node: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case pen, pad, other, unreadable }
        public var path: String
        public var name: String
        /// "vvvv:pppp" in hex, as lsusb writes it.
        public var id: String?
        public var kind: Kind
        /// Why the node could not be read, with the fix.
        public var error: String?
        /// For an unreadable node: whether sysfs says it is a pen (`looks_like_pen` on the wire, snake_case as every key).
        public var looksLikePen: Bool?
        public var pen: Pen?
        public var pad: Pad?

        enum CodingKeys: String, CodingKey {
            case path, name, id, kind, error, looksLikePen = "looks_like_pen", pen, pad
        }

        public init(path: String, name: String, id: String? = nil, kind: Kind, error: String? = nil,
                    looksLikePen: Bool? = nil, pen: Pen? = nil, pad: Pad? = nil) {
            self.path = path
            self.name = name
            self.id = id
            self.kind = kind
            self.error = error
            self.looksLikePen = looksLikePen
            self.pen = pen
            self.pad = pad
        }
    }

    public typealias Pen = PenCapabilities
    public typealias Pad = PadCapabilities

    public var nodes: [Node]
    /// Nil when at least one pen is usable; otherwise why stylusd runs button-only.
    public var buttonOnlyReason: String?

    enum CodingKeys: String, CodingKey {
        case nodes, buttonOnlyReason = "button_only_reason"
    }

    public init(nodes: [Node], buttonOnlyReason: String?) {
        self.nodes = nodes
        self.buttonOnlyReason = buttonOnlyReason
    }
}

extension PenSample {
    /// The `pen` topic's per-sample line.
    public func jsonLine(into buffer: [UInt8]) -> [UInt8] {
        var w = JSONObjectWriter(into: buffer)
        w.string("event", "pen")
        w.int("device", device.rawValue)
        w.string("tool", tool.rawValue)
        w.double("x", axes.x)
        w.double("y", axes.y)
        w.double("pressure", axes.pressure)
        w.double("tilt_x", axes.tiltX)
        w.double("tilt_y", axes.tiltY)
        w.bool("tip", tipDown)
        w.double("adjusted_x", adjustedX)
        w.double("adjusted_y", adjustedY)
        w.double("scale", scale)
        w.int("time_us", time)
        return w.finishLine()
    }
}
