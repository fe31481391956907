// SPDX-License-Identifier: MIT
public struct AbsInfo: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre for positions, per radian for tilt; 0 = unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What an evdev node says about itself: the same facts for a live node
/// (read through libevdev) and for an evemu recording's header.
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var bustype: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var version: UInt16 = 0
    /// Bit masks per event type, indexed by code (bit n of byte n/8).
    public var eventBits: [UInt16: [UInt8]] = [:]
    public var properties: [UInt8] = []
    public var absInfo: [UInt16: AbsInfo] = [:]

    public init(name: String) { self.name = name }

    public func has(type: UInt16, code: UInt16) -> Bool {
        guard let bits = eventBits[type] else { return false }
        return Self.bit(bits, Int(code))
    }

    public func has(property: UInt16) -> Bool { Self.bit(properties, Int(property)) }

    public mutating func enable(type: UInt16, code: UInt16) {
        var bits = eventBits[type] ?? []
        let byte = Int(code) / 8
        if bits.count <= byte { bits += [UInt8](repeating: 0, count: byte + 1 - bits.count) }
        bits[byte] |= 1 << (code % 8)
        eventBits[type] = bits
        if type != EV.syn { enable(type: EV.syn, code: type) }
    }

    private static func bit(_ bits: [UInt8], _ n: Int) -> Bool {
        n / 8 < bits.count && bits[n / 8] & (1 << (n % 8)) != 0
    }

    public var tools: [ToolType] { ToolType.allCases.filter { has(type: EV.key, code: $0.evdevCode) } }

    /// The active area in millimetres and whether it is a screen; nil for a node that is not a pen.
    public var penArea: PenArea? {
        guard isPen else { return nil }
        func millimetres(_ code: UInt16) -> Double? {
            guard let info = absInfo[code], info.resolution > 0, info.maximum > info.minimum else { return nil }
            return Double(info.maximum - info.minimum) / Double(info.resolution)
        }
        return PenArea(widthMM: millimetres(ABS.x), heightMM: millimetres(ABS.y), direct: has(property: INPUT_PROP.direct),
                       bustype: bustype == 0 ? nil : bustype, vendor: vendor == 0 ? nil : vendor)
    }

    public var isPen: Bool { tools.contains { $0 != .mouse && $0 != .lens } && has(type: EV.abs, code: ABS.x) }

    /// Side buttons a pen on this node can report.
    public var sideButtons: [SideButton] {
        isPen ? SideButton.allCases.filter { has(type: EV.key, code: $0.evdevCode) } : []
    }

    /// Pad button codes in libinput's numbering order: BTN_0..BTN_9, then the
    /// gamepad block (BTN_A..BTN_Z), then BTN_BASE..BTN_BASE6; on a pad-only
    /// node also BTN_LEFT..BTN_TASK (on a pen node those belong to the mouse tool).
    public var padButtonCodes: [UInt16] {
        var ranges: [ClosedRange<UInt16>] = [BTN.n0...BTN.n9, BTN.a...BTN.z, BTN.base...BTN.base6]
        if tools.isEmpty { ranges.append(BTN.left...BTN.task) }
        return ranges.flatMap { $0 }.filter { has(type: EV.key, code: $0) }
    }

    public var kind: DeviceKind? {
        if isPen { return .pen }
        return padButtonCodes.isEmpty ? nil : .pad
    }
}
