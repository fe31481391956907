// SPDX-License-Identifier: MIT
import CLibevdev
import CLinux
import StylusCore
import StylusInput
import StylusOutput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension UinputOutput {
    func makeClone(_ n: Node) -> Bool {
        // The clone is made from the real node's own description, renamed.
        let realName = String(cString: libevdev_get_name(n.dev))
        let node = n.path.split(separator: "/").last.map(String.init) ?? n.path
        libevdev_set_name(n.dev, realName + Self.nameSuffix)
        // No fuzz on the clone: the kernel already filtered the real node's
        // values by it, and would filter them a second time on the clone.
        var fuzz: [(code: UInt32, value: Int32)] = []
        for code in 0..<UInt32(ABS.count) where libevdev_has_event_code(n.dev, UInt32(EV.abs), code) != 0 && libevdev_get_abs_fuzz(n.dev, code) != 0 {
            fuzz.append((code, libevdev_get_abs_fuzz(n.dev, code)))
            libevdev_set_abs_fuzz(n.dev, code, 0)
        }
        // libevdev's uinput API never sets phys (UI_SET_PHYS): stylusd opens
        // /dev/uinput itself, sets it, and hands the descriptor to libevdev.
        var uinputPointer: OpaquePointer?
        var rc: Int32 = -ENODEV
        let uinputFD = open("/dev/uinput", O_RDWR | O_CLOEXEC)
        if uinputFD < 0 {
            rc = -errno
        } else if stylusd_uinput_set_phys(uinputFD, Self.physPrefix + node) != 0 {
            rc = -errno
        } else {
            rc = libevdev_uinput_create_from_device(n.dev, uinputFD, &uinputPointer)
        }
        libevdev_set_name(n.dev, realName)
        for (code, value) in fuzz { libevdev_set_abs_fuzz(n.dev, code, value) }
        guard rc == 0, let uinput = uinputPointer else {
            if uinputFD >= 0 { Glibc.close(uinputFD) }
            log("filter: cannot create the virtual pen for \(n.path): \(String(cString: strerror(-rc))); it stays observed")
            return false
        }
        n.uinput = uinput
        return true
    }

    /// Destroys a node's clone; the uinput descriptor is ours (libevdev does not close it).
    func destroyClone(_ n: Node) {
        guard let uinput = n.uinput else { return }
        let uinputFD = libevdev_uinput_get_fd(uinput)
        libevdev_uinput_destroy(uinput)
        Glibc.close(uinputFD)
        n.uinput = nil
    }

    func write(_ n: Node) {
        guard !out.isEmpty else { return }
        if let uinput = n.uinput {
            // One write(2) for the whole batch, not one per event as
            // libevdev_uinput_write_event makes: uinput takes any number of
            // whole events at once, and a frame is four or five events.
            Self.wireEvents(out, into: &wire)
            let written = wire.withUnsafeBytes { writeAll(libevdev_uinput_get_fd(uinput), $0) }
            if !written, !n.writeFailed {
                n.writeFailed = true
                log("filter: cannot write to the virtual pen of \(n.path): \(String(cString: strerror(errno)))")
            }
        }
        out.removeAll(keepingCapacity: true)
    }

    /// The clone's events as uinput takes them: `wire` is emptied and refilled.
    /// The time stays zero; the kernel stamps each event as it is written.
    static func wireEvents(_ events: [EvdevEvent], into wire: inout [input_event]) {
        wire.removeAll(keepingCapacity: true)
        for e in events {
            var ev = input_event()
            ev.type = e.type
            ev.code = e.code
            ev.value = e.value
            wire.append(ev)
        }
    }
}
