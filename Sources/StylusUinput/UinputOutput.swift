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

    var engineConfig: EngineConfig
    var filterConfig: FilterConfig
    let epollFD: Int32
    var nodes: [DeviceID: Node] = [:]
    /// Every pad the daemon reported, grabbed or not: a reload may bind one of its buttons.
    var pads: [DeviceID: OutputDevice] = [:]
    var canvas = CanvasState.minimized
    var out: [EvdevEvent] = []
    var wire: [input_event] = []
    var inputs: [TimedPenInput] = []
    var readyEvents = [epoll_event](repeating: epoll_event(), count: 8)
    let log: (String) -> Void
    let watchdog: GrabWatchdog

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
        for node in nodes.values { node.filter.reconfigure(filter: filter) }
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

    public func flush() {}

    /// Every grab is released at once and every clone destroyed.
    public func close() {
        watchdog.stop()
        for n in nodes.values { release(n) }
        nodes.removeAll()
        if epollFD >= 0 { Glibc.close(epollFD) }
    }
}
