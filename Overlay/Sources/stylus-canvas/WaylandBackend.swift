// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// A wl_output as the compositor describes it (wl_output and xdg_output events).
@MainActor
final class WaylandOutput {
    let globalName: UInt32
    let proxy: OpaquePointer
    var xdgOutput: OpaquePointer?
    var make: String?
    var connector: String?
    var physicalWidth = 0, physicalHeight = 0
    var modeWidth = 0, modeHeight = 0
    var scale: Int32 = 1
    var x = 0, y = 0
    var logicalWidth = 0, logicalHeight = 0
    /// A `done` arrived: the description is complete.
    var described = false
    /// Said once in the log when the output cannot take a canvas.
    var skipLogged = false

    init(globalName: UInt32, proxy: OpaquePointer) {
        self.globalName = globalName
        self.proxy = proxy
    }

    /// Fewer mode pixels than logical ones: a fractional scale below 1, which wl_output.scale
    /// rounds up to 1. The longer sides, so that a rotated output compares alike.
    var scaledBelowOne: Bool {
        let mode = max(modeWidth, modeHeight), logical = max(logicalWidth, logicalHeight)
        return mode > 0 && logical > mode
    }

    /// Its place and size on the desktop in logical pixels: xdg_output's, else the mode over the scale.
    var shape: MonitorShape {
        let w = logicalWidth > 0 ? logicalWidth : modeWidth / Int(max(scale, 1))
        let h = logicalHeight > 0 ? logicalHeight : modeHeight / Int(max(scale, 1))
        return MonitorShape(connector: connector, manufacturer: make, x: x, y: y, width: w, height: h,
                            widthMM: physicalWidth, heightMM: physicalHeight)
    }
}

/// The globals a canvas of wl_surfaces needs (a layer surface per output, or
/// without layer-shell an xdg toplevel), and the outputs and keyboard,
/// from the system's libwayland-client. Its socket sits in GLib's main loop
/// beside the daemon's link; every turn flushes what was queued before GLib
/// polls. A compositor that goes away ends the program (status 69), a
/// protocol error too (status 70), each with a line saying so.
@MainActor
final class WaylandBackend: CanvasBackend {
    var name: String { layerShell != nil ? "layer-shell" : "wayland-toplevel" }
    let display: OpaquePointer
    private var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var layerShell: OpaquePointer?
    private(set) var layerShellVersion: UInt32 = 0
    /// xdg-shell, for the toplevel canvas where there is no layer-shell.
    private(set) var wmBase: OpaquePointer?
    private var outputManager: OpaquePointer?
    /// Both or neither: a fractional scale is drawn into a buffer of that many
    /// pixels, which the viewport shows at the surface's logical size.
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    /// wlroots' screen capture (sway, Hyprland, wayfire), for snapshots; nil elsewhere (weston, cage, KWin).
    private(set) var screencopy: OpaquePointer?
    private(set) var seat: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var xkbContext: OpaquePointer?
    private var xkbKeymap: OpaquePointer?
    private var xkbState: OpaquePointer?
    private(set) var outputs: [WaylandOutput] = []
    /// The mouse and touch strokes, and the tablet seat that keeps the pen out of them.
    private(set) lazy var pointerInput = WaylandPointerInput(backend: self)
    /// `copy`'s image/png, held through wlroots' data-control.
    let clipboard = WaylandClipboard()
    weak var owner: CanvasSurfaceOwner?
    private var started = false

    /// Connects to $WAYLAND_DISPLAY and learns its globals and outputs; nil when there is no compositor.
    init?() {
        guard let display = wl_display_connect(nil) else { return nil }
        self.display = display
        Self.current = self
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Self.registryListener, Unmanaged.passUnretained(self).toOpaque())
        // The globals, then what binding them sent (output modes, names, the keymap).
        guard wl_display_roundtrip(display) >= 0, wl_display_roundtrip(display) >= 0 else {
            wl_display_disconnect(display)
            Self.current = nil
            return nil
        }
    }

    /// Gives the connection back (GNOME without its extension: no canvas).
    func disconnect() {
        wl_display_disconnect(display)
        Self.current = nil
    }

    /// Hooks the connection into GLib's main loop.
    func start() {
        started = true
        WaylandFlush.display = display
        g_source_attach(WaylandFlush.makeSource(), nil)
        g_unix_fd_add(wl_display_get_fd(display), GIOCondition(G_IO_IN.rawValue | G_IO_ERR.rawValue | G_IO_HUP.rawValue), { _, _, data in
            onMain(data, WaylandBackend.self) { $0.readEvents() }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func readEvents() {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { connectionFailed() }
        }
        if wl_display_read_events(display) < 0 || wl_display_dispatch_pending(display) < 0 { connectionFailed() }
    }

    private func connectionFailed() -> Never {
        let error = wl_display_get_error(display)
        if error == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let code = wl_display_get_protocol_error(display, &interface, &id)
            let what = interface.map { String(cString: $0.pointee.name) } ?? "the display"
            printError("stylus-canvas: the Wayland compositor reported a protocol error (code \(code) on \(what)@\(id)); exiting\n")
            exit(70)
        }
        printError("stylus-canvas: the Wayland compositor closed the connection (\(String(cString: strerror(error)))); exiting\n")
        exit(69)
    }

    func flush() { wl_display_flush(display) }

    // MARK: Outputs

    /// Outputs that can take a canvas, in the compositor's order (what `--monitor N` counts).
    private var usableOutputs: [WaylandOutput] {
        outputs.filter { output in
            guard output.described else { return false }
            let shape = output.shape
            guard shape.width > 0, shape.height > 0, output.scale > 0 else {
                if !output.skipLogged {
                    output.skipLogged = true
                    printError("stylus-canvas: skipping output \(output.connector ?? "#\(output.globalName)"): it reports no size (\(shape.width)x\(shape.height), scale \(output.scale))\n")
                }
                return false
            }
            return true
        }
    }

    func monitors() -> [MonitorShape] { usableOutputs.map(\.shape) }

    func output(at index: Int) -> WaylandOutput? {
        let usable = usableOutputs
        return usable.indices.contains(index) ? usable[index] : nil
    }

    func makeSurface(owner: CanvasSurfaceOwner, monitor: Int, geometry: InkGeometry) -> CanvasSurface {
        layerShell != nil ? LayerCanvas(owner: owner, backend: self, output: output(at: monitor)!, geometry: geometry)
                          : ToplevelCanvas(owner: owner, backend: self, output: output(at: monitor)!, geometry: geometry)
    }

    private func outputChanged() {
        guard started else { return }
        owner?.monitorsChanged()
    }

    private func describeWithXdgOutput(_ output: WaylandOutput) {
        guard let outputManager, output.xdgOutput == nil else { return }
        output.xdgOutput = zxdg_output_manager_v1_get_xdg_output(outputManager, output.proxy)
        zxdg_output_v1_add_listener(output.xdgOutput, Self.xdgOutputListener, Unmanaged.passUnretained(output).toOpaque())
    }

    // MARK: Listeners (C function tables, allocated once)

    private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        var l = wl_registry_listener()
        l.global = { data, _, name, interface, version in
            let interface = String(cString: interface!)
            onMain(data, WaylandBackend.self) { $0.global(name, interface, version) }
        }
        l.global_remove = { data, _, name in onMain(data, WaylandBackend.self) { $0.globalRemoved(name) } }
        return allocate(l)
    }()

    private func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
        func bind(_ wanted: UInt32) -> OpaquePointer? { stylus_bind(registry, name, interface, min(version, wanted)).map(OpaquePointer.init) }
        switch interface {
        case "wl_compositor": compositor = bind(4)
        case "wl_shm": shm = bind(1)
        case "zwlr_layer_shell_v1":
            layerShellVersion = min(version, 4)
            layerShell = bind(4)
        case "xdg_wm_base":
            wmBase = bind(1)
            answerPings()
        case "wp_viewporter": viewporter = bind(1)
        case "zwlr_screencopy_manager_v1": screencopy = bind(3)
        case "wp_fractional_scale_manager_v1": fractionalScaleManager = bind(1)
        case "zxdg_output_manager_v1":
            outputManager = bind(3)
            for output in outputs { describeWithXdgOutput(output) }
        case "wl_seat" where seat == nil:   // the first seat's keyboard; a second seat's would replace it
            seat = bind(5)
            wl_seat_add_listener(seat, Self.seatListener, Unmanaged.passUnretained(self).toOpaque())
            pointerInput.claimTablets(seat: seat)
        case "zwlr_data_control_manager_v1": clipboard.manager = bind(2)
        case "zwp_tablet_manager_v2":
            pointerInput.tabletManager = bind(1)
            pointerInput.claimTablets(seat: seat)
        case "wl_output":
            guard let proxy = bind(4) else { return }
            let output = WaylandOutput(globalName: name, proxy: proxy)
            outputs.append(output)
            wl_output_add_listener(proxy, Self.outputListener, Unmanaged.passUnretained(output).toOpaque())
            describeWithXdgOutput(output)
        default: break
        }
    }

    private func globalRemoved(_ name: UInt32) {
        guard let index = outputs.firstIndex(where: { $0.globalName == name }) else { return }
        let output = outputs.remove(at: index)
        if let xdg = output.xdgOutput { zxdg_output_v1_destroy(xdg) }
        if wl_proxy_get_version(output.proxy) >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
        outputChanged()
    }

    private static let outputListener: UnsafeMutablePointer<wl_output_listener> = {
        var l = wl_output_listener()
        l.geometry = { data, _, x, y, widthMM, heightMM, _, make, _, _ in
            let make = make.map { String(cString: $0) }
            onMain(data, WaylandOutput.self) { o in
                if o.xdgOutput == nil { (o.x, o.y) = (Int(x), Int(y)) }
                (o.physicalWidth, o.physicalHeight) = (Int(widthMM), Int(heightMM))
                o.make = make
            }
        }
        l.mode = { data, _, flags, width, height, _ in
            guard flags & UInt32(WL_OUTPUT_MODE_CURRENT.rawValue) != 0 else { return }
            onMain(data, WaylandOutput.self) { (($0.modeWidth, $0.modeHeight) = (Int(width), Int(height))) }
        }
        l.done = { data, _ in
            onMain(data, WaylandOutput.self) { o in
                o.described = true
                WaylandBackend.current?.outputChanged()
            }
        }
        l.scale = { data, _, factor in onMain(data, WaylandOutput.self) { $0.scale = factor } }
        l.name = { data, _, name in
            let name = name.map { String(cString: $0) }
            onMain(data, WaylandOutput.self) { o in if o.connector == nil { o.connector = name } }
        }
        l.description = { _, _, _ in }
        return allocate(l)
    }()

    private static let xdgOutputListener: UnsafeMutablePointer<zxdg_output_v1_listener> = {
        var l = zxdg_output_v1_listener()
        l.logical_position = { data, _, x, y in onMain(data, WaylandOutput.self) { (($0.x, $0.y) = (Int(x), Int(y))) } }
        l.logical_size = { data, _, w, h in
            onMain(data, WaylandOutput.self) { (($0.logicalWidth, $0.logicalHeight) = (Int(w), Int(h))) }
        }
        // Since xdg_output v3 the wl_output's done closes the description; before, this one does.
        l.done = { data, xdg in
            guard let xdg, wl_proxy_get_version(xdg) < 3 else { return }
            onMain(data, WaylandOutput.self) { o in
                o.described = true
                WaylandBackend.current?.outputChanged()
            }
        }
        l.name = { data, _, name in
            let name = name.map { String(cString: $0) }
            onMain(data, WaylandOutput.self) { $0.connector = name }
        }
        l.description = { _, _, _ in }
        return allocate(l)
    }()

    /// The one backend of this process, for the output listener's `done` (its data is the output).
    static var current: WaylandBackend?

    // MARK: Keyboard: a text being typed takes keys first; Escape minimizes, every other key goes to the daemon's key table, as on X11; pointer and touch draw

    private static let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
        var l = wl_seat_listener()
        l.capabilities = { data, _, capabilities in onMain(data, WaylandBackend.self) { $0.seatCapabilities(capabilities) } }
        l.name = { _, _, _ in }
        return allocate(l)
    }()

    private func seatCapabilities(_ capabilities: UInt32) {
        if let seat { pointerInput.seatCapabilities(seat, capabilities) }
        let has = capabilities & UInt32(WL_SEAT_CAPABILITY_KEYBOARD.rawValue) != 0
        if has, keyboard == nil {
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, Self.keyboardListener, Unmanaged.passUnretained(self).toOpaque())
        } else if !has, let keyboard {
            if wl_proxy_get_version(keyboard) >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
            self.keyboard = nil
        }
    }

    private static let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
        var l = wl_keyboard_listener()
        l.keymap = { data, _, format, fd, size in
            onMain(data, WaylandBackend.self) { $0.keymap(format: format, fd: fd, size: Int(size)) }
        }
        l.enter = { _, _, _, _, _ in }
        l.leave = { _, _, _, _ in }
        l.key = { data, _, _, _, key, state in
            guard state == UInt32(WL_KEYBOARD_KEY_STATE_PRESSED.rawValue) else { return }
            onMain(data, WaylandBackend.self) { $0.keyPressed(key) }
        }
        l.modifiers = { data, _, _, depressed, latched, locked, group in
            onMain(data, WaylandBackend.self) { b in
                if let state = b.xkbState { xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group) }
            }
        }
        l.repeat_info = { _, _, _, _ in }
        return allocate(l)
    }()

    private func keymap(format: UInt32, fd: Int32, size: Int) {
        defer { close(fd) }
        guard format == UInt32(WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue), size > 0 else { return }
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return }
        defer { munmap(map, size) }
        if xkbContext == nil { xkbContext = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
        guard let keymap = xkb_keymap_new_from_string(xkbContext, map.assumingMemoryBound(to: CChar.self),
                                                      XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            printError("stylus-canvas: the compositor's keymap does not compile: Escape and Ctrl+Z will not work on the canvas\n")
            return
        }
        if let xkbState { xkb_state_unref(xkbState) }
        if let xkbKeymap { xkb_keymap_unref(xkbKeymap) }
        xkbKeymap = keymap
        xkbState = xkb_state_new(keymap)
    }

    private func keyPressed(_ key: UInt32) {
        guard let xkbState, let owner else { return }
        let sym = xkb_state_key_get_one_sym(xkbState, key + 8)   // evdev code to XKB keycode
        let control = xkb_state_mod_name_is_active(xkbState, "Control", XKB_STATE_MODS_EFFECTIVE) > 0
        let shift = xkb_state_mod_name_is_active(xkbState, "Shift", XKB_STATE_MODS_EFFECTIVE) > 0
        let alt = xkb_state_mod_name_is_active(xkbState, "Mod1", XKB_STATE_MODS_EFFECTIVE) > 0
        let logo = xkb_state_mod_name_is_active(xkbState, "Mod4", XKB_STATE_MODS_EFFECTIVE) > 0
        let canvasKey = CanvasKey(keysym: sym, control: control, shift: shift, alt: alt, super: logo)
        // A text being typed takes the key first, on the canvas that holds it; a shortcut types nothing.
        let typed = control || alt || logo ? nil : Self.utf8(xkbState, key + 8)
        // The help shown takes any key first, to hide it, even one a text would type.
        if (owner as? CanvasOverlay)?.dismissHelp("a key") == true { return }
        let canvases = (owner as? CanvasOverlay)?.windows.compactMap { $0 as? WaylandCanvas } ?? []
        if canvases.contains(where: { $0.typeText(canvasKey, typed: typed) }) { return }
        if let canvasKey { owner.keyPressed(canvasKey) }
    }

    /// What a key types with the state's modifiers and layout (Shift, Caps Lock, AltGr), as UTF-8 text.
    private static func utf8(_ state: OpaquePointer, _ keycode: UInt32) -> String? {
        let size = Int(xkb_state_key_get_utf8(state, keycode, nil, 0))
        guard size > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: size + 1)
        xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
        return String(validating: buffer.prefix(size).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Runs a C callback's body on the main actor with the object its user data
/// points to (libwayland and GLib call back on the main thread, which runs the
/// main actor); the pointer crosses as bits, which Swift can check.
func onMain<T: AnyObject>(_ data: UnsafeMutableRawPointer?, _ type: T.Type, _ body: @MainActor (T) -> Void) {
    let bits = UInt(bitPattern: data)
    MainActor.assumeIsolated { body(Unmanaged<T>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()) }
}

/// A listener table that lives as long as the program (libwayland keeps the pointer).
func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return p
}

/// A GLib source whose `prepare` flushes the Wayland connection before each
/// poll: requests made anywhere in a turn leave before GLib sleeps.
enum WaylandFlush {
    nonisolated(unsafe) static var display: OpaquePointer?

    static func makeSource() -> UnsafeMutablePointer<GSource> {
        var funcs = GSourceFuncs()
        funcs.prepare = { _, timeout in
            timeout?.pointee = -1
            if let display = WaylandFlush.display { wl_display_flush(display) }
            return 0
        }
        funcs.check = { _ in 0 }
        funcs.dispatch = { _, _, _ in 1 }
        return g_source_new(allocate(funcs), guint(MemoryLayout<GSource>.size))
    }
}
