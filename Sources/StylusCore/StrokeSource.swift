// SPDX-License-Identifier: MIT
/// What drew a stroke: a tablet pen (the daemon's own input) or a canvas's
/// mouse, touchpad (`pointer`) or touchscreen (`touch`), streamed with `draw`,
/// or a text typed on a canvas or sent with `text` (`keyboard`).
/// A canvas source has a device id of its own, at the top of the id space
/// where the daemon's counter (from 1, one per device seen) never gets: the
/// `device` of a stroke stays a number for every client, and the source
/// comes back from it, in the state file too, with no field of its own.
public enum StrokeSource: String, Sendable, CaseIterable {
    case pen, pointer, touch, keyboard

    /// The device id the canvas source's strokes carry; nil for the pen, whose
    /// strokes carry their tablet's id.
    public var device: DeviceID? {
        switch self {
        case .pen: nil
        case .pointer: DeviceID(UInt32.max - 1)
        case .touch: DeviceID(UInt32.max)
        case .keyboard: DeviceID(UInt32.max - 2)
        }
    }

    public init(device: DeviceID) {
        self = Self.allCases.first { $0.device == device } ?? .pen
    }

    /// The sources a canvas streams with `draw`.
    public static let drawing: [StrokeSource] = [.pointer, .touch]
}

extension DeviceID {
    /// One of the ids `StrokeSource` keeps for a canvas's pointer or touch.
    public var isCanvasSource: Bool { StrokeSource(device: self) != .pen }
}

extension Stroke {
    public var source: StrokeSource { StrokeSource(device: device) }
}

extension StrokeEvent {
    public var source: StrokeSource { StrokeSource(device: device) }
}
