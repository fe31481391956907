// SPDX-License-Identifier: MIT
import CGtk4
import CXcb
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// The canvas on an X server through xcb: a 32-bit ARGB window per monitor
/// (X11Canvas), the monitors from RandR as GDK lists them (same order,
/// connector, maker and millimetres, so `--monitor` picks the same ones),
/// and the connection in GLib's main loop beside the daemon's link. Far
/// lighter than a GTK window, which renders with GL (on a software
/// rasteriser, often) even for a canvas that only shows cairo's pixels.
/// An X server that goes away ends the program (status 69) with a line.
@MainActor
final class X11Backend: CanvasBackend {
    let name = "x11"
    let connection: OpaquePointer
    let root: xcb_window_t
    private let screenNumber: Int32
    private let screenSize: (width: Int, height: Int, widthMM: Int, heightMM: Int)
    /// The TrueColor depth-32 visual (ARGB) and a colormap of it, which a window of another depth than the root's needs.
    let visual: xcb_visualid_t
    let colormap: xcb_colormap_t
    let atoms: X11Atoms
    private let randr: stylus_xext
    let shapes: Bool
    private(set) var keymap = X11Keymap()
    weak var owner: CanvasSurfaceOwner?
    private var canvases: [xcb_window_t: X11Canvas] = [:]
    private var cachedMonitors: [MonitorShape]?
    private var monitorsChangePending = false
    /// Events xcb read while it waited for a reply: the socket no longer wakes the loop for them.
    nonisolated(unsafe) static var queued: [UnsafeMutablePointer<xcb_generic_event_t>] = []
    nonisolated(unsafe) static var currentConnection: OpaquePointer?

    /// Connects to $DISPLAY; nil (with a line saying why) when there is no X server or no ARGB visual.
    init?() {
        var number: Int32 = 0
        guard let connection = xcb_connect(nil, &number) else { return nil }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            return nil
        }
        var roots = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<number where roots.rem > 0 { xcb_screen_next(&roots) }
        guard roots.rem > 0, let screenPointer = roots.data else {
            xcb_disconnect(connection)
            return nil
        }
        let screen = screenPointer.pointee
        guard let visual = Self.argbVisual(screenPointer) else {
            printError("stylus-canvas: the X server offers no 32-bit TrueColor visual: the canvas cannot be see-through\n")
            xcb_disconnect(connection)
            return nil
        }
        self.connection = connection
        screenNumber = number
        root = screen.root
        screenSize = (Int(screen.width_in_pixels), Int(screen.height_in_pixels), Int(screen.width_in_millimeters), Int(screen.height_in_millimeters))
        self.visual = visual
        colormap = xcb_generate_id(connection)
        xcb_create_colormap(connection, UInt8(XCB_COLORMAP_ALLOC_NONE.rawValue), colormap, root, visual)
        atoms = X11Atoms(connection, screen: number)
        randr = stylus_randr(connection)
        shapes = stylus_shape(connection).present != 0
        if randr.present != 0, stylus_randr_version(connection) >= 102 {
            stylus_randr_select_input(connection, root, 1 | 2 | 4)   // screen, CRTC and output changes
        }
        keymap.load(connection)
        Self.currentConnection = connection
    }

    /// The screen in the setup's memory: its depths follow it there.
    private static func argbVisual(_ screen: UnsafeMutablePointer<xcb_screen_t>) -> xcb_visualid_t? {
        var depths = xcb_screen_allowed_depths_iterator(screen)
        while depths.rem > 0 {
            if depths.data.pointee.depth == 32 {
                var visuals = xcb_depth_visuals_iterator(depths.data)
                while visuals.rem > 0 {
                    if visuals.data.pointee._class == UInt8(XCB_VISUAL_CLASS_TRUE_COLOR.rawValue) { return visuals.data.pointee.visual_id }
                    xcb_visualtype_next(&visuals)
                }
            }
            xcb_depth_next(&depths)
        }
        return nil
    }

    /// Hooks the connection into GLib's main loop: its socket, and a source that flushes before each poll.
    func start() {
        g_source_attach(X11Pump.makeSource(), nil)
        g_unix_fd_add(xcb_get_file_descriptor(connection), GIOCondition(G_IO_IN.rawValue | G_IO_ERR.rawValue | G_IO_HUP.rawValue), { _, _, data in
            onMain(data, X11Backend.self) { $0.readEvents() }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
        X11Pump.backend = Unmanaged.passUnretained(self).toOpaque()
    }

    func flush() { xcb_flush(connection) }

    /// Whether a compositing manager draws the screen (it owns `_NET_WM_CM_S<screen>`): without one a
    /// 32-bit window's transparent pixels show black.
    var composited: Bool {
        guard let reply = xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, atoms.compositingManager), nil) else { return false }
        defer { free(reply) }
        return reply.pointee.owner != 0
    }

    // MARK: Monitors

    /// GDK's list on X11: RandR 1.5's active monitors in the server's order, each named after its
    /// first output (one whose output is disconnected is left out); without them, the whole screen.
    func monitors() -> [MonitorShape] {
        if let cachedMonitors { return cachedMonitors }
        var found = [stylus_monitor](repeating: stylus_monitor(), count: 32)
        let n = randr.present != 0 ? Int(stylus_randr_monitors(connection, root, &found, Int32(found.count))) : -1
        var shapes: [MonitorShape] = found.prefix(max(n, 0)).map { m in
            var m = m
            let connector = withUnsafeBytes(of: &m.connector) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            let maker = withUnsafeBytes(of: &m.manufacturer) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            return MonitorShape(connector: connector.isEmpty ? nil : connector, manufacturer: maker.isEmpty ? nil : maker,
                                x: Int(m.x), y: Int(m.y), width: Int(m.width), height: Int(m.height),
                                widthMM: Int(m.width_mm), heightMM: Int(m.height_mm))
        }
        if shapes.isEmpty {
            shapes = [MonitorShape(connector: nil, manufacturer: nil, x: 0, y: 0, width: screenSize.width, height: screenSize.height,
                                   widthMM: screenSize.widthMM, heightMM: screenSize.heightMM)]
        }
        cachedMonitors = shapes
        return shapes
    }

    func makeSurface(owner: CanvasSurfaceOwner, monitor: Int, geometry: InkGeometry) -> CanvasSurface {
        let all = monitors()
        let canvas = X11Canvas(owner: owner, backend: self, monitor: all[min(monitor, all.count - 1)], geometry: geometry)
        canvases[canvas.window] = canvas
        return canvas
    }

    func forget(_ window: xcb_window_t) { canvases[window] = nil }

    /// A burst of RandR events (one change sends several) is one monitorsChanged.
    private func randrChanged() {
        cachedMonitors = nil
        guard !monitorsChangePending else { return }
        monitorsChangePending = true
        after(milliseconds: 50) { [weak self] in
            guard let self else { return }
            monitorsChangePending = false
            cachedMonitors = nil
            owner?.monitorsChanged()
        }
    }

    // MARK: Events

    func readEvents() {
        while !Self.queued.isEmpty {
            let event = Self.queued.removeFirst()
            handle(event)
            free(event)
        }
        while let event = xcb_poll_for_event(connection) {
            handle(event)
            free(event)
        }
        if xcb_connection_has_error(connection) != 0 {
            printError("stylus-canvas: the X server closed the connection; exiting\n")
            exit(69)
        }
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let type = event.pointee.response_type & 0x7f
        let raw = UnsafeRawPointer(event)
        if randr.present != 0, type == randr.first_event || type == randr.first_event &+ 1 {
            randrChanged()
            return
        }
        switch Int32(type) {
        case 0:
            let error = raw.load(as: xcb_generic_error_t.self)
            owner?.log("X error \(error.error_code) (request \(error.major_code).\(error.minor_code), resource \(error.resource_id))")
        case XCB_EXPOSE:
            let e = raw.load(as: xcb_expose_event_t.self)
            canvases[e.window]?.exposed(x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height))
        case XCB_CONFIGURE_NOTIFY:
            let e = raw.load(as: xcb_configure_notify_event_t.self)
            canvases[e.window]?.configured(width: Int32(e.width), height: Int32(e.height))
        case XCB_MAP_NOTIFY:
            let e = raw.load(as: xcb_map_notify_event_t.self)
            canvases[e.window]?.serverMapped()
        case XCB_KEY_PRESS:
            let e = raw.load(as: xcb_key_press_event_t.self)
            guard let canvas = canvases[e.event], let keysym = keymap.keysym(e.detail) else { return }
            let control = e.state & UInt16(XCB_MOD_MASK_CONTROL.rawValue) != 0
            let shift = e.state & UInt16(XCB_MOD_MASK_SHIFT.rawValue) != 0
            if let key = CanvasKey(keysym: keysym, control: control, shift: shift) { canvas.keyPressed(key) }
        case XCB_CLIENT_MESSAGE:
            let e = raw.load(as: xcb_client_message_event_t.self)
            if e.type == atoms.protocols, e.data.data32.0 == atoms.deleteWindow { canvases[e.window]?.closeRequested() }
        case XCB_MAPPING_NOTIFY:
            let e = raw.load(as: xcb_mapping_notify_event_t.self)
            if e.request == UInt8(XCB_MAPPING_KEYBOARD.rawValue) { keymap.load(connection) }
        default: break
        }
    }

    // MARK: Properties

    func setProperty(_ window: xcb_window_t, _ property: xcb_atom_t, _ type: xcb_atom_t, _ values: [UInt32]) {
        xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 32, UInt32(values.count), values)
    }

    func setProperty(_ window: xcb_window_t, _ property: xcb_atom_t, _ type: xcb_atom_t, bytes: [UInt8]) {
        xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32(bytes.count), bytes)
    }
}

/// The GLib source that flushes the X connection before each poll, and picks up events xcb
/// queued while it waited for a reply (the socket will not wake the loop for those).
enum X11Pump {
    nonisolated(unsafe) static var backend: UnsafeMutableRawPointer?

    static func makeSource() -> UnsafeMutablePointer<GSource> {
        var funcs = GSourceFuncs()
        funcs.prepare = { _, timeout in
            guard let connection = X11Backend.currentConnection else { return 0 }
            xcb_flush(connection)
            while let event = xcb_poll_for_queued_event(connection) { X11Backend.queued.append(event) }
            timeout?.pointee = X11Backend.queued.isEmpty ? -1 : 0
            return X11Backend.queued.isEmpty ? 0 : 1
        }
        funcs.check = { _ in X11Backend.queued.isEmpty ? 0 : 1 }
        funcs.dispatch = { _, _, _ in
            if let backend = X11Pump.backend { onMain(backend, X11Backend.self) { $0.readEvents() } }
            return 1
        }
        return g_source_new(allocate(funcs), guint(MemoryLayout<GSource>.size))
    }
}
