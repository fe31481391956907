// SPDX-License-Identifier: MIT
/// The subset of the kernel's input-event-codes.h that a pen engine reads.
/// Values are the kernel ABI (stable); `EvdevCodeNamesTests` checks them
/// against libevdev's own tables.
public enum EV {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
}

public enum SYN {
    public static let report: UInt16 = 0
    public static let dropped: UInt16 = 3
}

public enum ABS {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let distance: UInt16 = 0x19
    public static let tiltX: UInt16 = 0x1a
    public static let tiltY: UInt16 = 0x1b
    /// Wacom's tool id (ABS_MISC), reported as a tool comes into proximity.
    public static let misc: UInt16 = 0x28
    public static let count = 0x40
}

public enum MSC {
    public static let serial: UInt16 = 0x00
}

public enum BTN {
    public static let n0: UInt16 = 0x100       // BTN_0 ... BTN_9
    public static let n9: UInt16 = 0x109
    public static let left: UInt16 = 0x110
    public static let task: UInt16 = 0x117
    public static let a: UInt16 = 0x130        // BTN_A ... BTN_Z (gamepad block, used by pads)
    public static let z: UInt16 = 0x135
    public static let base: UInt16 = 0x126     // BTN_BASE ... BTN_BASE6
    public static let base6: UInt16 = 0x12b
    public static let toolPen: UInt16 = 0x140
    public static let toolRubber: UInt16 = 0x141
    public static let toolBrush: UInt16 = 0x142
    public static let toolPencil: UInt16 = 0x143
    public static let toolAirbrush: UInt16 = 0x144
    public static let toolFinger: UInt16 = 0x145   // a finger on a pad's ring or strip
    public static let toolMouse: UInt16 = 0x146
    public static let toolLens: UInt16 = 0x147
    public static let touch: UInt16 = 0x14a
    public static let stylus: UInt16 = 0x14b
    public static let stylus2: UInt16 = 0x14c
    public static let stylus3: UInt16 = 0x149
}

public enum INPUT_PROP {
    public static let direct: UInt16 = 0x01
}
