// SPDX-License-Identifier: MIT
/// What the probe found a pen can do: `stylusd probe` prints it, and the
/// `devices` answer carries it key for key (one type for both, so they cannot drift).
public struct PenCapabilities: Codable, Equatable, Sendable {
    public var pressureLevels: Int?
    public var sideButtons: [String]
    public var eraser: Bool
    public var tilt: Bool
    public var distance: Bool
    /// A pen display (INPUT_PROP_DIRECT) rather than an external tablet.
    public var display: Bool
    /// The stylus button count libwacom knows for this tablet's pens, if it knows the tablet.
    public var libwacomModel: String?
    public var libwacomStylusButtons: Int?
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case pressureLevels = "pressure_levels", sideButtons = "side_buttons", eraser, tilt, distance, display
        case libwacomModel = "libwacom_model", libwacomStylusButtons = "libwacom_stylus_buttons", notes
    }

    public init(pressureLevels: Int?, sideButtons: [String], eraser: Bool, tilt: Bool, distance: Bool, display: Bool,
                libwacomModel: String? = nil, libwacomStylusButtons: Int? = nil, notes: [String] = []) {
        self.pressureLevels = pressureLevels
        self.sideButtons = sideButtons
        self.eraser = eraser
        self.tilt = tilt
        self.distance = distance
        self.display = display
        self.libwacomModel = libwacomModel
        self.libwacomStylusButtons = libwacomStylusButtons
        self.notes = notes
    }
}

/// What the probe found of a pad.
public struct PadCapabilities: Codable, Equatable, Sendable {
    public var buttons: Int
    public init(buttons: Int) { self.buttons = buttons }
}
