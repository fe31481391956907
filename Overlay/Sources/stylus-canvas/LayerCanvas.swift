// SPDX-License-Identifier: MIT
import CGtk4
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// The canvas on one output as a wlr-layer-shell surface: on the overlay
/// layer (above fullscreen windows), anchored to every edge, exclusive zone
/// −1 (panels do not push it), namespace `stylus-canvas`; the keyboard while
/// open (Escape and Ctrl+Z), none minimized, since minimized it does not
/// exist. Frames are painted by InkLayers into two wl_shm buffers in turn,
/// only where something changed, and sent with that damage when the
/// compositor's frame callback says the last one was used. The buffers have
/// the output's pixels: at its integer scale (wl_surface.set_buffer_scale), or
/// where the compositor offers wp_fractional_scale_v1 and wp_viewporter at the
/// scale it prefers for the surface (1.25, 1.5 …), shown through a viewport at
/// the surface's logical size, so that ink is sharp on a fractionally scaled
/// output instead of drawn at 2 and shrunk by the compositor.
///
/// The first frame already has that scale: layers and buffers are made only
/// once the scale is settled, so an open never draws (and allocates) at a
/// scale it throws away a moment later. The integer scale is the output's,
/// known before the surface exists. A fractional one is settled by a
/// `preferred_scale` that agrees with the output's integer scale (KWin 5.27
/// first says 1 for a new surface, then its output's 1.5), or after
/// `settleMilliseconds` without one; until then a configured surface shows a
/// 1×1 transparent buffer stretched by the viewport, since a compositor may
/// tell a surface its output only once it is mapped.
@MainActor
final class LayerCanvas: CanvasSurface {
    private unowned let owner: CanvasSurfaceOwner
    private unowned let backend: WaylandBackend
    private(set) var output: WaylandOutput
    let layers: InkLayers
    private(set) var drawnAlpha = -1.0

    private var surface: OpaquePointer?
    private var layerSurface: OpaquePointer?
    private var configured = false
    private var width: Int32 = 0, height: Int32 = 0
    /// Buffer pixels per logical pixel, as the buffers and layers are made now.
    private var scale = 1.0
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    /// The compositor's preferred scale for this surface, in 120ths; 0 until it says.
    private var preferredScale120: UInt32 = 0
    /// The scale the first frame is drawn at is known: nothing is drawn before.
    private var scaleSettled = false
    /// Maps so far, so that the settle timer of an earlier map does nothing.
    private var mapCount = 0
    /// What maps the surface while the fractional scale is not settled.
    private var placeholder: ShmBuffer?
    /// How long a fractional scale that disagrees with the output's integer scale is waited for.
    static let settleMilliseconds: UInt32 = 250
    private var buffers: [ShmBuffer] = []
    private var frameCallback: OpaquePointer?
    private var needsFrame = false
    private var tick: (@MainActor (Int64) -> Bool)?
    private var tickTimer: guint = 0

    init(owner: CanvasSurfaceOwner, backend: WaylandBackend, output: WaylandOutput, geometry: InkGeometry) {
        self.owner = owner
        self.backend = backend
        self.output = output
        layers = InkLayers(geometry: geometry)
    }

    func place(monitor: Int, geometry: InkGeometry) {
        if let other = backend.output(at: monitor), other !== output {
            let mapped = surface != nil
            unmap()
            output = other
            if mapped { map() }
        }
        setGeometry(geometry, book: owner.book)
    }

    func present() {
        if surface == nil { map() }
        drawnAlpha = -1
        queueDraw()
    }

    func hide() { unmap() }

    func destroy() {
        stopTicks()
        unmap()
        layers.release()
    }

    // MARK: The layer surface

    private func map() {
        guard let compositor = backend.compositor, let shell = backend.layerShell else { return }
        let surface = wl_compositor_create_surface(compositor)
        self.surface = surface
        if let viewporter = backend.viewporter, let manager = backend.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScale, Self.fractionalListener, Unmanaged.passUnretained(self).toOpaque())
        }
        scale = wantedScale
        if viewport == nil { wl_surface_set_buffer_scale(surface, Int32(scale)) }
        mapCount += 1
        scaleSettled = fractionalScale == nil
        if !scaleSettled {
            let map = mapCount
            after(milliseconds: Self.settleMilliseconds) { [weak self] in
                guard let self, mapCount == map, surface != nil, !scaleSettled else { return }
                owner.log("no preferred scale agreeing with the output's \(output.scale) within \(Self.settleMilliseconds) ms: drawing at \(InkLayers.describe(wantedScale))")
                settleScale()
            }
        }
        let layerSurface = zwlr_layer_shell_v1_get_layer_surface(shell, surface, output.proxy,
                                                                 UInt32(ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue), "stylus-canvas")
        self.layerSurface = layerSurface
        zwlr_layer_surface_v1_add_listener(layerSurface, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        let edges = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_anchor(layerSurface, UInt32(edges))
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, -1)
        zwlr_layer_surface_v1_set_size(layerSurface, 0, 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, UInt32(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue))
        applyInputRegion()
        wl_surface_commit(surface)   // no buffer yet: the compositor answers with a configure
        owner.log("layer surface on \(output.connector ?? "output #\(output.globalName)")")
    }

    private func unmap() {
        if tickTimer != 0 {
            g_source_remove(tickTimer)
            tickTimer = 0
        }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        if let layerSurface { zwlr_layer_surface_v1_destroy(layerSurface) }
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let surface { wl_surface_destroy(surface) }
        layerSurface = nil
        fractionalScale = nil
        viewport = nil
        preferredScale120 = 0
        surface = nil
        configured = false
        scaleSettled = false
        placeholder?.destroy()
        placeholder = nil
        for buffer in buffers { buffer.destroy() }
        buffers.removeAll()
        if tick != nil { scheduleTick() }
    }

    private static let listener: UnsafeMutablePointer<zwlr_layer_surface_v1_listener> = allocate({
        var l = zwlr_layer_surface_v1_listener()
        l.configure = { data, _, serial, width, height in
            onMain(data, LayerCanvas.self) { $0.configure(serial, width, height) }
        }
        l.closed = { data, _ in
            onMain(data, LayerCanvas.self) { $0.closed() }
        }
        return l
    }())

    private static let fractionalListener: UnsafeMutablePointer<wp_fractional_scale_v1_listener> = allocate({
        var l = wp_fractional_scale_v1_listener()
        l.preferred_scale = { data, _, scale120 in
            onMain(data, LayerCanvas.self) { me in
                guard scale120 > 0, scale120 != me.preferredScale120 else { return }
                me.preferredScale120 = scale120
                me.owner.log("preferred scale \(InkLayers.describe(Double(scale120) / 120))")
                if !me.scaleSettled, me.preferredAgreesWithOutput { me.settleScale() } else { me.queueDraw() }
            }
        }
        return l
    }())

    /// The scale buffers should have: the compositor's fractional one where it said it, else the output's.
    private var wantedScale: Double {
        if viewport != nil, preferredScale120 > 0 { return Double(preferredScale120) / 120 }
        return Double(max(output.scale, 1))
    }

    /// wl_output.scale is the fractional scale rounded up (sway, KWin) or to nearest: a preferred
    /// scale that rounds to neither is not (yet) the output's, e.g. KWin's 1 for a surface it has not placed.
    private var preferredAgreesWithOutput: Bool {
        let preferred = Double(preferredScale120) / 120, integer = Double(max(output.scale, 1))
        return preferred.rounded(.up) == integer || preferred.rounded() == integer
    }

    /// The first frame's scale is known: layers and buffers at it, and the frame drawn.
    private func settleScale() {
        scaleSettled = true
        guard configured else { return }
        adoptScale()
        drawFrame()
    }

    /// Layers at the wanted scale (the buffers follow in drawFrame), everything to be drawn again.
    private func adoptScale() {
        scale = wantedScale
        if viewport == nil, let surface { wl_surface_set_buffer_scale(surface, Int32(scale)) }
        if layers.ensure(width: width, height: height, scale: scale) {
            layers.redrawFinished(owner.book.finished)
            layers.redrawLive(owner.book.liveStrokes)
            owner.log("layers \(width)x\(height)@\(InkLayers.describe(scale))")
        }
        layers.damageEverything()
    }

    /// Maps the configured surface without drawing while its scale is unknown: 4 bytes, transparent.
    private func showPlaceholder() {
        guard placeholder == nil, let surface, let viewport, let shm = backend.shm,
              let buffer = ShmBuffer(shm: shm, width: 1, height: 1, scale: 1) else { return }
        placeholder = buffer
        wp_viewport_set_destination(viewport, width, height)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        if wl_proxy_get_version(surface) >= 4 { wl_surface_damage_buffer(surface, 0, 0, 1, 1) } else { wl_surface_damage(surface, 0, 0, width, height) }
        wl_surface_commit(surface)
        owner.log("waiting for the preferred scale (output scale \(output.scale))")
    }

    private func configure(_ serial: UInt32, _ width: UInt32, _ height: UInt32) {
        guard let layerSurface else { return }
        zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
        let shape = output.shape
        self.width = width > 0 ? Int32(width) : Int32(shape.width)
        self.height = height > 0 ? Int32(height) : Int32(shape.height)
        configured = true
        if let viewport { wp_viewport_set_destination(viewport, self.width, self.height) }
        guard scaleSettled else {
            showPlaceholder()
            return
        }
        adoptScale()
        drawFrame()
    }

    /// The compositor took the surface away (its output went): the overlay places the canvas again.
    /// Placed again a moment later, not at once: wlroots closes the surfaces of an output
    /// just before it removes the output, and a compositor that keeps closing a surface
    /// must not get a new one in a tight loop.
    private func closed() {
        owner.log("the compositor closed the layer surface on \(output.connector ?? "an output")")
        unmap()
        after(milliseconds: 100) { [weak self] in self?.owner.monitorsChanged() }
    }

    // MARK: Input

    func updateInputRegion() {
        guard let surface else { return }
        applyInputRegion()
        if configured { wl_surface_commit(surface) }
        backend.flush()
    }

    /// As on X11: empty (pointer input goes through) when the daemon captures the pen or
    /// `--click-through` asks; otherwise the whole surface takes it.
    private func applyInputRegion() {
        guard let surface, let compositor = backend.compositor else { return }
        if owner.passesPointerInput {
            let empty = wl_compositor_create_region(compositor)
            wl_surface_set_input_region(surface, empty)
            wl_region_destroy(empty)
            owner.log("click-through: empty input region")
        } else {
            wl_surface_set_input_region(surface, nil)
            owner.log("input region: the whole surface takes pointer input")
        }
    }

    // MARK: Frames

    func queueDraw() {
        needsFrame = true
        if configured, frameCallback == nil { drawFrame() }
    }

    private func drawFrame() {
        guard configured, scaleSettled, let surface, let shm = backend.shm else { return }
        if wantedScale != scale { adoptScale() }   // the scale changed while the surface shows
        let alpha = owner.shown ? owner.alpha : 0
        layers.hoverMoved(owner.hover.values)
        if alpha != drawnAlpha { layers.damageEverything() }
        if let changed = layers.takeDamage() {
            for buffer in buffers { buffer.stale = buffer.stale?.union(changed) ?? changed }
        }
        let pixelWidth = InkLayers.pixels(width, scale), pixelHeight = InkLayers.pixels(height, scale)
        buffers.removeAll { buffer in
            // Same pixels at another scale (1280x800 at 1, 640x400 at 2) is another buffer: cairo draws it scaled.
            guard buffer.width != pixelWidth || buffer.height != pixelHeight || buffer.scale != scale else { return false }
            buffer.destroy()
            return true
        }
        var free = buffers.first { !$0.busy }
        if free == nil, buffers.count < 2, let fresh = ShmBuffer(shm: shm, width: pixelWidth, height: pixelHeight, scale: scale) {
            fresh.stale = layers.everything
            fresh.onRelease = { [unowned self] in if needsFrame, frameCallback == nil { drawFrame() } }
            buffers.append(fresh)
            owner.log("buffer \(pixelWidth)x\(pixelHeight)@\(InkLayers.describe(scale))")
            free = fresh
        }
        guard let buffer = free else {
            needsFrame = true   // both buffers are with the compositor: drawn when one comes back
            return
        }
        needsFrame = false
        guard let stale = buffer.stale else { return }   // nothing changed since this buffer was painted
        let x0 = max(0, Int32(stale.x.rounded(.down))), y0 = max(0, Int32(stale.y.rounded(.down)))
        let x1 = min(width, Int32((stale.x + stale.width).rounded(.up))), y1 = min(height, Int32((stale.y + stale.height).rounded(.up)))
        buffer.stale = nil
        // What changed lies off this surface (a pen over another output): nothing to send.
        guard x1 > x0, y1 > y0 || alpha != drawnAlpha else { return }
        if x1 > x0, y1 > y0 {
            let cr = cairo_create(buffer.cairo)!
            cairo_rectangle(cr, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
            cairo_clip(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            layers.compose(onto: cr, alpha: alpha, hover: owner.hover.values)
            cairo_destroy(cr)
            cairo_surface_flush(buffer.cairo)
        }
        drawnAlpha = alpha
        buffer.busy = true
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        if wl_proxy_get_version(surface) >= 4 {
            let bx0 = Int32((Double(x0) * scale).rounded(.down)), by0 = Int32((Double(y0) * scale).rounded(.down))
            let bx1 = min(pixelWidth, Int32((Double(x1) * scale).rounded(.up))), by1 = min(pixelHeight, Int32((Double(y1) * scale).rounded(.up)))
            wl_surface_damage_buffer(surface, bx0, by0, bx1 - bx0, by1 - by0)
        } else {
            wl_surface_damage(surface, x0, y0, x1 - x0, y1 - y0)   // wl_compositor before v4: surface coordinates
        }
        if let frameCallback { wl_callback_destroy(frameCallback) }   // a configure may draw while one is pending
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, Self.frameListener, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
        placeholder?.destroy()   // replaced by a frame: the compositor keeps what it needs of it
        placeholder = nil
    }

    private static let frameListener: UnsafeMutablePointer<wl_callback_listener> = allocate({
        var l = wl_callback_listener()
        l.done = { data, _, _ in onMain(data, LayerCanvas.self) { $0.frameDone() } }
        return l
    }())

    private func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        if tickTimer != 0 {
            g_source_remove(tickTimer)
            tickTimer = 0
        }
        runTick()
        if needsFrame { drawFrame() }
    }

    // MARK: Ticks (the fade): before each frame the compositor asks for; a
    // 16 ms timer stands in while no frame is pending (nothing changed yet,
    // or the surface is not mapped), so a fade never waits for a frame that
    // will not come.

    func startTicks(_ tick: @escaping @MainActor (Int64) -> Bool) {
        self.tick = tick
        scheduleTick()
    }

    func stopTicks() {
        tick = nil
        if tickTimer != 0 { g_source_remove(tickTimer) }
        tickTimer = 0
    }

    /// While a fade runs a timer always stands by: 16 ms when no frame is pending, 50 ms
    /// when one is, since a compositor sends no frame callback for an output that does
    /// not paint (powered off, a locked session) and the fade must still end.
    private func scheduleTick() {
        guard tick != nil, tickTimer == 0 else { return }
        tickTimer = g_timeout_add_full(G_PRIORITY_DEFAULT, frameCallback == nil ? 16 : 50, { data in
            onMain(data, LayerCanvas.self) { me in
                me.tickTimer = 0
                me.runTick()
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func runTick() {
        guard let tick else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        if tick(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000) {
            scheduleTick()
        } else {
            self.tick = nil
        }
    }
}
