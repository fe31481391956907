// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// What a monitor's window asks of the overlay that owns it.
@MainActor
protocol MonitorWindowOwner: AnyObject {
    var book: StrokeBook { get }
    var alpha: Double { get }
    var shown: Bool { get }
    var hover: [UInt32: InkPoint] { get }
    var passesPointerInput: Bool { get }
    func requestMinimize(_ why: String)
    func requestUndo()
    func log(_ message: String)
}

/// One fullscreen, see-through window on one monitor. Finished strokes live
/// in one offscreen layer, strokes in progress in another; each new segment
/// is drawn once into each layer, so a frame is two blits and a ring however
/// many points the canvas holds. Where ink lands comes from the placement:
/// with the tablet mapped to the whole desktop, each monitor's window shows
/// its own part of it.
@MainActor
final class MonitorWindow {
    private unowned let owner: MonitorWindowOwner
    let window: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    /// The GdkMonitor this window covers (the display's list holds it).
    private(set) var monitor: OpaquePointer
    private(set) var geometry: InkGeometry

    private var finishedLayer: OpaquePointer?
    private var liveLayer: OpaquePointer?
    private var layerKey = (width: Int32(0), height: Int32(0), scale: Int32(0))
    /// The alpha this window last painted with, so that a fade ends when every window has drawn its end.
    private(set) var drawnAlpha = -1.0
    private var followsLayout = false
    /// The input region was emptied while the window was mapped.
    private var emptied = false

    init(owner: MonitorWindowOwner, monitor: OpaquePointer, geometry: InkGeometry) {
        self.owner = owner
        self.monitor = monitor
        self.geometry = geometry
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
            MainActor.assumeIsolated { Unmanaged<MonitorWindow>.fromOpaque(data!).takeUnretainedValue().updateInputRegion() }
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
            if keyval == guint(GDK_KEY_Escape) {
                MainActor.assumeIsolated { owner().requestMinimize("Escape") }
                return 1
            }
            let control = modifiers & UInt32(GDK_CONTROL_MASK.rawValue) != 0
            guard control, keyval == guint(GDK_KEY_z) || keyval == guint(GDK_KEY_Z) else { return 0 }
            MainActor.assumeIsolated { owner().requestUndo() }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(keys), "key-pressed", onKey, me)
        gtk_widget_add_controller(window, keys)
    }

    /// Covers `monitor` with ink placed by `geometry`; redraws the layers when the placement moved.
    func place(on monitor: OpaquePointer, geometry: InkGeometry) {
        self.monitor = monitor
        if geometry != self.geometry {
            self.geometry = geometry
            redrawFinished()
            redrawLive()
        }
    }

    func present() {
        let win: UnsafeMutablePointer<GtkWindow> = gcast(window)
        // The monitor's size as the window's own: without a window manager
        // (nobody honours "fullscreen") the canvas still covers a monitor at
        // the origin instead of a 200x200 square; with one, fullscreen wins.
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        if area.width > 0, area.height > 0 { gtk_window_set_default_size(win, area.width, area.height) }
        gtk_window_fullscreen_on_monitor(win, monitor)
        gtk_window_present(win)
        drawnAlpha = -1
    }

    func hide() { gtk_widget_set_visible(window, 0) }

    func destroy() {
        gtk_window_destroy(gcast(window))
        for layer in [finishedLayer, liveLayer] where layer != nil { cairo_surface_destroy(layer) }
        finishedLayer = nil
        liveLayer = nil
    }

    func queueDraw() { gtk_widget_queue_draw(area) }

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
        ensureLayers(width, height)
        let a = owner.shown ? owner.alpha : 0
        for layer in [finishedLayer, liveLayer] {
            guard let layer else { continue }
            cairo_set_source_surface(cr, layer, 0, 0)
            cairo_paint_with_alpha(cr, a)
        }
        for point in owner.hover.values {
            let (x, y) = geometry.pixel(point)
            cairo_new_path(cr)
            cairo_arc(cr, x, y, 7, 0, 2 * Double.pi)
            cairo_set_line_width(cr, 3)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.8 * a)
            cairo_stroke_preserve(cr)
            cairo_set_line_width(cr, 1.5)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.9 * a)
            cairo_stroke(cr)
        }
        drawnAlpha = a
    }

    /// (Re)creates both layers when the window's size or scale changed, and draws everything into them.
    private func ensureLayers(_ width: Int32, _ height: Int32) {
        let scale = gtk_widget_get_scale_factor(area)
        guard width > 0, height > 0, layerKey != (width, height, scale) || finishedLayer == nil else { return }
        layerKey = (width, height, scale)
        for layer in [finishedLayer, liveLayer] where layer != nil { cairo_surface_destroy(layer) }
        func make() -> OpaquePointer? {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width * scale, height * scale)
            cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
            return surface
        }
        finishedLayer = make()
        liveLayer = make()
        redrawFinished()
        redrawLive()
        owner.log("layers \(width)x\(height)@\(scale)")
    }

    func clearFinished() { Self.clear(finishedLayer) }
    func clearLive() { Self.clear(liveLayer) }

    private static func clear(_ layer: OpaquePointer?) {
        guard let layer else { return }
        let cr = cairo_create(layer)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
    }

    func redrawFinished() {
        clearFinished()
        for stroke in owner.book.finished { drawStroke(into: finishedLayer, stroke) }
    }

    func redrawLive() {
        clearLive()
        for stroke in owner.book.liveStrokes { drawStroke(into: liveLayer, stroke) }
    }

    func drawFinished(_ stroke: InkStroke) { drawStroke(into: finishedLayer, stroke) }

    func drawLiveSegment(_ a: InkPoint, _ b: InkPoint, _ tool: InkTool) {
        guard let liveLayer else { return }
        let cr = cairo_create(liveLayer)!
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        Self.setInk(cr, tool)
        segment(cr, a, b)
        cairo_destroy(cr)
    }

    private static func setInk(_ cr: OpaquePointer, _ tool: InkTool) {
        switch tool {
        case .pen: cairo_set_source_rgba(cr, 0.84, 0.10, 0.11, 1)      // ink: opaque red
        case .eraser: cairo_set_source_rgba(cr, 1, 1, 1, 0.55)        // eraser: a pale translucent band
        }
    }

    private func drawStroke(into layer: OpaquePointer?, _ stroke: InkStroke) {
        guard let layer, stroke.points.count > 1 else { return }
        let cr = cairo_create(layer)!
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        Self.setInk(cr, stroke.tool)
        for (a, b) in zip(stroke.points, stroke.points.dropFirst()) { segment(cr, a, b) }
        cairo_destroy(cr)
    }

    /// One segment, as wide as its pressure (the `strokes --svg` rule, scaled to the mapped area).
    private func segment(_ cr: OpaquePointer, _ a: InkPoint, _ b: InkPoint) {
        let (ax, ay) = geometry.pixel(a), (bx, by) = geometry.pixel(b)
        cairo_set_line_width(cr, geometry.lineWidth(a, b))
        cairo_move_to(cr, ax, ay)
        cairo_line_to(cr, bx, by)
        cairo_stroke(cr)
    }
}
