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

/// Filter mode: each pen node is grabbed (EVIOCGRAB) while the pen is out of
/// proximity with no button held, read raw through libevdev, driven through
/// the same `EvdevTranslator` a replay uses, and what `CloneFilter` decides
/// is written to a faithful virtual clone of it (libevdev's uinput API: the
/// same types, codes, ABS ranges and resolutions, properties and ids; the
/// name with " (stylusd)", phys "stylusd/<node>"), made at the first grab.
///
/// A node that cannot be grabbed yet is read alongside libinput (a reader
/// that does not grab takes no event from another), only to follow its
/// state: its events wake the loop, and the first one that leaves nothing
/// near or held is when it is grabbed. No timer, no polling.
///
/// A pad is grabbed and cloned the same way, but only while one of its
/// buttons' double press is bound (a reload that binds or unbinds the last
/// pad button grabs or releases it): withholding is all a pad's clone needs.
///
/// On exit, crash or kill -9 the kernel drops the grab and destroys the
/// clone. A hung loop is released by `GrabWatchdog`.
public final class UinputOutput: PenOutput {
    public let mode = OutputMode.filter
    public var statusReason: String {
        let clones = nodes.values.filter { $0.uinput != nil }.count
        var reason = "filter: stylusd grabs the pen (and a pad with a bound button) and writes what the desktop sees to a virtual copy (\(clones) clone\(clones == 1 ? "" : "s"))"
        let waiting = waitingNodes
        if !waiting.isEmpty { reason += "; waiting to grab \(waiting.joined(separator: ", ")) until nothing of it is near or held (a pen out of proximity, no button down)" }
        return reason
    }
    /// The pen and pad nodes not grabbed yet (or again, after the watchdog released them), by path.
    public var waitingNodes: [String] { nodes.values.filter { !$0.grabbed && $0.readable }.map(\.path).sorted() }
    public var waitingToGrab: [String] { waitingNodes }
    /// Every pen node is grabbed with its clone, and the clones leave
    /// proximity while the canvas is open. A node waiting to grab, or left
    /// to libinput because it could not be cloned, reaches the desktop itself.
    public var capturesPen: Bool {
        guard filterConfig.captureWhileCanvasOpen else { return false }
        var pens = 0
        for n in nodes.values where n.isPen {
            guard n.grabbed else { return false }
            pens += 1
        }
        return pens > 0
    }
    public var pollDescriptor: Int32? { epollFD }

    /// The suffix of every clone's name; stylusd's monitor and probe skip such devices.
    public static let nameSuffix = " (stylusd)"
    public static let physPrefix = LibinputMonitor.clonePhysPrefix

    final class Node {
        let id: DeviceID
        let path: String
        let fd: Int32
        let dev: OpaquePointer
        let description: DeviceDescription
        /// The clone, from the first grab on.
        var uinput: OpaquePointer?
        var translator: EvdevTranslator
        var filter: CloneFilter
        var grabbed = false
        /// In the epoll set; false once the node reported it is gone.
        var readable = true
        var frame: [EvdevEvent] = []
        /// A write to the clone failed once (logged once, not at 1 kHz).
        var writeFailed = false
        let isPen: Bool
        /// The keys that must be up before the node is grabbed: a grab while
        /// one is down would leave it stuck down for the desktop.
        let mustBeUp: [UInt16]

        init(id: DeviceID, path: String, fd: Int32, dev: OpaquePointer, description: DeviceDescription,
             engine: EngineConfig, filter: FilterConfig) {
            self.id = id
            self.path = path
            self.fd = fd
            self.dev = dev
            self.description = description
            translator = EvdevTranslator(device: id, description: description)
            self.filter = CloneFilter(device: id, description: description, engine: engine, filter: filter)
            isPen = description.isPen
            mustBeUp = UinputOutput.mustBeUp(description)
            frame.reserveCapacity(32)
        }
    }

    private var engineConfig: EngineConfig
    private var filterConfig: FilterConfig
    private let epollFD: Int32
    private var nodes: [DeviceID: Node] = [:]
    /// Every pad the daemon reported, grabbed or not: a reload may bind one of its buttons.
    private var pads: [DeviceID: OutputDevice] = [:]
    private var canvas = CanvasState.minimized
    private var out: [EvdevEvent] = []
    private var wire: [input_event] = []
    private var inputs: [TimedPenInput] = []
    private var readyEvents = [epoll_event](repeating: epoll_event(), count: 8)
    private let log: (String) -> Void
    private let watchdog: GrabWatchdog

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

    /// - Parameters:
    ///   - log: the loop's log lines.
    ///   - warn: the watchdog's, from its own thread.
    public init(engine: EngineConfig, filter: FilterConfig, log: @escaping (String) -> Void,
                warn: @escaping @Sendable (String) -> Void) {
        engineConfig = engine
        filterConfig = filter
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        self.log = log
        watchdog = GrabWatchdog(log: warn)
        out.reserveCapacity(64)
        wire.reserveCapacity(64)
        inputs.reserveCapacity(8)
    }

    public func reconfigure(engine: EngineConfig, filter: FilterConfig) {
        engineConfig = engine
        filterConfig = filter
        for node in nodes.values { node.filter.reconfigure(engine: engine, filter: filter) }
        for n in nodes.values where !n.isPen && !engine.bindsAButton(of: n.description) {
            if n.grabbed {
                n.filter.releaseEverything(at: monotonicMicroseconds(), into: &out)
                write(n)
            }
            nodes[n.id] = nil
            release(n)
            log("filter: released \(n.path): none of its pad buttons is bound any more")
        }
        if engine.bindsPadButtons {
            for pad in pads.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) where nodes[pad.id] == nil { deviceAdded(pad) }
        }
    }

    /// The loop's heartbeat for the watchdog; after a watchdog release,
    /// the nodes wait to be grabbed again.
    public func loopTurned() {
        watchdog.loopTurned()
        if watchdog.takeRelease() { recoverFromRelease() }
    }

    // MARK: Devices

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
        let n = Node(id: device.id, path: path, fd: fd, dev: dev, description: description,
                     engine: engineConfig, filter: filterConfig)
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

    private func release(_ n: Node) {
        n.grabbed = false   // a read loop over this node stops here
        watchdog.forget(fd: n.fd)
        if n.readable { epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil) }
        n.readable = false
        destroyClone(n)
        libevdev_free(n.dev)
        Glibc.close(n.fd)   // closing drops the grab
    }

    /// Grabs `n` if nothing of the pen is near or held (grabbing a held
    /// button would leave it stuck for the desktop); true when grabbed.
    @discardableResult
    private func tryGrab(_ n: Node) -> Bool {
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
        n.filter = CloneFilter(device: n.id, description: n.description, engine: engineConfig, filter: filterConfig)
        n.filter.start(canvas: canvas, at: monotonicMicroseconds(), into: &out)
        out.removeAll(keepingCapacity: true)   // nothing is in proximity on the clone yet
        watchdog.watch(fd: n.fd, path: n.path)
        let clonePath = n.uinput.flatMap { libevdev_uinput_get_devnode($0) }.map { String(cString: $0) } ?? "?"
        log("filter: grabbed \(n.path); it is cloned as \(clonePath) \"\(String(cString: libevdev_get_name(n.dev)) + Self.nameSuffix)\"")
        return true
    }

    /// Reads what is pending on a node that is not grabbed into libevdev's
    /// view of it.
    private func follow(_ n: Node) {
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
    private func gone(_ n: Node) {
        guard n.readable else { return }
        n.readable = false
        watchdog.forget(fd: n.fd)
        epoll_ctl(epollFD, EPOLL_CTL_DEL, n.fd, nil)
    }

    private func makeClone(_ n: Node) -> Bool {
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
    private func destroyClone(_ n: Node) {
        guard let uinput = n.uinput else { return }
        let uinputFD = libevdev_uinput_get_fd(uinput)
        libevdev_uinput_destroy(uinput)
        Glibc.close(uinputFD)
        n.uinput = nil
    }

    /// The watchdog released every grab while the loop hung. What the
    /// clones still show (a tool in proximity, a held button) goes with
    /// them; the nodes wait to be grabbed as if they had just appeared, and
    /// until then libinput alone reports them.
    private func recoverFromRelease() {
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

    // MARK: Input from the nodes

    public func descriptorReady(_ handle: (TimedPenInput) -> Void, frameWritten: () -> Void) {
        // With one node in the epoll set (one pen, the usual case) the set
        // being readable means that node is: its read needs no epoll_wait
        // first, a system call less between the pen's report and the
        // clone's (a read that finds nothing gets EAGAIN and costs no more).
        if let n = onlyReadable {
            if n.grabbed { read(n, handle, frameWritten) } else { tryGrab(n) }
            return
        }
        let count = epoll_wait(epollFD, &readyEvents, Int32(readyEvents.count), 0)
        guard count > 0 else { return }
        for i in 0..<Int(count) {
            guard let n = nodes[DeviceID(UInt32(truncatingIfNeeded: readyEvents[i].data.u64))] else { continue }
            if n.grabbed { read(n, handle, frameWritten) } else { tryGrab(n) }
        }
    }

    /// The one node in the epoll set, if there is exactly one.
    private var onlyReadable: Node? {
        var only: Node?
        for n in nodes.values where n.readable {
            if only != nil { return nil }
            only = n
        }
        return only
    }

    private func read(_ n: Node, _ handle: (TimedPenInput) -> Void, _ frameWritten: () -> Void) {
        var ev = input_event()
        var flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while n.grabbed {
            let rc = libevdev_next_event(n.dev, flag, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: libevdev hands over the state's changes as events, then a SYN_REPORT.
                if flag == UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue); continue }
            } else if rc == -EAGAIN {
                if flag == UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue); continue }
                return
            } else if rc != 0 {
                return gone(n)   // ENODEV: the node went away; libinput reports the removal
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
            frameWritten()
        }
    }

    // MARK: The engine's effects

    public func apply(_ effects: Effects) {
        for effect in effects.output {
            switch effect {
            case .canvas(let state, _):
                canvas = state
                for n in nodes.values where n.grabbed {
                    n.filter.apply(effect, into: &out)
                    write(n)
                }
            case .frame, .button, .pendingCleared:
                // A node not grabbed reaches the desktop itself: nothing of it goes to a clone.
                guard let n = nodes[Self.device(of: effect)], n.grabbed else { continue }
                n.filter.apply(effect, into: &out)
                write(n)
            }
        }
    }

    /// The node an effect is for; a canvas effect goes to every grabbed node (`DeviceID(0)` names none).
    static func device(of effect: OutputEffect) -> DeviceID {
        switch effect {
        case .frame(let f): f.device
        case .button(let b): b.device
        case .pendingCleared(let p): p.device
        case .canvas: DeviceID(0)
        }
    }

    private func write(_ n: Node) {
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

    public func flush() {}

    /// Every grab is released at once and every clone destroyed.
    public func close() {
        watchdog.stop()
        for n in nodes.values { release(n) }
        nodes.removeAll()
        if epollFD >= 0 { Glibc.close(epollFD) }
    }
}
