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
        /// `[canvas] pointer`: `draw` (the canvas takes the mouse and touch while
        /// open, and draws with them) or `pass`; absent from a daemon before `draw`.
        public var pointer: String?
        /// `[canvas] indicator`: `frame`, `badge` or `none` (how an open canvas shows it is open).
        public var indicator: String?
        /// The board under the ink (`none`, `white`, `black`, `grid`, `#rrggbb`); absent from a daemon before boards.
        public var background: String?
        /// What each key on the open canvas does: the spec's defaults with `[canvas.keys]` over
        /// them (the canvas's help shows it); absent from a daemon before the help.
        public var keys: [KeyInfo]?
        enum CodingKeys: String, CodingKey {
            case state, hasContent = "has_content", strokeCount = "stroke_count", pointCount = "point_count", full, pointer, indicator, background, keys
        }
        public init(state: String, hasContent: Bool, strokeCount: Int, pointCount: Int, full: Bool, pointer: String? = nil, indicator: String? = nil, background: String? = nil,
                    keys: [KeyInfo]? = nil) {
            self.keys = keys
            self.pointer = pointer
            self.indicator = indicator
            self.background = background
            self.state = state
            self.hasContent = hasContent
            self.strokeCount = strokeCount
            self.pointCount = pointCount
            self.full = full
        }
    }
    /// One key of the canvas's key table, as config.toml writes both.
    public struct KeyInfo: Codable, Equatable, Sendable {
        public var key: String
        public var action: String
        public init(key: String, action: String) {
            self.key = key
            self.action = action
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
        /// The `[pens.NAME]` whose own binding this is (for that pen only, over `[bindings]`'s); nil: every pen's.
        public var pen: String?
        public init(button: String, action: String, unavailable: String? = nil, pen: String? = nil) {
            self.button = button
            self.action = action
            self.unavailable = unavailable
            self.pen = pen
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
        /// The pen tool whose style this is (in proximity, or the last seen); absent before any.
        public var pen: String?
        public init(_ style: StrokeStyle, palette: Bool? = nil, colors: [StrokeColor]? = nil, pen: String? = nil) {
            self.pen = pen
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
