// SPDX-License-Identifier: MIT
import CXcb
import CanvasModel
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// The mouse, touchpad and touchscreen on the X11 canvas, through XInput 2
/// (2.2 for touch): XI2 names the device each event comes from, so a tablet's
/// pen, whose strokes the daemon's own stream draws, is never drawn twice. A
/// tablet tool is a slave pointer with an "Abs Pressure" valuator, or one whose
/// name says stylus, pen or eraser (xf86-input-wacom's and libinput's names,
/// and the daemon's clones', "… (stylusd)"). The left button draws; one
/// finger draws, a second ends the stroke without drawing it.
@MainActor
final class X11PointerInput {
    private let connection: OpaquePointer
    private let root: xcb_window_t
    /// XInput's major opcode: a generic event carrying it is ours.
    let opcode: UInt8
    /// The setting, the stream to the daemon and the live ink, as every backend has them.
    let strokes = PointerStrokes()
    private var tablets: Set<UInt16> = []
    /// The window a left-button stroke is drawn on.
    private var pressed: xcb_window_t?
    /// The finger that draws, and every finger down; after a second finger nothing
    /// draws until all have lifted.
    private var drawingTouch: UInt32?
    private var touches: Set<UInt32> = []
    private var touchCancelled = false

    static let pressureLabel = "Abs Pressure"

    init?(connection: OpaquePointer, root: xcb_window_t) {
        guard let info = xcb_get_extension_data(connection, stylus_input_id()), info.pointee.present != 0 else { return nil }
        guard let version = xcb_input_xi_query_version_reply(connection, xcb_input_xi_query_version(connection, 2, 2), nil) else { return nil }
        let major = version.pointee.major_version, minor = version.pointee.minor_version
        free(version)
        guard major > 2 || (major == 2 && minor >= 2) else { return nil }
        self.connection = connection
        self.root = root
        opcode = info.pointee.major_opcode
        // The server takes hierarchy changes for every device only (BadValue for the masters).
        select(root, XCB_INPUT_XI_EVENT_MASK_HIERARCHY.rawValue, device: UInt16(XCB_INPUT_DEVICE_ALL.rawValue))
        loadTablets()
    }

    /// What the canvas window hears: buttons, motion, touches, from every master pointer.
    func select(window: xcb_window_t) {
        select(window, XCB_INPUT_XI_EVENT_MASK_BUTTON_PRESS.rawValue | XCB_INPUT_XI_EVENT_MASK_BUTTON_RELEASE.rawValue
                   | XCB_INPUT_XI_EVENT_MASK_MOTION.rawValue | XCB_INPUT_XI_EVENT_MASK_TOUCH_BEGIN.rawValue
                   | XCB_INPUT_XI_EVENT_MASK_TOUCH_UPDATE.rawValue | XCB_INPUT_XI_EVENT_MASK_TOUCH_END.rawValue)
    }

    private func select(_ window: xcb_window_t, _ bits: UInt32, device: UInt16 = UInt16(XCB_INPUT_DEVICE_ALL_MASTER.rawValue)) {
        // An event mask header (device id, mask length in words) and its one word of bits.
        let words: [UInt32] = [UInt32(device) | 1 << 16, bits]
        words.withUnsafeBytes { bytes in
            xcb_input_xi_select_events(connection, window, 1, bytes.baseAddress!.assumingMemoryBound(to: xcb_input_event_mask_t.self))
        }
    }

    /// The slave pointers that are tablet tools.
    private func loadTablets() {
        tablets = []
        guard let reply = xcb_input_xi_query_device_reply(connection, xcb_input_xi_query_device(connection, UInt16(XCB_INPUT_DEVICE_ALL.rawValue)), nil) else { return }
        defer { free(reply) }
        var devices = xcb_input_xi_query_device_infos_iterator(reply)
        while devices.rem > 0, let device = devices.data {
            defer { xcb_input_xi_device_info_next(&devices) }
            guard device.pointee.type == UInt16(XCB_INPUT_DEVICE_TYPE_SLAVE_POINTER.rawValue) else { continue }
            let name = Self.text(xcb_input_xi_device_info_name(device), Int(device.pointee.name_len)).lowercased()
            var tablet = ["stylus", " pen", "eraser", "(stylusd)"].contains { name.contains($0) }
            var classes = xcb_input_xi_device_info_classes_iterator(device)
            while !tablet, classes.rem > 0, let c = classes.data {
                if c.pointee.type == UInt16(XCB_INPUT_DEVICE_CLASS_TYPE_VALUATOR.rawValue) {
                    let label = UnsafeRawPointer(c).load(as: xcb_input_valuator_class_t.self).label
                    tablet = atomName(label) == Self.pressureLabel
                }
                xcb_input_device_class_next(&classes)
            }
            if tablet { tablets.insert(device.pointee.deviceid) }
        }
    }

    private func atomName(_ atom: xcb_atom_t) -> String? {
        guard atom != 0, let reply = xcb_get_atom_name_reply(connection, xcb_get_atom_name(connection, atom), nil) else { return nil }
        defer { free(reply) }
        return Self.text(xcb_get_atom_name_name(reply), Int(xcb_get_atom_name_name_length(reply)))
    }

    /// A counted string of the server's (no terminating zero).
    private static func text(_ start: UnsafeMutablePointer<CChar>?, _ count: Int) -> String {
        guard let start, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Asks the daemon for `[canvas] pointer` (at each opening: a reload applies from the next).
    func refreshSetting(owner: CanvasOverlay, changed: @escaping @MainActor () -> Void) {
        strokes.refreshSetting(owner: owner, changed: changed)
    }

    // MARK: Events

    /// A generic event of XInput's: a device change, or input on a canvas window.
    func handle(_ raw: UnsafeRawPointer, canvas: (xcb_window_t) -> X11Canvas?, owner: CanvasOverlay?) {
        let type = raw.load(fromByteOffset: 8, as: UInt16.self)
        if type == UInt16(XCB_INPUT_HIERARCHY) { return loadTablets() }
        let e = raw.load(as: xcb_input_button_press_event_t.self)
        guard let owner, strokes.draws, let surface = canvas(e.event) else { return }
        let point = surface.inkPoint(x: Double(e.event_x) / 65536, y: Double(e.event_y) / 65536)
        switch Int32(type) {
        case XCB_INPUT_BUTTON_PRESS, XCB_INPUT_MOTION, XCB_INPUT_BUTTON_RELEASE:
            // The pen's own events (the daemon draws it), and a touch's pointer emulation (its touch events draw).
            guard !tablets.contains(e.sourceid), e.flags & XCB_INPUT_POINTER_EVENT_FLAGS_POINTER_EMULATED.rawValue == 0 else { return }
            if type == UInt16(XCB_INPUT_BUTTON_PRESS) {
                guard e.detail == 1, owner.drawsWithPointer else { return }
                pressed = e.event
                stroke(.pointer, .down, point, surface: surface, owner: owner)
            } else if pressed == e.event {
                let up = type == UInt16(XCB_INPUT_BUTTON_RELEASE)
                if up, e.detail != 1 { return }
                if up { pressed = nil }
                stroke(.pointer, up ? .up : .move, point, surface: surface, owner: owner)
            }
        case XCB_INPUT_TOUCH_BEGIN:
            touches.insert(e.detail)
            if touches.count == 1 {
                touchCancelled = false
                guard !tablets.contains(e.sourceid), owner.drawsWithPointer else { return }
                drawingTouch = e.detail
                stroke(.touch, .down, point, surface: surface, owner: owner)
            } else if drawingTouch != nil, !touchCancelled {
                touchCancelled = true
                drawingTouch = nil
                strokes.cancel(.touch, owner: owner)
            }
        case XCB_INPUT_TOUCH_UPDATE:
            guard drawingTouch == e.detail else { return }
            stroke(.touch, .move, point, surface: surface, owner: owner)
        case XCB_INPUT_TOUCH_END:
            touches.remove(e.detail)
            guard drawingTouch == e.detail else { return }
            drawingTouch = nil
            stroke(.touch, .up, point, surface: surface, owner: owner)
        default: break
        }
    }

    private func stroke(_ source: StrokeSource, _ phase: DrawRequest.Phase, _ point: InkPoint, surface: X11Canvas, owner: CanvasOverlay) {
        strokes.send(source, phase, point, geometry: surface.layers.geometry, owner: owner)
    }
}

extension X11Backend {
    /// The canvas takes pointer input to draw with it: `[canvas] pointer = "draw"`, with
    /// XInput 2 to tell the pen from the mouse (without it, the mouse passes as before).
    var pointerDraws: Bool { pointerInput?.strokes.draws ?? false }
}
