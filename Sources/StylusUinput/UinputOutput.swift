import CLibevdev
import CLinux
import StylusCore
import StylusInput
import StylusOutput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Filter mode: each pen node is grabbed (EVIOCGRAB) while the pen is out of
/// proximity with no button held, read raw through libevdev, driven through
/// the same `EvdevTranslator` a replay uses, and what `CloneFilter` decides
/// is written to a faithful virtual clone of it (libevdev's uinput API: the
/// same types, codes, ABS ranges and resolutions, properties and ids; the
/// name with " (stylusd)", phys "stylusd/<node>"). On exit, crash or
/// kill -9 the kernel drops the grab and destroys the clone.
public final class UinputOutput: PenOutput {
    public let mode = OutputMode.filter
    public var statusReason: String {
        let waiting = nodes.values.filter { !$0.grabbed }.map(\.path).sorted()
        var reason = "filter: stylusd grabs the pen and writes what the desktop sees to a virtual pen (\(nodes.count) clone\(nodes.count == 1 ? "" : "s"))"
        if !waiting.isEmpty { reason += "; waiting to grab \(waiting.joined(separator: ", ")) until the pen leaves proximity with no button held" }
        return reason
    }
    public var pollDescriptor: Int32? { epollFD }

    /// The suffix of every clone's name; stylusd's monitor and probe skip such devices.
    public static let nameSuffix = " (stylusd)"
    public static let physPrefix = "stylusd/"

    final class Node {
        let id: DeviceID
        let path: String
        let fd: Int32
        let dev: OpaquePointer
        let uinput: OpaquePointer
        var translator: EvdevTranslator
        var filter: CloneFilter
        var grabbed = false
        var frame: [EvdevEvent] = []

        init(id: DeviceID, path: String, fd: Int32, dev: OpaquePointer, uinput: OpaquePointer,
             translator: EvdevTranslator, filter: CloneFilter) {
            self.id = id
            self.path = path
            self.fd = fd
            self.dev = dev
            self.uinput = uinput
            self.translator = translator
            self.filter = filter
            frame.reserveCapacity(32)
        }
    }

    private var engineConfig: EngineConfig
    private var filterConfig: FilterConfig
    private let epollFD: Int32
    private var nodes: [DeviceID: Node] = [:]
    private var canvas = CanvasState.minimized
    private var out: [EvdevEvent] = []
    private var inputs: [TimedPenInput] = []
    private let log: (String) -> Void

    /// nil when /dev/uinput can be opened for writing; else why not, with the fix.
    public static func unavailableReason() -> String? {
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            Glibc.close(fd)
            return nil
        }
        let why = String(cString: strerror(errno))
        switch errno {
        case ENOENT, ENODEV:
            return "/dev/uinput does not exist (\(why)); load the module: `sudo modprobe uinput` (udev/stylusd-uinput.conf in /etc/modules-load.d loads it at boot)"
        case EACCES, EPERM:
            return "/dev/uinput is not writable for this user (\(why)); install udev/70-stylusd-uinput.rules (`make install-udev`) and log in again"
        default:
            return "/dev/uinput cannot be opened (\(why))"
        }
    }

    public init(engine: EngineConfig, filter: FilterConfig, log: @escaping (String) -> Void) {
        engineConfig = engine
        filterConfig = filter
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        self.log = log
        out.reserveCapacity(64)
        inputs.reserveCapacity(8)
    }

    public func reconfigure(engine: EngineConfig, filter: FilterConfig) {
        engineConfig = engine
        filterConfig = filter
        for node in nodes.values { node.filter.reconfigure(engine: engine, filter: filter) }
    }

    // MARK: Devices

    public func deviceAdded(_ device: OutputDevice) {
        guard device.info.kind == .pen, let path = device.node, nodes[device.id] == nil else { return }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return log("filter: cannot open \(path): \(String(cString: strerror(errno))); it stays observed") }
        var devPointer: OpaquePointer?
        guard libevdev_new_from_fd(fd, &devPointer) == 0, let dev = devPointer else {
            Glibc.close(fd)
            return log("filter: libevdev cannot read \(path); it stays observed")
        }
        // evdev stamps CLOCK_REALTIME unless asked; the engine's deadlines and
        // the daemon's timer (and libinput's times) are CLOCK_MONOTONIC.
        if libevdev_set_clock_id(dev, CLOCK_MONOTONIC) != 0 {
            log("filter: cannot read \(path) on the monotonic clock; its double presses and transitions may be timed wrongly")
        }
        let description = Probe.describe(dev)
        // The clone is made from the real node's own description, renamed.
        let realName = String(cString: libevdev_get_name(dev))
        let node = path.split(separator: "/").last.map(String.init) ?? path
        libevdev_set_name(dev, realName + Self.nameSuffix)
        // No fuzz on the clone: the kernel already filtered the real node's
        // values by it, and would filter them a second time on the clone.
        var fuzz: [(code: UInt32, value: Int32)] = []
        for code in 0..<UInt32(ABS.count) where libevdev_has_event_code(dev, UInt32(EV.abs), code) != 0 && libevdev_get_abs_fuzz(dev, code) != 0 {
            fuzz.append((code, libevdev_get_abs_fuzz(dev, code)))
            libevdev_set_abs_fuzz(dev, code, 0)
        }
        var uinputPointer: OpaquePointer?
        var rc: Int32 = -ENODEV
        let uinputFD = open("/dev/uinput", O_RDWR | O_CLOEXEC)
        if uinputFD < 0 {
            rc = -errno
        } else if stylusd_uinput_set_phys(uinputFD, Self.physPrefix + node) != 0 {
            rc = -errno
        } else {
            rc = libevdev_uinput_create_from_device(dev, uinputFD, &uinputPointer)
        }
        libevdev_set_name(dev, realName)
        for (code, value) in fuzz { libevdev_set_abs_fuzz(dev, code, value) }
        guard rc == 0, let uinput = uinputPointer else {
            if uinputFD >= 0 { Glibc.close(uinputFD) }
            libevdev_free(dev)
            Glibc.close(fd)
            return log("filter: cannot create the virtual pen for \(path): \(String(cString: strerror(-rc))); it stays observed")
        }
        let n = Node(id: device.id, path: path, fd: fd, dev: dev, uinput: uinput,
                     translator: EvdevTranslator(device: device.id, description: description),
                     filter: CloneFilter(device: device.id, description: description, engine: engineConfig, filter: filterConfig))
        nodes[device.id] = n
        n.filter.start(canvas: canvas, at: monotonicMicroseconds(), into: &out)
        out.removeAll(keepingCapacity: true)   // nothing is in proximity on the clone yet
        let clonePath = libevdev_uinput_get_devnode(uinput).map { String(cString: $0) } ?? "?"
        log("filter: \(path) is cloned as \(clonePath) \"\(realName + Self.nameSuffix)\"")
        tryGrab(n)
    }

    public func deviceRemoved(_ id: DeviceID) {
        guard let n = nodes.removeValue(forKey: id) else { return }
        release(n)
    }

    private func release(_ n: Node) {
        if n.grabbed { epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil) }
        let uinputFD = libevdev_uinput_get_fd(n.uinput)   // ours, not libevdev's: it does not close it
        libevdev_uinput_destroy(n.uinput)
        Glibc.close(uinputFD)
        libevdev_free(n.dev)
        Glibc.close(n.fd)   // closing drops the grab
    }

    /// Grabs only when nothing of the pen is down or near: grabbing a held
    /// button would leave it stuck for the desktop.
    private func tryGrab(_ n: Node) {
        guard !n.grabbed else { return }
        // Bring libevdev's view of the node up to date (libinput already handled these events).
        var ev = input_event()
        var flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while true {
            let rc = libevdev_next_event(n.dev, flag, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue); continue }
            if rc == -EAGAIN, flag != UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue); continue }
            if rc < 0 { break }
        }
        for code in [BTN.toolPen, BTN.toolRubber, BTN.toolBrush, BTN.toolPencil, BTN.toolAirbrush, BTN.toolMouse, BTN.toolLens,
                     BTN.touch, BTN.stylus, BTN.stylus2, BTN.stylus3]
        where libevdev_get_event_value(n.dev, UInt32(EV.key), UInt32(code)) != 0 {
            return
        }
        guard libevdev_grab(n.dev, LIBEVDEV_GRAB) == 0 else { return log("filter: cannot grab \(n.path); it stays observed") }
        n.grabbed = true
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: UInt64(n.id.rawValue)))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, n.fd, &event)
        log("filter: grabbed \(n.path)")
    }

    // MARK: Input from the grabbed nodes

    public func descriptorReady(_ handle: (TimedPenInput) -> Void) {
        var events = [epoll_event](repeating: epoll_event(), count: 8)
        let count = epoll_wait(epollFD, &events, 8, 0)
        guard count > 0 else { return }
        for e in events.prefix(Int(count)) {
            guard let n = nodes[DeviceID(UInt32(truncatingIfNeeded: e.data.u64))] else { continue }
            read(n, handle)
        }
    }

    private func read(_ n: Node, _ handle: (TimedPenInput) -> Void) {
        var ev = input_event()
        var flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while true {
            let rc = libevdev_next_event(n.dev, flag, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: libevdev hands over the state's changes as events, then a SYN_REPORT.
                if flag == UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue); continue }
            } else if rc == -EAGAIN {
                if flag == UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue); continue }
                return
            } else if rc != 0 {
                return   // ENODEV: the node went away; libinput reports the removal
            }
            let time = Microseconds(ev.time.tv_sec) * 1_000_000 + Microseconds(ev.time.tv_usec)
            let event = EvdevEvent(type: ev.type, code: ev.code, value: ev.value, time: time)
            n.translator.feed(type: ev.type, code: ev.code, value: ev.value, time: time, into: &inputs)
            guard event.isReport else {
                if !(event.type == EV.syn && event.code == SYN.dropped) { n.frame.append(event) }
                continue
            }
            // Moved out (no copy): `handle` may come back into this output.
            var frameInputs: [TimedPenInput] = []
            swap(&frameInputs, &inputs)
            for input in frameInputs { handle(input) }   // the engine, then `apply`
            frameInputs.removeAll(keepingCapacity: true)
            swap(&frameInputs, &inputs)
            n.filter.rawFrame(n.frame, at: time, into: &out)
            n.frame.removeAll(keepingCapacity: true)
            write(n)
        }
    }

    // MARK: The engine's effects

    public func apply(_ effects: Effects) {
        for effect in effects.output {
            switch effect {
            case .canvas(let state, _):
                canvas = state
                for n in nodes.values {
                    n.filter.apply(effect, into: &out)
                    write(n)
                }
            case .frame, .button, .pendingCleared:
                guard let n = nodes[Self.device(of: effect)] else { continue }
                n.filter.apply(effect, into: &out)
                write(n)
                if !n.grabbed, case .frame(let f) = effect, !f.inProximity { tryGrab(n) }
            }
        }
    }

    private static func device(of effect: OutputEffect) -> DeviceID {
        switch effect {
        case .frame(let f): f.device
        case .button(let b): b.device
        case .pendingCleared(let p): p.device
        case .canvas: DeviceID(0)
        }
    }

    private func write(_ n: Node) {
        guard !out.isEmpty else { return }
        for e in out {
            libevdev_uinput_write_event(n.uinput, UInt32(e.type), UInt32(e.code), e.value)
        }
        out.removeAll(keepingCapacity: true)
    }

    public func flush() {}

    /// Every grab is released at once and every clone destroyed.
    public func close() {
        for n in nodes.values { release(n) }
        nodes.removeAll()
        if epollFD >= 0 { Glibc.close(epollFD) }
    }

    /// What the watchdog needs: the grabbed descriptors.
    public var grabbedDescriptors: [Int32] { nodes.values.filter(\.grabbed).map(\.fd) }
}
