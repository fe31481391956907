// SPDX-License-Identifier: MIT
import CLibevdev
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// The virtual keyboard and pointer that `key:` and `click:` bindings
/// write to. Named like the pen clones (" (stylusd)", phys "stylusd/…"),
/// so stylusd's own monitor and probe skip them.
///
/// A chord goes out as one frame per key: modifiers pressed first, in
/// order, the key, then released in the reverse order. If stylusd dies
/// between press and release, the kernel destroys the devices with their
/// last descriptor and releases every key still down on them (evdev
/// clients see the releases), so nothing stays held.
public final class ActionDevices {
    public static let keyboardName = "Pen actions keyboard" + LibinputMonitor.cloneNameSuffix
    public static let pointerName = "Pen actions pointer" + LibinputMonitor.cloneNameSuffix
    public static let keyboardPhys = LibinputMonitor.clonePhysPrefix + "keyboard"
    public static let pointerPhys = LibinputMonitor.clonePhysPrefix + "pointer"

    private let keyboard: VirtualDevice
    private let pointer: VirtualDevice

    /// The keyboard's and the pointer's /dev/input nodes.
    public var keyboardNode: String { keyboard.devnode }
    public var pointerNode: String { pointer.devnode }

    /// Creates both devices; throws why not, with the fix when it is /dev/uinput's access.
    public init() throws(ActionDevicesError) {
        if let reason = UinputOutput.unavailableReason() { throw ActionDevicesError(reason: reason) }
        keyboard = try VirtualDevice(name: Self.keyboardName, phys: Self.keyboardPhys) { dev in
            libevdev_enable_event_type(dev, UInt32(EV.key))
            // Every key of the keyboard block, so any chord a config names can be written.
            for code in 1..<UInt32(0x100) { libevdev_enable_event_code(dev, UInt32(EV.key), code, nil) }
        }
        pointer = try VirtualDevice(name: Self.pointerName, phys: Self.pointerPhys) { dev in
            libevdev_enable_event_type(dev, UInt32(EV.key))
            for button in PointerButton.allCases { libevdev_enable_event_code(dev, UInt32(EV.key), UInt32(button.code), nil) }
            // Relative axes make libinput and udev take it for a mouse; nothing moves it.
            libevdev_enable_event_type(dev, UInt32(EV.rel))
            for code: UInt32 in [0, 1, 8] { libevdev_enable_event_code(dev, UInt32(EV.rel), code, nil) }   // REL_X, REL_Y, REL_WHEEL
            libevdev_enable_property(dev, 0)   // INPUT_PROP_POINTER
        }
    }

    /// Presses and releases `chord`; nil when written, else why not.
    public func press(_ chord: KeyChord) -> String? {
        let order = chord.pressOrder
        for code in order { if let failure = keyboard.frame(key: code, down: true) { return releaseAll(order, after: failure) } }
        // Every release is tried, even after one failed: a modifier must not stay held.
        var firstFailure: String?
        for code in order.reversed() {
            if let failure = keyboard.frame(key: code, down: false), firstFailure == nil { firstFailure = failure }
        }
        return firstFailure
    }

    /// A click of `button` where the cursor is; nil when written, else why not.
    public func click(_ button: PointerButton) -> String? {
        if let failure = pointer.frame(key: button.code, down: true) { return failure }
        return pointer.frame(key: button.code, down: false)
    }

    /// A press failed half-way: what was pressed is released, best effort.
    private func releaseAll(_ order: [UInt16], after failure: String) -> String {
        for code in order.reversed() { _ = keyboard.frame(key: code, down: false) }
        return failure
    }
}

public struct ActionDevicesError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// One uinput device made from a libevdev description, phys set.
private final class VirtualDevice {
    let uinput: OpaquePointer
    let fd: Int32
    let devnode: String

    init(name: String, phys: String, enable: (OpaquePointer) -> Void) throws(ActionDevicesError) {
        guard let dev = libevdev_new() else { throw ActionDevicesError(reason: "libevdev_new failed") }
        defer { libevdev_free(dev) }
        libevdev_set_name(dev, name)
        libevdev_set_id_bustype(dev, 0x06)   // BUS_VIRTUAL
        enable(dev)
        let fd = open("/dev/uinput", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw ActionDevicesError(reason: "cannot open /dev/uinput: \(String(cString: strerror(errno)))") }
        var created: OpaquePointer?
        var rc: Int32 = stylusd_uinput_set_phys(fd, phys) == 0 ? 0 : -errno
        if rc == 0 { rc = libevdev_uinput_create_from_device(dev, fd, &created) }
        guard rc == 0, let created else {
            close(fd)
            throw ActionDevicesError(reason: "cannot create \(name): \(String(cString: strerror(-rc)))")
        }
        uinput = created
        self.fd = fd
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? "?"
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        close(fd)
    }

    /// A key event and its SYN_REPORT; nil when written.
    func frame(key code: UInt16, down: Bool) -> String? {
        var rc = libevdev_uinput_write_event(uinput, UInt32(EV.key), UInt32(code), down ? 1 : 0)
        if rc == 0 { rc = libevdev_uinput_write_event(uinput, UInt32(EV.syn), UInt32(SYN.report), 0) }
        return rc == 0 ? nil : "writing to \(devnode) failed: \(String(cString: strerror(-rc)))"
    }
}
