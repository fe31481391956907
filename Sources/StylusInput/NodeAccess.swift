// SPDX-License-Identifier: MIT
import CLibevdev
import CLibinput
import CLinux
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

public enum NodeAccess {
    /// Whether the kernel lists BTN_TOOL_PEN or BTN_STYLUS for an event node,
    /// read from sysfs, which needs no access to the node itself.
    public static func looksLikePen(_ path: String, sysfs: String = "/sys/class/input") -> Bool {
        guard let node = path.split(separator: "/").last,
              let bytes = try? readFile("\(sysfs)/\(node)/device/capabilities/key", limit: 4096) else { return false }
        // Hex words of `unsigned long`, most significant first.
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).reversed()
            .map { UInt64($0, radix: 16) ?? 0 }
        func has(_ code: UInt16) -> Bool {
            let word = Int(code) / 64
            return word < words.count && words[word] & (1 << UInt64(code % 64)) != 0
        }
        return has(BTN.toolPen) || has(BTN.stylus)
    }

    /// The reason a node could not be opened, and the fix.
    public static func explain(errno code: Int32, path: String) -> String {
        switch code {
        case EACCES, EPERM:
            return "permission denied; install the udev rule (sudo make install-udev, then re-plug the tablet) "
                + "or join the input group (sudo usermod -aG input $USER, then log in again)"
        case ENOENT:
            return "no such device node (unplugged, or the path is wrong)"
        case ENODEV, ENXIO:
            return "the device disappeared (unplugged)"
        default:
            return String(cString: strerror(code))
        }
    }
}
