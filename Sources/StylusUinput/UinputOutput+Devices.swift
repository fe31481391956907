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
    public func deviceAdded(_ device: OutputDevice) {
        if device.info.kind == .pad { pads[device.id] = device }
        guard device.info.kind == .pen || engineConfig.bindsPadButtons, let path = device.node, nodes[device.id] == nil else { return }
        let opened = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { return log("filter: cannot open \(path): \(String(cString: strerror(errno))); it stays observed") }
        let fd = Self.movedToTheTop(opened)
        var devPointer: OpaquePointer?
        guard libevdev_new_from_fd(fd, &devPointer) == 0, let dev = devPointer else {
            Glibc.close(fd)
            return log("filter: libevdev cannot read \(path); it stays observed")
        }
        libevdev_set_clock_id(dev, CLOCK_MONOTONIC)   // the daemon's clock, as libinput's times are
        let description = Probe.describe(dev)
        if device.info.kind == .pad, !engineConfig.bindsAButton(of: description) {
            // A binding for a button this pad does not have (pad-8 on a four-button pad).
            libevdev_free(dev)
            Glibc.close(fd)
            return
        }
        let n = Node(id: device.id, path: path, fd: fd, dev: dev, description: description, filter: filterConfig)
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: UInt64(n.id.rawValue)))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            libevdev_free(dev)
            Glibc.close(fd)
            return log("filter: cannot watch \(path): \(String(cString: strerror(errno))); it stays observed")
        }
        nodes[device.id] = n
        if !tryGrab(n) {
            log("filter: waiting to grab \(path) until \(n.isPen ? "the pen leaves proximity with no button held" : "no pad button is held")")
        }
    }

    /// How many descriptors at the top of the table are kept for grabbed nodes.
    private static let topDescriptors: rlim_t = 16

    /// `fd` renumbered near the top of the descriptor table, above every
    /// other descriptor the daemon will open. When the process dies, the
    /// kernel (6.1) releases its descriptors highest number first, each
    /// evdev or uinput one waiting for RCU grace periods; a grabbed node
    /// released first is the desktop's again before the clone, libinput's
    /// own nodes and the rest are torn down (docs/SECURITY.md, kill -9).
    private static func movedToTheTop(_ fd: Int32) -> Int32 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur > 4 * topDescriptors, limit.rlim_cur <= rlim_t(Int32.max) else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, Int32(limit.rlim_cur - topDescriptors))
        guard moved >= 0 else { return fd }   // the top is full: the number does not matter for anything else
        Glibc.close(fd)
        return moved
    }

    public func deviceRemoved(_ id: DeviceID) {
        pads[id] = nil
        guard let n = nodes.removeValue(forKey: id) else { return }
        release(n)
    }

    func release(_ n: Node) {
        n.grabbed = false   // a read loop over this node stops here
        watchdog.forget(fd: n.fd)
        if n.readable { epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil) }
        n.readable = false
        destroyClone(n)
        libevdev_free(n.dev)
        Glibc.close(n.fd)   // closing drops the grab
    }
}
