// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// One see-through GTK window on one monitor, drawn by InkLayers: fullscreen
/// on X11; on a Wayland compositor without layer-shell maximized instead
/// (`maximizeInstead`), since xdg-shell makes a fullscreen window opaque.
/// Where ink lands comes from the placement: with the tablet mapped to the
/// whole desktop, each monitor's window shows its own part of it.
@MainActor
final class MonitorWindow: CanvasSurface {
    private unowned let owner: CanvasSurfaceOwner
    private let maximizeInstead: Bool
    let window: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    /// The GdkMonitor this window covers (the display's list holds it).
    private(set) var monitor: OpaquePointer
    let layers: InkLayers
    private var tick: (@MainActor (Int64) -> Bool)?
    private var tickID: guint = 0
    private var standbyTimer: guint = 0
    private var lastTick: Int64 = 0
    /// The alpha this window last painted with, so that a fade ends when every window has drawn its end.
    private(set) var drawnAlpha = -1.0
    private var followsLayout = false
    /// The input region was emptied and the window manager's frame may still hold that empty shape.
    private var emptied = false

    init(owner: CanvasSurfaceOwner, monitor: OpaquePointer, geometry: InkGeometry, maximizeInstead: Bool) {
        self.owner = owner
        self.monitor = monitor
        self.maximizeInstead = maximizeInstead
        layers = InkLayers(geometry: geometry)
        window = gtk_window_new()
        area = gtk_drawing_area_new()
        let win: UnsafeMutablePointer<GtkWindow> = gcast(window)
        gtk_window_set_title(win, "stylus-canvas")
        gtk_window_set_decorated(win, 0)
        gtk_widget_add_css_class(window, "stylus-canvas")
        gtk_window_set_child(win, area)
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)

        let me = Unmanaged.passUnretained(self).toOpaque()
        gtk_drawing_area_set_draw_func(gcast(area), { _, cr, width, height, data in
            MainActor.assumeIsolated {
                Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().draw(cr!, width, height)
            }
        }, me, nil)

        typealias MapCallback = @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutableRawPointer?) -> Void
        let onMap: MapCallback = { _, data in
            MainActor.assumeIsolated { Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().mapped() }
        }
        connectSignal(UnsafeMutableRawPointer(window), "map", onMap, me, after: true)

        typealias CloseCallback = @convention(c) (UnsafeMutablePointer<GtkWindow>?, UnsafeMutableRawPointer?) -> gboolean
        let onClose: CloseCallback = { _, data in
            MainActor.assumeIsolated { Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().owner.requestMinimize("close request") }
            return 1   // the window manager's close minimizes the canvas; the daemon decides
        }
        connectSignal(UnsafeMutableRawPointer(window), "close-request", onClose, me)

        let keys = gtk_event_controller_key_new()!
        typealias KeyCallback = @convention(c) (OpaquePointer?, guint, guint, UInt32, UnsafeMutableRawPointer?) -> gboolean
        let onKey: KeyCallback = { _, keyval, _, modifiers, data in
            let owner = { Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().owner }
            let control = modifiers & UInt32(GDK_CONTROL_MASK.rawValue) != 0
            let shift = modifiers & UInt32(GDK_SHIFT_MASK.rawValue) != 0
            let alt = modifiers & UInt32(GDK_ALT_MASK.rawValue) != 0, logo = modifiers & UInt32(GDK_SUPER_MASK.rawValue) != 0
            guard let key = CanvasKey(keysym: UInt32(keyval), control: control, shift: shift, alt: alt, super: logo) else { return 0 }
            MainActor.assumeIsolated { owner().keyPressed(key) }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(keys), "key-pressed", onKey, me)
        gtk_widget_add_controller(window, keys)
    }

    /// Covers `monitor` with ink placed by `geometry`; redraws the layers when the placement moved.
    func place(on monitor: OpaquePointer, geometry: InkGeometry) {
        self.monitor = monitor
        setGeometry(geometry, book: owner.book)
    }

    func place(monitor: Int, geometry: InkGeometry) {
        guard let m = GtkBackend.monitor(at: monitor) else { return }
        place(on: m, geometry: geometry)
    }

    func present() {
        let win: UnsafeMutablePointer<GtkWindow> = gcast(window)
        // The monitor's size as the window's own: without a window manager
        // (nobody honours "fullscreen") the canvas still covers a monitor at
        // the origin instead of a 200x200 square; with one, fullscreen wins.
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        if area.width > 0, area.height > 0 { gtk_window_set_default_size(win, area.width, area.height) }
        // Maximized once mapped: weston answers a maximize asked before the
        // first frame with a 0x0 configure and then calls the window's own
        // size a protocol error.
        if !maximizeInstead { gtk_window_fullscreen_on_monitor(win, monitor) }
        if emptied, !owner.passesPointerInput, let surface = gtk_native_get_surface(OpaquePointer(window)) {
            // Reset before the map, not after: the window manager's frame
            // copies the window's input shape when it maps it (openbox does),
            // so the canvas takes its clicks from the first frame on.
            gdk_surface_set_input_region(surface, nil)
            emptied = false
        }
        gtk_window_present(win)
        drawnAlpha = -1
    }

    private func mapped() {
        if maximizeInstead { gtk_window_maximize(gcast(window)) }
        updateInputRegion()
    }

    func hide() { gtk_widget_set_visible(window, 0) }

    func destroy() {
        stopTicks()
        gtk_window_destroy(gcast(window))
        layers.release()
    }

    func queueDraw() { gtk_widget_queue_draw(area) }

    /// The fade runs on the frame clock; a 100 ms timer stands by for a window
    /// whose frame clock does not tick (not mapped yet by a busy window manager,
    /// or a monitor that does not paint), so a fade always ends and a canvas
    /// never stays on the screen invisible, taking the clicks.
    func startTicks(_ tick: @escaping @MainActor (Int64) -> Bool) {
        self.tick = tick
        lastTick = Int64(g_get_monotonic_time())
        if tickID == 0 {
            tickID = gtk_widget_add_tick_callback(area, { _, clock, data in
                MainActor.assumeIsolated {
                    let me = Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue()
                    return me.runTick(Int64(gdk_frame_clock_get_frame_time(clock)), fromFrameClock: true) ? 1 : 0
                }
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
        if standbyTimer == 0 {
            standbyTimer = g_timeout_add_full(G_PRIORITY_DEFAULT, 100, { data in
                MainActor.assumeIsolated {
                    let me = Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue()
                    let now = Int64(g_get_monotonic_time())
                    guard now - me.lastTick >= 100_000 else { return 1 }
                    return me.runTick(now, fromFrameClock: false) ? 1 : 0
                }
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
    }

    /// Calls the tick; when it is done, both sources end (the caller's own by its return value).
    private func runTick(_ now: Int64, fromFrameClock: Bool) -> Bool {
        lastTick = now
        if let tick, tick(now) { return true }
        tick = nil
        if fromFrameClock {
            tickID = 0
            if standbyTimer != 0 { g_source_remove(standbyTimer) }
            standbyTimer = 0
        } else {
            standbyTimer = 0
            if tickID != 0 { gtk_widget_remove_tick_callback(area, tickID) }
            tickID = 0
        }
        return false
    }

    func stopTicks() {
        if tickID != 0 { gtk_widget_remove_tick_callback(area, tickID) }
        if standbyTimer != 0 { g_source_remove(standbyTimer) }
        tickID = 0
        standbyTimer = 0
        tick = nil
    }

    // MARK: Input

    /// In filter mode the pen reaches the canvas only through the daemon, so
    /// the window's input region is emptied; in observe mode the window takes
    /// pointer input, so that a stroke on the canvas does not also click the
    /// application under it.
    func updateInputRegion() {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        guard owner.passesPointerInput else {
            gdk_surface_set_input_region(surface, nil)   // nil: the whole surface takes input again
            if emptied, gtk_widget_get_mapped(window) != 0 {
                // A window manager that copied the empty region to its frame
                // (openbox does) keeps it there: mapped again, the frame takes
                // the window's shape anew, and the canvas its clicks.
                emptied = false
                gtk_widget_set_visible(window, 0)
                gtk_window_present(gcast(window))
            }
            emptied = false
            owner.log("input region: the whole window takes pointer input")
            return
        }
        if !followsLayout {
            // GTK sets the input region again itself when the surface changes
            // size (its client-side decoration shape), as it does when the
            // window manager makes it fullscreen after the map: each layout,
            // the region is emptied again after GTK's own handler.
            followsLayout = true
            typealias LayoutCallback = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void
            let onLayout: LayoutCallback = { _, _, _, data in
                MainActor.assumeIsolated { Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().emptyInputRegion() }
            }
            connectSignal(UnsafeMutableRawPointer(surface), "layout", onLayout, Unmanaged.passUnretained(self).toOpaque(), after: true)
        }
        emptyInputRegion()
        emptied = true
        owner.log("click-through: empty input region")
    }

    private func emptyInputRegion() {
        guard owner.passesPointerInput, let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        // Cleared first: after a hide and show GDK skips a region it thinks unchanged.
        gdk_surface_set_input_region(surface, nil)
        let empty = cairo_region_create()
        gdk_surface_set_input_region(surface, empty)
        cairo_region_destroy(empty)
    }

    // MARK: Drawing

    private func draw(_ cr: OpaquePointer, _ width: Int32, _ height: Int32) {
        if layers.ensure(width: width, height: height, scale: Double(gtk_widget_get_scale_factor(area))) {
            layers.redrawFinished(owner.book.finished)
            layers.redrawLive(owner.book.liveStrokes)
            owner.log("layers \(width)x\(height)@\(gtk_widget_get_scale_factor(area))")
        }
        let a = owner.shown ? owner.alpha : 0
        layers.compose(onto: cr, alpha: a, hover: owner.hover.values)
        _ = layers.takeDamage()   // GTK draws the whole window each frame
        drawnAlpha = a
    }
}
