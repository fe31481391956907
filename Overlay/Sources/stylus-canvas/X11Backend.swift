// SPDX-License-Identifier: MIT
import CGlib
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
    /// RandR's first event code; nil when the server has no RandR.
    private let randrFirstEvent: UInt8?
    let shapes: Bool
    /// XInput 2: the mouse and touch that draw; nil on a server without XI 2.2.
    let pointerInput: X11PointerInput?
    private(set) var keymap = X11Keymap()
    weak var owner: CanvasSurfaceOwner?
    private(set) var canvases: [xcb_window_t: X11Canvas] = [:]
    /// Made on the first copy: a canvas never copied from owns no selection.
    private(set) lazy var clipboard = X11Clipboard(connection: connection, root: root)
    var clipboardMade = false
    /// XFIXES's SelectionNotify for the compositing manager's selection, where the server has XFIXES.
    private var compositorWatchEvent: UInt8?
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
        randrFirstEvent = Self.extensionInfo(connection, stylus_randr_id())?.first_event
        shapes = Self.extensionInfo(connection, stylus_shape_id()) != nil
        compositorWatchEvent = Self.watchCompositingManager(connection, root: root, selection: atoms.compositingManager)
        pointerInput = X11PointerInput(connection: connection, root: screen.root)
        if randrFirstEvent != nil, Self.randrVersion(connection) >= 102 {
            let changes = XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
                | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue
            xcb_randr_select_input(connection, root, UInt16(changes))
        }
        keymap.load(connection)
        Self.currentConnection = connection
    }

    /// What the server said of an extension when xcb asked (once a connection); nil when it has none.
    private static func extensionInfo(_ connection: OpaquePointer, _ id: OpaquePointer) -> xcb_query_extension_reply_t? {
        guard let reply = xcb_get_extension_data(connection, id), reply.pointee.present != 0 else { return nil }
        return reply.pointee
    }

    /// Asks XFIXES to say when `_NET_WM_CM_S<screen>` changes hands (a compositing manager
    /// starts, ends or dies), so that an open canvas changes between see-through and shaped to
    /// its ink at once, not at its next opening. The event's number; nil without XFIXES 2.
    private static func watchCompositingManager(_ connection: OpaquePointer, root: xcb_window_t, selection: xcb_atom_t) -> UInt8? {
        guard let info = extensionInfo(connection, stylus_xfixes_id()),
              let reply = xcb_xfixes_query_version_reply(connection, xcb_xfixes_query_version(connection, 5, 0), nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.major_version >= 2 else { return nil }
        let changes = XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        xcb_xfixes_select_selection_input(connection, root, selection, changes)
        return info.first_event &+ UInt8(XCB_XFIXES_SELECTION_NOTIFY)
    }

    /// The RandR version the server speaks once told ours (1.5), as major * 100 + minor; 0 when it cannot tell.
    private static func randrVersion(_ connection: OpaquePointer) -> Int {
        guard let reply = xcb_randr_query_version_reply(connection, xcb_randr_query_version(connection, 1, 5), nil) else { return 0 }
        defer { free(reply) }
        return Int(reply.pointee.major_version) * 100 + Int(reply.pointee.minor_version)
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
        var shapes = randrFirstEvent != nil ? randrMonitors() : []
        if shapes.isEmpty {
            shapes = [MonitorShape(connector: nil, manufacturer: nil, x: 0, y: 0, width: screenSize.width, height: screenSize.height,
                                   widthMM: screenSize.widthMM, heightMM: screenSize.heightMM)]
        }
        cachedMonitors = shapes
        return shapes
    }

    /// RandR 1.5's active monitors; none when the server speaks an older RandR.
    private func randrMonitors() -> [MonitorShape] {
        guard Self.randrVersion(connection) >= 105 else { return [] }
        let edid = xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 1, 4, "EDID"), nil)
        defer { free(edid) }
        guard let reply = xcb_randr_get_monitors_reply(connection, xcb_randr_get_monitors(connection, root, 1), nil) else { return [] }
        defer { free(reply) }
        var shapes: [MonitorShape] = []
        var monitors = xcb_randr_get_monitors_monitors_iterator(reply)
        while monitors.rem > 0, let info = monitors.data {
            defer { xcb_randr_monitor_info_next(&monitors) }
            let m = info.pointee
            var connector: String?, maker: String?
            if m.nOutput > 0, let output = xcb_randr_monitor_info_outputs(info)?.pointee {
                // GDK leaves out a monitor whose first output is disconnected.
                guard let name = outputName(output) else { continue }
                connector = name.isEmpty ? nil : name
                maker = edid.flatMap { outputMaker(output, edid: $0.pointee.atom) }
            }
            shapes.append(MonitorShape(connector: connector, manufacturer: maker, x: Int(m.x), y: Int(m.y),
                                       width: Int(m.width), height: Int(m.height),
                                       widthMM: Int(m.width_in_millimeters), heightMM: Int(m.height_in_millimeters)))
        }
        return shapes
    }

    /// The output's name (`DP-1`); nil when it is disconnected or unknown.
    private func outputName(_ output: xcb_randr_output_t) -> String? {
        guard let reply = xcb_randr_get_output_info_reply(connection, xcb_randr_get_output_info(connection, output, 0), nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.connection != UInt8(XCB_RANDR_CONNECTION_DISCONNECTED.rawValue) else { return nil }
        let name = UnsafeBufferPointer(start: xcb_randr_get_output_info_name(reply), count: Int(xcb_randr_get_output_info_name_length(reply)))
        return String(decoding: name, as: UTF8.self)
    }

    /// The maker's PNP ID (`DEL`) from the output's EDID property, as GDK reads it.
    private func outputMaker(_ output: xcb_randr_output_t, edid: xcb_atom_t) -> String? {
        guard edid != 0 else { return nil }
        let cookie = xcb_randr_get_output_property(connection, output, edid, xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0, 32, 0, 0)
        guard let reply = xcb_randr_get_output_property_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type == XCB_ATOM_INTEGER.rawValue, reply.pointee.format == 8,
              xcb_randr_get_output_property_data_length(reply) >= 10, let data = xcb_randr_get_output_property_data(reply) else { return nil }
        let id = UInt16(data[8]) << 8 | UInt16(data[9])
        // Three letters of five bits each, 1 for A.
        return String(decoding: [10, 5, 0].map { UInt8(64 + (id >> $0) & 0x1f) }, as: UTF8.self)
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
        // The input method's messages, and the keys it takes, are its own (X11InputMethod).
        if let method = X11InputMethod.shared, method.filter(event) { return }
        let type = event.pointee.response_type & 0x7f
        let raw = UnsafeRawPointer(event)
        if let first = randrFirstEvent,
           type == first &+ UInt8(XCB_RANDR_SCREEN_CHANGE_NOTIFY) || type == first &+ UInt8(XCB_RANDR_NOTIFY) {
            randrChanged()
            return
        }
        if let compositorWatchEvent, type == compositorWatchEvent {
            let composited = self.composited
            for canvas in canvases.values { canvas.compositingChanged(composited) }
            return
        }
        if clipboardMade, clipboard.handle(type, raw) { return }
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
            if let canvas = canvases[e.event], let key = keymap.canvasKey(e.detail, state: e.state) { canvas.keyPressed(key) }
        case XCB_CLIENT_MESSAGE:
            let e = raw.load(as: xcb_client_message_event_t.self)
            if e.type == atoms.protocols, e.data.data32.0 == atoms.deleteWindow { canvases[e.window]?.closeRequested() }
        case XCB_GE_GENERIC where raw.load(fromByteOffset: 1, as: UInt8.self) == pointerInput?.opcode:
            pointerInput?.handle(raw, canvas: { [canvases] in canvases[$0] }, owner: owner as? CanvasOverlay)
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
