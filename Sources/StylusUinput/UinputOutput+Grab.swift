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
    /// Grabs `n` if nothing of the pen is near or held (grabbing a held
    /// button would leave it stuck for the desktop); true when grabbed.
    @discardableResult
    func tryGrab(_ n: Node) -> Bool {
        guard !n.grabbed, n.readable else { return n.grabbed }
        // libinput has handled these events already; libevdev only follows the state.
        follow(n)
        guard n.readable, nothingNearOrHeld(n) else { return false }
        guard ioctl(n.fd, UInt(EVIOCGRAB), 1 as Int32) == 0 else {
            log("filter: cannot grab \(n.path): \(String(cString: strerror(errno))); it stays observed until its pen leaves proximity again")
            return false
        }
        // The pen may have come in between the look above and the grab; then
        // libinput has seen it come, and the desktop must keep the node. The
        // kernel's own key state says, without taking an event from the queue.
        guard nothingNearOrHeldNow(n) else {
            _ = ioctl(n.fd, UInt(EVIOCGRAB), 0 as Int32)
            return false
        }
        if n.uinput == nil, !makeClone(n) {
            _ = ioctl(n.fd, UInt(EVIOCGRAB), 0 as Int32)
            n.readable = false   // no clone, no filter: the node stays with libinput alone
            epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil)
            return false
        }
        n.grabbed = true
        n.translator = EvdevTranslator(device: n.id, description: n.description)
        n.filter = CloneFilter(device: n.id, description: n.description, filter: filterConfig)
        n.filter.start(canvas: canvas, at: monotonicMicroseconds(), into: &out)
        out.removeAll(keepingCapacity: true)   // nothing is in proximity on the clone yet
        watchdog.watch(fd: n.fd, path: n.path)
        let clonePath = n.uinput.flatMap { libevdev_uinput_get_devnode($0) }.map { String(cString: $0) } ?? "?"
        log("filter: grabbed \(n.path); it is cloned as \(clonePath) \"\(String(cString: libevdev_get_name(n.dev)) + Self.nameSuffix)\"")
        return true
    }

    /// Reads what is pending on a node that is not grabbed into libevdev's
    /// view of it.
    func follow(_ n: Node) {
        var ev = input_event()
        var flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while true {
            let rc = libevdev_next_event(n.dev, flag, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue); continue }
            if rc == -EAGAIN, flag != UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue); continue }
            if rc == -EAGAIN { return }
            if rc < 0 { return gone(n) }
        }
    }

    static let nearOrHeld = [BTN.toolPen, BTN.toolRubber, BTN.toolBrush, BTN.toolPencil, BTN.toolAirbrush,
                             BTN.toolMouse, BTN.toolLens, BTN.touch, BTN.stylus, BTN.stylus2, BTN.stylus3]

    /// The keys of a node that must be up before it is grabbed.
    static func mustBeUp(_ description: DeviceDescription) -> [UInt16] {
        // A pad's ring or strip reports a finger on it as BTN_TOOL_FINGER.
        description.isPen ? nearOrHeld
            : description.padButtonCodes + [BTN.toolFinger].filter { description.has(type: EV.key, code: $0) }
    }

    private func nothingNearOrHeld(_ n: Node) -> Bool {
        !n.mustBeUp.contains { libevdev_get_event_value(n.dev, UInt32(EV.key), UInt32($0)) != 0 }
    }

    /// The same, from the kernel's key state now (EVIOCGKEY) rather than from the events read so far.
    private func nothingNearOrHeldNow(_ n: Node) -> Bool {
        var bits = [UInt8](repeating: 0, count: Self.keyBytes)
        let rc = bits.withUnsafeMutableBytes { ioctl(n.fd, UInt(Self.EVIOCGKEY), $0.baseAddress!) }
        guard rc >= 0 else { return false }
        return !n.mustBeUp.contains { Self.isDown($0, in: bits) }
    }

    /// Whether key `code` is down in an EVIOCGKEY bit array.
    static func isDown(_ code: UInt16, in bits: [UInt8]) -> Bool { bits[Int(code) / 8] & (1 << (code % 8)) != 0 }

    /// KEY_MAX (0x2ff) + 1 bits.
    static let keyBytes = 0x300 / 8
    /// EVIOCGKEY(keyBytes), `_IOC(_IOC_READ, 'E', 0x18, len)`: a macro Swift does not import.
    static let EVIOCGKEY: UInt32 = 0x8000_0000 | UInt32(keyBytes) << 16 | 0x45 << 8 | 0x18

    /// The node reported an error (ENODEV: unplugged): out of the epoll set,
    /// so it cannot wake the loop again; libinput reports the removal.
    func gone(_ n: Node) {
        guard n.readable else { return }
        n.readable = false
        watchdog.forget(fd: n.fd)
        epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil)
    }

    /// The watchdog released every grab while the loop hung. What the
    /// clones still show (a tool in proximity, a held button) goes with
    /// them; the nodes wait to be grabbed as if they had just appeared, and
    /// until then libinput alone reports them.
    func recoverFromRelease() {
        var paths: [String] = []
        for n in nodes.values where n.grabbed {
            n.grabbed = false
            watchdog.forget(fd: n.fd)
            // A node grabbed again after the watchdog's release (later in the
            // turn that ended the hang) still holds its grab: without this it
            // would stay grabbed with no clone, a dead pen. For the others the
            // kernel answers EINVAL, and nothing changes.
            _ = ioctl(n.fd, UInt(EVIOCGRAB), 0 as Int32)
            destroyClone(n)
            n.frame.removeAll(keepingCapacity: true)
            paths.append(n.path)
        }
        out.removeAll(keepingCapacity: true)
        log("filter: the loop runs again after the watchdog released \(paths.sorted().joined(separator: ", ")); their clones are removed and each is grabbed again once its pen leaves proximity with no button held")
        for n in nodes.values { tryGrab(n) }
    }
}
