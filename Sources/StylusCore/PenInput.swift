// SPDX-License-Identifier: MIT
/// Kernel event time in microseconds (CLOCK_MONOTONIC for live input, the
/// recording's own clock for replays). The engine never reads a clock.
public typealias Microseconds = Int64

public struct DeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

public enum ToolType: String, Sendable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens

    /// The BTN_TOOL_* code the kernel reports for this tool.
    public var evdevCode: UInt16 {
        switch self {
        case .pen: BTN.toolPen
        case .eraser: BTN.toolRubber
        case .brush: BTN.toolBrush
        case .pencil: BTN.toolPencil
        case .airbrush: BTN.toolAirbrush
        case .mouse: BTN.toolMouse
        case .lens: BTN.toolLens
        }
    }

    public init?(evdevCode: UInt16) {
        guard let tool = ToolType.allCases.first(where: { $0.evdevCode == evdevCode }) else { return nil }
        self = tool
    }
}

/// A physical tool: its type and, where the hardware reports them, its serial
/// and tool id (0 = not reported).
public struct Tool: Equatable, Sendable {
    public var type: ToolType
    public var serial: UInt64
    public var toolID: UInt64
    public init(type: ToolType, serial: UInt64 = 0, toolID: UInt64 = 0) {
        self.type = type
        self.serial = serial
        self.toolID = toolID
    }
}

public enum SideButton: Int, Sendable, CaseIterable {
    case stylus = 0, stylus2 = 1, stylus3 = 2

    public var evdevName: String {
        switch self {
        case .stylus: "BTN_STYLUS"
        case .stylus2: "BTN_STYLUS2"
        case .stylus3: "BTN_STYLUS3"
        }
    }

    public var evdevCode: UInt16 {
        switch self {
        case .stylus: BTN.stylus
        case .stylus2: BTN.stylus2
        case .stylus3: BTN.stylus3
        }
    }

    public init?(evdevCode: UInt16) {
        guard let b = SideButton.allCases.first(where: { $0.evdevCode == evdevCode }) else { return nil }
        self = b
    }

    public init?(name: String) {
        guard let b = SideButton.allCases.first(where: { $0.evdevName == name }) else { return nil }
        self = b
    }
}

/// A button the double-press rule tracks: a pen side button, or a pad
/// button numbered as libinput numbers them (0-based, in kernel code order).
public enum ButtonID: Hashable, Sendable, CustomStringConvertible {
    case side(SideButton)
    case pad(Int)

    /// Pads with more buttons than this are tracked up to this many.
    public static let maxPadButtons = 64

    public var description: String {
        switch self {
        case .side(let b): b.evdevName
        case .pad(let n): "pad-\(n)"
        }
    }

    public init?(name: String) {
        if let side = SideButton(name: name) {
            self = .side(side)
        } else if name.hasPrefix("pad-"), let n = Int(name.dropFirst(4)), n >= 0, n < ButtonID.maxPadButtons {
            self = .pad(n)
        } else {
            return nil
        }
    }

    /// Dense index used for per-device tracking tables (the engine's, and `CloneFilter`'s in StylusOutput).
    public var slot: Int {
        switch self {
        case .side(let b): b.rawValue
        case .pad(let n): SideButton.allCases.count + n
        }
    }

    static let slotCount = SideButton.allCases.count + maxPadButtons

    public init(slot: Int) {
        self = slot < SideButton.allCases.count ? .side(SideButton.allCases[slot]) : .pad(slot - SideButton.allCases.count)
    }
}

/// One sample of a pen's axes, already normalised.
public struct PenAxes: Equatable, Sendable {
    /// Position normalised to the active area, 0...1.
    public var x: Double
    public var y: Double
    /// Position in millimetres from the area's origin; nil when the device
    /// does not report its resolution.
    public var xMM: Double?
    public var yMM: Double?
    /// 0...1; libinput's normalised pressure on live input.
    public var pressure: Double
    /// 0...1 (0 = touching the surface), or 0 when not reported.
    public var distance: Double
    /// Degrees from the vertical, positive to the right / towards the user.
    public var tiltX: Double
    public var tiltY: Double

    public init(x: Double = 0, y: Double = 0, xMM: Double? = nil, yMM: Double? = nil,
                pressure: Double = 0, distance: Double = 0, tiltX: Double = 0, tiltY: Double = 0) {
        self.x = x
        self.y = y
        self.xMM = xMM
        self.yMM = yMM
        self.pressure = pressure
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
    }
}

public enum DeviceKind: String, Sendable {
    case pen, pad
}

/// A pen's active area, for a client that places pen positions on a
/// screen: a pen display (INPUT_PROP_DIRECT) sits on one monitor of about its
/// size, an opaque tablet maps to the whole desktop unless the user maps it.
public struct PenArea: Equatable, Sendable {
    /// Millimetres, from the X and Y axes' ranges and resolutions; nil when the device does not say.
    public var widthMM: Double?
    public var heightMM: Double?
    /// The pen draws on a screen (INPUT_PROP_DIRECT).
    public var direct: Bool
    /// The kernel's bus type (BUS_USB 0x03, BUS_BLUETOOTH 0x05, BUS_I2C 0x18 …) and
    /// vendor id, where known: a pen on I2C is built into a laptop's own panel, and a
    /// Wacom display's EDID names its maker "WAC".
    public var bustype: UInt16?
    public var vendor: UInt16?

    public init(widthMM: Double?, heightMM: Double?, direct: Bool, bustype: UInt16? = nil, vendor: UInt16? = nil) {
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.direct = direct
        self.bustype = bustype
        self.vendor = vendor
    }
}

public struct DeviceInfo: Equatable, Sendable {
    public var name: String
    public var kind: DeviceKind
    /// Pens only; nil where the source cannot tell.
    public var area: PenArea?
    public init(name: String, kind: DeviceKind, area: PenArea? = nil) {
        self.name = name
        self.kind = kind
        self.area = area
    }
}

/// Everything the engine reacts to besides commands and timers.
public enum PenInput: Equatable, Sendable {
    case deviceAdded(DeviceID, DeviceInfo)
    case deviceRemoved(DeviceID)
    case proximityIn(DeviceID, Tool, PenAxes)
    case proximityOut(DeviceID)
    case tipDown(DeviceID, PenAxes)
    case tipUp(DeviceID, PenAxes)
    case motion(DeviceID, PenAxes)
    case button(DeviceID, ButtonID, pressed: Bool)
}
