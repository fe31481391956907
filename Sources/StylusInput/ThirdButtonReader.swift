// SPDX-License-Identifier: MIT
import CLibevdev
import CLibinput
import CLinux
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// libinput up to at least 1.22 drops BTN_STYLUS3 ("Unhandled button"), so
/// for a pen whose node has one, that single button is read from the node
/// directly: no grab, CLOCK_MONOTONIC timestamps like libinput's. Should
/// libinput deliver it too, the engine ignores the repeated press.
final class ThirdButtonReader {
    let fd: Int32
    private let device: OpaquePointer

    init?(path: String) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var device: OpaquePointer?
        guard libevdev_new_from_fd(fd, &device) == 0, let device,
              libevdev_has_event_code(device, UInt32(EV.key), UInt32(BTN.stylus3)) != 0 else {
            if let device { libevdev_free(device) }
            close(fd)
            return nil
        }
        libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        self.fd = fd
        self.device = device
    }

    deinit {
        libevdev_free(device)
        close(fd)
    }

    func drain(_ body: (_ pressed: Bool, _ time: Microseconds) -> Void) {
        var event = input_event()
        var flags = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while true {
            let rc = libevdev_next_event(device, flags, &event)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                flags = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue)
            } else if rc == -EAGAIN, flags != UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) {
                flags = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
                continue
            } else if rc != Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                return
            }
            if event.type == EV.key, event.code == BTN.stylus3, event.value != 2 {
                body(event.value != 0, Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec))
            }
        }
    }
}
