// SPDX-License-Identifier: MIT
import CLibevdev
import StylusCore

/// Event code names from libevdev, the C library's own tables.
public enum EvdevNames {
    public static func code(type: UInt16, name: String) -> UInt16? {
        let value = libevdev_event_code_from_name(UInt32(type), name)
        return value < 0 ? nil : UInt16(value)
    }

    public static func name(type: UInt16, code: UInt16) -> String? {
        guard let cName = libevdev_event_code_get_name(UInt32(type), UInt32(code)) else { return nil }
        return String(cString: cName)
    }
}
