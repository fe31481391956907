// SPDX-License-Identifier: MIT
/// Turns one node's raw evdev stream (type, code, value, kernel time) into
/// engine inputs, frame by frame, the way libinput groups them: within a
/// frame, proximity-in first, then tip-down, motion or tip-up, then buttons,
/// and proximity-out last.
///
/// The kernel gives no order inside a frame, so a frame is read as the state
/// it leaves at SYN_REPORT: the tip's change comes before the buttons (a
/// press in the frame that lifts the tip is a press with the tip up, one in
/// the frame that sets it down is a press with the tip down), and a button
/// pressed and released within one frame changed nothing.
///
/// Used for recordings; live input already arrives grouped from libinput.
public struct EvdevTranslator: Sendable {
    public let device: DeviceID
    public let description: DeviceDescription
    public let kind: DeviceKind?

    private struct Axis: Sendable {
        var minimum: Double
        var range: Double
        var resolution: Double
        init(_ info: AbsInfo?) {
            minimum = Double(info?.minimum ?? 0)
            range = max(Double(info?.maximum ?? 1) - minimum, 1)
            resolution = Double(info?.resolution ?? 0)
        }
        func normalised(_ value: Int32) -> Double { min(max((Double(value) - minimum) / range, 0), 1) }
        func millimetres(_ value: Int32) -> Double? { resolution > 0 ? (Double(value) - minimum) / resolution : nil }
        /// libinput's convention: resolution is units per radian; without it
        /// the range is taken to span -64...+64 degrees.
        func degrees(_ value: Int32) -> Double {
            let centred = Double(value) - (minimum + range / 2)
            return resolution > 0 ? centred / resolution * 180 / Double.pi : centred / (range / 2) * 64
        }
    }

    private let xAxis, yAxis, pressureAxis, distanceAxis, tiltXAxis, tiltYAxis: Axis
    private let hasPressure: Bool
    /// The pressure at which the tip touches and at which it lifts, as
    /// libinput decides contact for a pen with a pressure axis (5 % and 1 %
    /// of the range; BTN_TOUCH is then not looked at): the tip the desktop
    /// sees. A light brush of the nib that sets BTN_TOUCH with less is hovering.
    private let pressureContact: (touch: Int32, lift: Int32)?
    /// Pad button number for codes 0x100...0x13f, -1 where not a pad button.
    private let padNumbers: [Int8]
    private let isPenNode: Bool

    private var values = [Int32](repeating: 0, count: ABS.count)
    private var toolKeys: UInt8 = 0           // bit per ToolType index
    private var touching = false
    private var serial: UInt64 = 0
    private var proximityTool: Tool?
    private var sawToolKey = false
    private var lastTime: Microseconds = .min

    // The frame being collected.
    private var axesChanged = false
    private var toolKeysAtFrameStart: UInt8 = 0
    private var touchAtFrameStart = false
    private var buttonChanges: [(ButtonID, Bool)] = []
    /// The buttons down as the frames so far left them.
    private var buttonsDown: [ButtonID] = []
    private var dropping = false

    public init(device: DeviceID, description: DeviceDescription) {
        self.device = device
        self.description = description
        self.kind = description.kind
        self.isPenNode = description.isPen
        let info = description.absInfo
        xAxis = Axis(info[ABS.x])
        yAxis = Axis(info[ABS.y])
        pressureAxis = Axis(info[ABS.pressure])
        distanceAxis = Axis(info[ABS.distance])
        tiltXAxis = Axis(info[ABS.tiltX])
        tiltYAxis = Axis(info[ABS.tiltY])
        hasPressure = info[ABS.pressure] != nil
        pressureContact = info[ABS.pressure].map { p in
            let range = Int64(p.maximum) - Int64(p.minimum)
            return (Int32(range * 5 / 100 + Int64(p.minimum)), Int32(range * 1 / 100 + Int64(p.minimum)))
        }
        var numbers = [Int8](repeating: -1, count: 0x40)
        for (n, code) in description.padButtonCodes.enumerated() where code >= 0x100 && code < 0x140 && n < ButtonID.maxPadButtons {
            numbers[Int(code - 0x100)] = Int8(n)
        }
        padNumbers = numbers
        for (code, absinfo) in info where Int(code) < ABS.count {
            values[Int(code)] = min(max(0, absinfo.minimum), absinfo.maximum)
        }
        buttonChanges.reserveCapacity(8)
    }

    public var deviceInfo: DeviceInfo {
        DeviceInfo(name: description.name, kind: kind ?? .pen, area: kind == .pad ? nil : description.penArea)
    }

    public var axes: PenAxes {
        PenAxes(x: xAxis.normalised(values[Int(ABS.x)]), y: yAxis.normalised(values[Int(ABS.y)]),
                xMM: xAxis.millimetres(values[Int(ABS.x)]), yMM: yAxis.millimetres(values[Int(ABS.y)]),
                pressure: hasPressure ? pressureAxis.normalised(values[Int(ABS.pressure)]) : (touching ? 1 : 0),
                distance: distanceAxis.normalised(values[Int(ABS.distance)]),
                tiltX: tiltXAxis.degrees(values[Int(ABS.tiltX)]), tiltY: tiltYAxis.degrees(values[Int(ABS.tiltY)]))
    }

    /// Feeds one evdev event; each completed frame appends its engine inputs
    /// to `out`. Times that step backwards are held at the previous
    /// time, so the engine only ever sees time advance.
    public mutating func feed(type: UInt16, code: UInt16, value: Int32, time rawTime: Microseconds,
                              into out: inout [TimedPenInput]) {
        let time = max(rawTime, lastTime)
        lastTime = time
        if dropping {
            if type == EV.syn && code == SYN.report { dropping = false; resetFrame() }
            return
        }
        switch type {
        case EV.syn:
            if code == SYN.report {
                finishFrame(at: time, into: &out)
            } else if code == SYN.dropped {
                dropping = true
            }
        case EV.abs:
            guard Int(code) < ABS.count else { return }
            if values[Int(code)] != value {
                values[Int(code)] = value
                axesChanged = true
            }
        case EV.msc where code == MSC.serial:
            serial = UInt64(UInt32(bitPattern: value))
        case EV.key:
            key(code: code, pressed: value != 0)
        default:
            break
        }
    }

    private mutating func key(code: UInt16, pressed: Bool) {
        if let tool = ToolType(evdevCode: code) {
            sawToolKey = true
            let bit: UInt8 = 1 << UInt8(ToolType.allCases.firstIndex(of: tool)!)
            toolKeys = pressed ? toolKeys | bit : toolKeys & ~bit
        } else if code == BTN.touch {
            if pressureContact == nil { touching = pressed }
        } else if isPenNode, let side = SideButton(evdevCode: code) {
            buttonChanges.append((.side(side), pressed))
        } else if code >= 0x100 && code < 0x140, padNumbers[Int(code - 0x100)] >= 0 {
            buttonChanges.append((.pad(Int(padNumbers[Int(code - 0x100)])), pressed))
        }
    }

    private mutating func resetFrame() {
        axesChanged = false
        toolKeysAtFrameStart = toolKeys
        touchAtFrameStart = touching
        buttonChanges.removeAll(keepingCapacity: true)
    }

    private func toolInKeys(_ keys: UInt8) -> ToolType? {
        guard keys != 0 else { return nil }
        // The tool that came in most recently wins when two keys are held.
        let entered = keys & ~toolKeysAtFrameStart
        let pick = entered != 0 ? entered : keys
        return ToolType.allCases[pick.trailingZeroBitCount]
    }

    private mutating func finishFrame(at time: Microseconds, into out: inout [TimedPenInput]) {
        defer { resetFrame() }
        guard isPenNode else { return appendButtons(at: time, into: &out) }
        if toolKeys == 0, !sawToolKey, axesChanged || touching || !buttonChanges.isEmpty {
            // The stream began with a pen already in proximity (a recording
            // started mid-hover): its BTN_TOOL_PEN 1 happened before it.
            toolKeys = 1 << UInt8(ToolType.allCases.firstIndex(of: .pen)!)
        }
        var enteredNow = false
        let heldTool = toolInKeys(toolKeys)
        if let type = heldTool, proximityTool?.type != type {
            if proximityTool != nil { out.append(TimedPenInput(.proximityOut(device), at: time)) }
            // Read once, at proximity-in: a serial that changes while the tool stays is the same tool.
            proximityTool = Tool(type: type, serial: serial, toolID: UInt64(UInt32(bitPattern: values[Int(ABS.misc)])))
            out.append(TimedPenInput(.proximityIn(device, proximityTool!, axes), at: time))
            enteredNow = true
        }
        guard proximityTool != nil else {
            // Buttons reported out of proximity still count as presses.
            return appendButtons(at: time, into: &out)
        }

        if let contact = pressureContact {
            let pressure = values[Int(ABS.pressure)]
            if touching, pressure <= contact.lift { touching = false } else if !touching, pressure >= contact.touch { touching = true }
        }
        let tipWentDown = touching && !touchAtFrameStart
        let tipWentUp = !touching && touchAtFrameStart
        if tipWentDown {
            out.append(TimedPenInput(.tipDown(device, axes), at: time))
        } else if tipWentUp {
            out.append(TimedPenInput(.tipUp(device, axes), at: time))
        } else if axesChanged && !enteredNow {
            out.append(TimedPenInput(.motion(device, axes), at: time))
        }
        appendButtons(at: time, into: &out)
        if heldTool == nil {
            if touching {
                touching = false
                out.append(TimedPenInput(.tipUp(device, axes), at: time))
            }
            out.append(TimedPenInput(.proximityOut(device), at: time))
            proximityTool = nil
        }
    }
}

extension EvdevTranslator {
    /// The frame's button changes as the state it leaves: the last change of
    /// each button, and none for a button that ends the frame as it began
    /// (pressed and released in one frame). A single change passes as it
    /// is, even one repeating the button's state (only a damaged stream has
    /// it; the engine ignores it, and a held press stays held).
    private mutating func appendButtons(at time: Microseconds, into out: inout [TimedPenInput]) {
        for (n, (button, pressed)) in buttonChanges.enumerated() {
            if buttonChanges[(n + 1)...].contains(where: { $0.0 == button }) { continue }
            let wasDown = buttonsDown.contains(button)
            if pressed { if !wasDown { buttonsDown.append(button) } } else { buttonsDown.removeAll { $0 == button } }
            if pressed == wasDown, buttonChanges[..<n].contains(where: { $0.0 == button }) { continue }
            out.append(TimedPenInput(.button(device, button, pressed: pressed), at: time))
        }
    }
}

public struct TimedPenInput: Equatable, Sendable {
    public var input: PenInput
    public var time: Microseconds
    public init(_ input: PenInput, at time: Microseconds) {
        self.input = input
        self.time = time
    }
}
