// SPDX-License-Identifier: MIT
import CLibevdev
import CLibinput
import CLinux
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// What the live input stack reports, already in the engine's terms.
public enum LiveInput {
    case pen(TimedPenInput)
    /// libinput could not take a node: one given with --device, or one that
    /// appeared on the seat but could not be opened (unreadable, or gone
    /// again between udev's announcement and the open).
    case deviceFailed(path: String, reason: String)
    /// Something the daemon should log that is no device's failure.
    case notice(String)
}

public struct MonitorError: Error, CustomStringConvertible {
    public var description: String
}

/// libinput behind Swift types: a udev seat or explicit device paths in, pen
/// and pad input out. Single-threaded; the caller polls `fd`.
public final class LibinputMonitor {
    public enum Source: Sendable {
        case seat(String)
        case paths([String])
    }

    private let context: OpaquePointer
    private let udev: OpaquePointer?
    private var nextID: UInt32 = 1
    private var ids: [OpaquePointer: DeviceID] = [:]
    private var pending: [LiveInput] = []
    private var nodePaths: [DeviceID: String] = [:]
    /// The name suffix of stylusd's virtual pens (`UinputOutput`), which the monitor skips.
    public static let cloneNameSuffix = " (stylusd)"

    /// The phys prefix of stylusd's virtual pens (`UinputOutput` sets it).
    public static let clonePhysPrefix = "stylusd/"

    /// Whether /dev/input/eventN is one of stylusd's virtual pens, by its phys
    /// in sysfs (its name too: a long name loses the suffix to libevdev's limit).
    public static func isStylusdClone(devnode: String) -> Bool {
        guard let node = devnode.split(separator: "/").last else { return false }
        func attribute(_ name: String) -> Substring? {
            guard let bytes = try? readFile("/sys/class/input/\(node)/device/\(name)") else { return nil }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first
        }
        return attribute("phys")?.hasPrefix(clonePhysPrefix) == true || attribute("name")?.hasSuffix(cloneNameSuffix) == true
    }

    /// libinput's size of the active area; INPUT_PROP_DIRECT and the bus type
    /// from sysfs (libinput 1.22 has no call for either).
    static func penArea(_ device: OpaquePointer, node: String) -> PenArea {
        var width = 0.0, height = 0.0
        let sized = libinput_device_get_size(device, &width, &height) == 0 && width > 0 && height > 0
        /// The last hex word of a sysfs attribute (a bitmap's lowest word, or an id).
        func hex(_ attribute: String) -> UInt64? {
            guard let bytes = try? readFile("/sys/class/input/\(node)/device/\(attribute)", limit: 4096),
                  let lowest = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).last else { return nil }
            return UInt64(lowest, radix: 16)
        }
        let direct = (hex("properties") ?? 0) & (1 << UInt64(INPUT_PROP.direct)) != 0
        let vendor = UInt16(truncatingIfNeeded: libinput_device_get_id_vendor(device))
        return PenArea(widthMM: sized ? width : nil, heightMM: sized ? height : nil, direct: direct,
                       bustype: hex("id/bustype").map { UInt16(truncatingIfNeeded: $0) }, vendor: vendor == 0 ? nil : vendor)
    }

    /// The /dev/input node of a device the monitor reported.
    public func nodePath(of id: DeviceID) -> String? { nodePaths[id] }
    /// libinput's fd and the third-button readers, as one pollable fd.
    private let epollFD: Int32
    private var thirdButtonReaders: [OpaquePointer: ThirdButtonReader] = [:]
    private let logSink = LogSink()

    /// Readable whenever `dispatch` has something to do.
    public var fd: Int32 { epollFD }

    public init(source: Source) throws(MonitorError) {
        switch source {
        case .seat(let seat):
            guard let udev = udev_new() else { throw MonitorError(description: "udev_new failed: cannot talk to udev") }
            guard let li = libinput_udev_create_context(&libinputInterface, Unmanaged.passUnretained(logSink).toOpaque(), udev) else {
                udev_unref(udev)
                throw MonitorError(description: "libinput_udev_create_context failed")
            }
            LogSink.attach(to: li)
            guard libinput_udev_assign_seat(li, seat) == 0 else {
                libinput_unref(li)
                udev_unref(udev)
                throw MonitorError(description: "libinput could not assign seat \"\(seat)\" (is udev's database available under /run/udev?)")
            }
            self.udev = udev
            context = li
        case .paths(let paths):
            guard let li = libinput_path_create_context(&libinputInterface, Unmanaged.passUnretained(logSink).toOpaque()) else {
                throw MonitorError(description: "libinput_path_create_context failed")
            }
            LogSink.attach(to: li)
            udev = nil
            context = li
            // A node that does not exist is not handed to libinput, which
            // would log a "client bug" about it: the daemon's start-up probe
            // of the given nodes names it, with the reason.
            for path in paths where access(path, F_OK) == 0 && libinput_path_add_device(li, path) == nil {
                logSink.failedOpens.removeAll { $0 == path }     // reported here, with the reason
                pending.append(.deviceFailed(path: path, reason: Self.explainFailure(path)))
            }
        }
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            libinput_unref(context)
            throw MonitorError(description: "epoll_create1 failed: \(String(cString: strerror(errno)))")
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: libinput_get_fd(context)))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, libinput_get_fd(context), &event) == 0 else {
            let reason = String(cString: strerror(errno))
            close(epollFD)
            libinput_unref(context)
            throw MonitorError(description: "epoll_ctl(libinput's fd) failed: \(reason)")
        }
    }

    deinit {
        thirdButtonReaders.removeAll()
        close(epollFD)
        libinput_unref(context)
        if let udev { udev_unref(udev) }
    }

    /// Reads what libinput (and any third-button reader) has and hands each
    /// input over in order.
    public func dispatch(_ body: (LiveInput) -> Void) {
        collectFailedOpens()
        for input in pending { body(input) }
        pending.removeAll()
        for (device, reader) in thirdButtonReaders {
            guard let id = ids[device] else { continue }
            reader.drain { pressed, time in
                body(.pen(TimedPenInput(.button(id, .side(.stylus3), pressed: pressed), at: time)))
            }
        }
        libinput_dispatch(context)
        while let event = libinput_get_event(context) {
            translate(event, body)
            libinput_event_destroy(event)
        }
        collectFailedOpens()
        for input in pending { body(input) }
        pending.removeAll()
    }

    /// Only pens are reported: on a seat, libinput also tries every keyboard
    /// and mouse, which a user outside the input group cannot open either.
    private func collectFailedOpens() {
        // stylusd's own clones are refused on purpose (open_restricted): not a failure to report.
        for path in logSink.failedOpens where NodeAccess.looksLikePen(path) && !Self.isStylusdClone(devnode: path) {
            pending.append(.deviceFailed(path: path, reason: Self.explainFailure(path)))
        }
        logSink.failedOpens.removeAll()
    }

    private func translate(_ event: OpaquePointer, _ body: (LiveInput) -> Void) {
        let device = libinput_event_get_device(event)!
        switch libinput_event_get_type(event) {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            let kind: DeviceKind
            if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0 {
                kind = .pen
            } else if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_PAD) != 0 {
                kind = .pad
            } else {
                return
            }
            let name = String(cString: libinput_device_get_name(device))
            // stylusd's own virtual pens (filter mode) are for the desktop, not for stylusd.
            if name.hasSuffix(Self.cloneNameSuffix) { return }
            let id = DeviceID(nextID)
            nextID += 1
            ids[device] = id
            let node = String(cString: libinput_device_get_sysname(device))
            nodePaths[id] = "/dev/input/\(node)"
            if kind == .pen, let reader = ThirdButtonReader(path: "/dev/input/\(node)") {
                var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: reader.fd))
                if epoll_ctl(epollFD, EPOLL_CTL_ADD, reader.fd, &event) == 0 {
                    thirdButtonReaders[device] = reader
                } else {
                    body(.notice("cannot follow BTN_STYLUS3 of /dev/input/\(node): epoll_ctl: \(String(cString: strerror(errno))); its third button is not read"))
                }
            }
            let info = DeviceInfo(name: "\(name) (/dev/input/\(node))", kind: kind, area: kind == .pen ? Self.penArea(device, node: node) : nil)
            body(.pen(TimedPenInput(.deviceAdded(id, info), at: monotonicMicroseconds())))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let id = ids.removeValue(forKey: device) else { return }
            nodePaths[id] = nil
            if let reader = thirdButtonReaders.removeValue(forKey: device) {
                // Closing the reader's fd takes it out of the epoll set anyway; this only makes it explicit.
                _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, reader.fd, nil)
            }
            body(.pen(TimedPenInput(.deviceRemoved(id), at: monotonicMicroseconds())))
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, LIBINPUT_EVENT_TABLET_TOOL_TIP,
             LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            guard let id = ids[device], let tool = libinput_event_get_tablet_tool_event(event) else { return }
            body(.pen(TimedPenInput(toolInput(tool, id, type: libinput_event_get_type(event)), at: Int64(libinput_event_tablet_tool_get_time_usec(tool)))))
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON:
            guard let id = ids[device], let pad = libinput_event_get_tablet_pad_event(event) else { return }
            let number = Int(libinput_event_tablet_pad_get_button_number(pad))
            guard number < ButtonID.maxPadButtons else { return }
            let pressed = libinput_event_tablet_pad_get_button_state(pad) == LIBINPUT_BUTTON_STATE_PRESSED
            body(.pen(TimedPenInput(.button(id, .pad(number), pressed: pressed), at: Int64(libinput_event_tablet_pad_get_time_usec(pad)))))
        default:
            return
        }
    }

    private func toolInput(_ event: OpaquePointer, _ id: DeviceID, type: libinput_event_type) -> PenInput {
        let axes = Self.axes(event)
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
            if libinput_event_tablet_tool_get_proximity_state(event) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN {
                let tool = libinput_event_tablet_tool_get_tool(event)!
                return .proximityIn(id, Tool(type: Self.toolType(tool), serial: libinput_tablet_tool_get_serial(tool), toolID: libinput_tablet_tool_get_tool_id(tool)), axes)
            }
            return .proximityOut(id)
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            return libinput_event_tablet_tool_get_tip_state(event) == LIBINPUT_TABLET_TOOL_TIP_DOWN ? .tipDown(id, axes) : .tipUp(id, axes)
        case LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            let code = UInt16(truncatingIfNeeded: libinput_event_tablet_tool_get_button(event))
            let pressed = libinput_event_tablet_tool_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
            guard let side = SideButton(evdevCode: code) else { return .motion(id, axes) }
            return .button(id, .side(side), pressed: pressed)
        default:
            return .motion(id, axes)
        }
    }

    /// libinput's own normalisation: pressure already corrects worn-pen
    /// offsets, positions come scaled to the area and in millimetres.
    private static func axes(_ e: OpaquePointer) -> PenAxes {
        PenAxes(x: libinput_event_tablet_tool_get_x_transformed(e, 1), y: libinput_event_tablet_tool_get_y_transformed(e, 1),
                xMM: libinput_event_tablet_tool_get_x(e), yMM: libinput_event_tablet_tool_get_y(e),
                pressure: libinput_event_tablet_tool_get_pressure(e), distance: libinput_event_tablet_tool_get_distance(e),
                tiltX: libinput_event_tablet_tool_get_tilt_x(e), tiltY: libinput_event_tablet_tool_get_tilt_y(e))
    }

    private static func toolType(_ tool: OpaquePointer) -> ToolType {
        switch libinput_tablet_tool_get_type(tool) {
        case LIBINPUT_TABLET_TOOL_TYPE_ERASER: .eraser
        case LIBINPUT_TABLET_TOOL_TYPE_BRUSH: .brush
        case LIBINPUT_TABLET_TOOL_TYPE_PENCIL: .pencil
        case LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: .airbrush
        case LIBINPUT_TABLET_TOOL_TYPE_MOUSE: .mouse
        case LIBINPUT_TABLET_TOOL_TYPE_LENS: .lens
        default: .pen
        }
    }

    /// libinput says only "failed"; opening the node ourselves finds out why.
    static func explainFailure(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return NodeAccess.explain(errno: errno, path: path) }
        close(fd)
        return "libinput refused the device (not a tablet libinput supports, or udev has no entry for it yet)"
    }
}

/// libinput keeps a pointer to this table for as long as the context lives,
/// so it is a global, not a temporary.
nonisolated(unsafe) private var libinputInterface = libinput_interface(
    open_restricted: { path, flags, _ in
        // stylusd's own virtual pens: skipped when added (below) is too late,
        // libinput would still read and process every frame the clone gets,
        // the whole pen stream a second time (seen in filter mode's benchmark).
        if LibinputMonitor.isStylusdClone(devnode: String(cString: path!)) { return -ENODEV }
        let fd = open(path!, flags | O_CLOEXEC)
        return fd < 0 ? -errno : fd
    },
    close_restricted: { fd, _ in
        close(fd)
    }
)
