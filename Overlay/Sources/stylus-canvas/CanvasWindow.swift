import CGtk4
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var socket: String?
    /// An empty input region whatever the daemon's output: clicks go to the windows under the canvas.
    var clickThrough = false
    var fadeMilliseconds = 120
    /// Which monitor to cover (GDK's order); nil: the window manager's choice for a fullscreen window.
    var monitor: Int?
    var verbose = false
}

/// The overlay: a fullscreen, see-through window that follows the daemon's
/// canvas. Finished strokes live in one offscreen layer, strokes in progress
/// in another; each new segment is drawn once, into its layer, so a frame is
/// two blits and a ring however many points the canvas holds.
@MainActor
final class CanvasWindow {
    private let options: Options
    private let link: DaemonLink
    private let window: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>

    private var book = StrokeBook()
    private var finishedLayer: OpaquePointer?
    private var liveLayer: OpaquePointer?
    private var layerKey = (width: Int32(0), height: Int32(0), scale: Int32(0))
    private var geometry = InkGeometry(width: 1, height: 1)

    /// The daemon's canvas state as last heard.
    private var state = CanvasState.minimized
    private var connected = false
    /// Bumped on every connection change, so that a stale "hide after 2 s" does nothing.
    private var connectionGeneration = 0
    private var shown = false
    /// The daemon captures the pen (status output.captures_pen): the canvas needs no pointer input.
    private var daemonCapturesPen = false
    /// Pointer input goes to the windows underneath: asked for, or the pen is captured.
    private var passesPointerInput: Bool { options.clickThrough || daemonCapturesPen }

    private enum Fade { case none, inward, outward }
    private var fade = Fade.none
    private var fadeStart: Int64 = 0
    private var fadeFrom = 0.0
    private var alpha = 0.0
    private var drawnAlpha = -1.0
    private var tickID: guint = 0
    /// Send `ack` when the running fade has been drawn to its end.
    private var ackWhenDone = false

    /// Where each device's tool hovers (or touches), normalized.
    private var hover: [UInt32: InkPoint] = [:]
    private var fetching = false
    private var fetchAgain = false
    /// An undo removed a stroke: the next `strokes` asked for is drawn again whole.
    private var rebuildOnNextFetch = false

    init(options: Options, link: DaemonLink) {
        self.options = options
        self.link = link
        window = gtk_window_new()
        area = gtk_drawing_area_new()
        let win: UnsafeMutablePointer<GtkWindow> = gcast(window)
        gtk_window_set_title(win, "stylus-canvas")
        gtk_window_set_decorated(win, 0)
        gtk_widget_add_css_class(window, "stylus-canvas")
        gtk_window_set_child(win, area)
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)

        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, "window.stylus-canvas, window.stylus-canvas > * { background: transparent; box-shadow: none; }", -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))

        let me = Unmanaged.passUnretained(self).toOpaque()
        gtk_drawing_area_set_draw_func(gcast(area), { _, cr, width, height, data in
            MainActor.assumeIsolated {
                Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue().draw(cr!, width, height)
            }
        }, me, nil)

        typealias MapCallback = @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutableRawPointer?) -> Void
        let onMap: MapCallback = { _, data in
            MainActor.assumeIsolated { Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue().mapped() }
        }
        connectSignal(UnsafeMutableRawPointer(window), "map", onMap, me, after: true)

        typealias CloseCallback = @convention(c) (UnsafeMutablePointer<GtkWindow>?, UnsafeMutableRawPointer?) -> gboolean
        let onClose: CloseCallback = { _, data in
            MainActor.assumeIsolated { Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue().requestMinimize("close request") }
            return 1   // the window manager's close minimizes the canvas; the daemon decides
        }
        connectSignal(UnsafeMutableRawPointer(window), "close-request", onClose, me)

        let keys = gtk_event_controller_key_new()!
        typealias KeyCallback = @convention(c) (OpaquePointer?, guint, guint, UInt32, UnsafeMutableRawPointer?) -> gboolean
        let onKey: KeyCallback = { _, keyval, _, modifiers, data in
            let window = { Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue() }
            if keyval == guint(GDK_KEY_Escape) {
                MainActor.assumeIsolated { window().requestMinimize("Escape") }
                return 1
            }
            let control = modifiers & UInt32(GDK_CONTROL_MASK.rawValue) != 0
            guard control, keyval == guint(GDK_KEY_z) || keyval == guint(GDK_KEY_Z) else { return 0 }
            MainActor.assumeIsolated { window().requestUndo() }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(keys), "key-pressed", onKey, me)
        gtk_widget_add_controller(window, keys)
    }

    func log(_ message: String) {
        guard options.verbose else { return }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let ms = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        printError("stylus-canvas: [\(Int64(ms)) ms] \(message)\n")
    }

    // MARK: The daemon

    func handle(_ update: DaemonUpdate) {
        switch update {
        case .connected(let canvas, let strokeCount, let capturesPen, let again):
            connected = true
            connectionGeneration += 1
            log("\(again ? "reconnected" : "connected"): canvas \(canvas.rawValue), \(strokeCount) strokes\(capturesPen ? ", the daemon captures the pen" : "")")
            setDaemonCapturesPen(capturesPen)
            if again || strokeCount != book.finished.count { fetchStrokes() }
            follow(canvas)
        case .disconnected(let reason):
            connected = false
            connectionGeneration += 1
            let generation = connectionGeneration
            log("disconnected: \(reason)")
            // A daemon that stopped gave the pen back to the desktop: until the
            // window hides, it must take the pen's clicks itself.
            setDaemonCapturesPen(false)
            after(milliseconds: 2000) { [self] in
                guard generation == connectionGeneration, !connected, shown else { return }
                log("stylusd gone for 2 s: hiding")
                hideNow()
            }
        case .canvas(let canvas, let cause, let strokeCount):
            log("canvas \(canvas.rawValue) (\(cause), \(strokeCount) strokes)")
            if cause == "undo", strokeCount > 0 {
                // A stroke left: the next answer is drawn again whole (exact,
                // whichever stroke went and whatever was drawn since).
                rebuildOnNextFetch = true
                fetchStrokes()
            } else if strokeCount == 0, !book.finished.isEmpty || !book.liveStrokes.isEmpty {
                book.clear()
                clearLayer(finishedLayer)
                clearLayer(liveLayer)
                queueDraw()
            } else if strokeCount != book.finished.count, !fetching {
                fetchStrokes()
            }
            follow(canvas)
        case .strokeRecorded:
            fetchStrokes()
        case .capturesPen(let captures):
            if captures != daemonCapturesPen {
                log(captures ? "the daemon captures the pen" : "the daemon no longer captures the pen: the canvas takes pointer input")
            }
            setDaemonCapturesPen(captures)
        case .pen(let device, let tool, let point, let tip):
            guard shown else { return }
            hover[device] = point
            if state == .open {
                switch book.penSample(device: device, tool: tool, point: point, tip: tip) {
                case .segment(let a, let b, let tool): drawSegment(into: liveLayer, a, b, tool)
                case .redrawLive: redrawLive()
                case .none: break
                }
            }
            queueDraw()
        case .proximity(let device, let inProximity):
            if !inProximity {
                hover[device] = nil
                if book.endStroke(device: device) { redrawLive() }
                queueDraw()
            }
        }
    }

    private func follow(_ canvas: CanvasState) {
        state = canvas
        switch canvas {
        case .opening: show(ack: true)
        case .open: show(ack: false)
        case .minimizing: hide(ack: true)
        case .minimized: if shown { hideNow() }
        }
    }

    private func requestMinimize(_ why: String) {
        log("\(why): asking stylusd to minimize")
        link.send(.minimize) { error in
            if let error { MainInbox.shared.post { printError("stylus-canvas: minimize: \(error)\n") } }
        }
    }

    private func requestUndo() {
        log("Ctrl+Z: asking stylusd to undo")
        link.send(.undo) { error in
            if let error { MainInbox.shared.post { printError("stylus-canvas: undo: \(error)\n") } }
        }
    }

    private func sendAck() {
        log("ack")
        link.send(.ack) { error in
            // Refused when the transition already ended (by timeout): nothing to do.
            if let error { MainInbox.shared.post { [self] in log("ack: \(error)") } }
        }
    }

    private func fetchStrokes() {
        if fetching {
            fetchAgain = true
            return
        }
        fetching = true
        let rebuild = rebuildOnNextFetch
        rebuildOnNextFetch = false
        link.strokes { result in
            MainInbox.shared.post { [self] in
                fetching = false
                switch result {
                case .success(let strokes): apply(strokes, rebuild: rebuild)
                case .failure(let error):
                    log("strokes: \(error.message)")
                    if rebuild { rebuildOnNextFetch = true }
                }
                if fetchAgain {
                    fetchAgain = false
                    fetchStrokes()
                }
            }
        }
    }

    private func apply(_ strokes: [InkStroke], rebuild: Bool) {
        let (finished, liveChanged) = book.reconcile(strokes, rebuild: rebuild)
        switch finished {
        case .unchanged: break
        case .append(let range):
            for stroke in book.finished[range] { drawStroke(into: finishedLayer, stroke) }
        case .rebuild:
            redrawFinished()
        }
        if liveChanged { redrawLive() }
        log("strokes: \(strokes.count) (\(finished))")
        queueDraw()
    }

    // MARK: Showing and hiding

    private func show(ack: Bool) {
        if shown, fade == .none, alpha >= 1 {
            if ack { sendAck() }
            return
        }
        ackWhenDone = ack
        if !shown {
            shown = true
            alpha = 0
            drawnAlpha = -1
            present()
        }
        startFade(.inward)
    }

    private func hide(ack: Bool) {
        guard shown else {
            if ack { sendAck() }
            return
        }
        ackWhenDone = ack
        startFade(.outward)
    }

    private var followsLayout = false

    private func hideNow() {
        stopFade()
        shown = false
        alpha = 0
        gtk_widget_set_visible(window, 0)
        log("hidden")
    }

    private func present() {
        let win: UnsafeMutablePointer<GtkWindow> = gcast(window)
        if let index = options.monitor, let monitor = monitorAt(index) {
            gtk_window_fullscreen_on_monitor(win, monitor)
        } else {
            gtk_window_fullscreen(win)
        }
        gtk_window_present(win)
        log("presented")
    }

    private func monitorAt(_ index: Int) -> OpaquePointer? {
        let monitors = gdk_display_get_monitors(gdk_display_get_default())
        guard index >= 0, index < Int(g_list_model_get_n_items(monitors)), let item = g_list_model_get_item(monitors, guint(index)) else { return nil }
        g_object_unref(item)   // the display keeps its own reference
        return OpaquePointer(item)
    }

    /// In filter mode the pen reaches the canvas only through the daemon, so
    /// the window's input region is emptied; in observe mode the window takes
    /// pointer input, so that a stroke on the canvas does not also click the
    /// application under it.
    private func setDaemonCapturesPen(_ captures: Bool) {
        guard captures != daemonCapturesPen else { return }
        daemonCapturesPen = captures
        guard shown, let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        if passesPointerInput {
            mapped()
        } else {
            gdk_surface_set_input_region(surface, nil)   // nil: the whole surface takes input again
            log("takes pointer input")
        }
    }

    private func mapped() {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        guard passesPointerInput else {
            // The daemon left filter mode while the window was hidden: the whole surface takes input again.
            gdk_surface_set_input_region(surface, nil)
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
                MainActor.assumeIsolated { Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue().emptyInputRegion() }
            }
            connectSignal(UnsafeMutableRawPointer(surface), "layout", onLayout, Unmanaged.passUnretained(self).toOpaque(), after: true)
        }
        emptyInputRegion()
        log("click-through: empty input region")
    }

    private func emptyInputRegion() {
        guard passesPointerInput, let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        // Cleared first: after a hide and show GDK skips a region it thinks unchanged.
        gdk_surface_set_input_region(surface, nil)
        let empty = cairo_region_create()
        gdk_surface_set_input_region(surface, empty)
        cairo_region_destroy(empty)
    }

    private func startFade(_ direction: Fade) {
        fade = direction
        fadeFrom = alpha
        fadeStart = 0   // set by the first tick, from the frame clock
        if tickID == 0 {
            tickID = gtk_widget_add_tick_callback(area, { _, clock, data in
                MainActor.assumeIsolated {
                    Unmanaged<CanvasWindow>.fromOpaque(data!).takeUnretainedValue().tick(Int64(gdk_frame_clock_get_frame_time(clock)))
                }
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
        queueDraw()
    }

    private func stopFade() {
        if tickID != 0 { gtk_widget_remove_tick_callback(area, tickID) }
        tickID = 0
        fade = .none
    }

    /// Called before each frame while a fade runs.
    private func tick(_ now: Int64) -> gboolean {
        if fadeStart == 0 { fadeStart = now }
        let duration = Double(max(options.fadeMilliseconds, 1)) * 1000
        let progress = min(1, Double(now - fadeStart) / duration)
        switch fade {
        case .inward:
            if drawnAlpha >= 1 {
                finishFade()
                return 0
            }
            alpha = fadeFrom + (1 - fadeFrom) * progress
        case .outward:
            if drawnAlpha <= 0, alpha <= 0 {
                finishFade()
                return 0
            }
            alpha = fadeFrom * (1 - progress)
        case .none:
            tickID = 0
            return 0
        }
        queueDraw()
        return 1
    }

    private func finishFade() {
        let direction = fade
        tickID = 0
        fade = .none
        if direction == .outward {
            shown = false
            gtk_widget_set_visible(window, 0)
            log("hidden")
        } else {
            log("shown")
        }
        if ackWhenDone {
            ackWhenDone = false
            sendAck()
        }
    }

    // MARK: Drawing

    private func queueDraw() { if shown { gtk_widget_queue_draw(area) } }

    private func draw(_ cr: OpaquePointer, _ width: Int32, _ height: Int32) {
        ensureLayers(width, height)
        let a = shown ? alpha : 0
        if let finishedLayer {
            cairo_set_source_surface(cr, finishedLayer, 0, 0)
            cairo_paint_with_alpha(cr, a)
        }
        if let liveLayer {
            cairo_set_source_surface(cr, liveLayer, 0, 0)
            cairo_paint_with_alpha(cr, a)
        }
        for point in hover.values {
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
        geometry = InkGeometry(width: Double(width), height: Double(height))
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
        log("layers \(width)x\(height)@\(scale)")
    }

    private func clearLayer(_ layer: OpaquePointer?) {
        guard let layer else { return }
        let cr = cairo_create(layer)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
    }

    private func redrawFinished() {
        clearLayer(finishedLayer)
        for stroke in book.finished { drawStroke(into: finishedLayer, stroke) }
    }

    private func redrawLive() {
        clearLayer(liveLayer)
        for stroke in book.liveStrokes { drawStroke(into: liveLayer, stroke) }
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

    private func drawSegment(into layer: OpaquePointer?, _ a: InkPoint, _ b: InkPoint, _ tool: InkTool) {
        guard let layer else { return }
        let cr = cairo_create(layer)!
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        Self.setInk(cr, tool)
        segment(cr, a, b)
        cairo_destroy(cr)
    }

    /// One segment, as wide as its pressure (the `strokes --svg` rule, scaled to the window).
    private func segment(_ cr: OpaquePointer, _ a: InkPoint, _ b: InkPoint) {
        let (ax, ay) = geometry.pixel(a), (bx, by) = geometry.pixel(b)
        cairo_set_line_width(cr, geometry.lineWidth(a, b))
        cairo_move_to(cr, ax, ay)
        cairo_line_to(cr, bx, by)
        cairo_stroke(cr)
    }
}
