// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// The canvas on one output as a wl_surface of this program's own, whatever
/// role the compositor gives it: a layer surface (LayerCanvas) or, where there
/// is no layer-shell, an xdg toplevel (ToplevelCanvas). A subclass gives the
/// surface its role and reports the compositor's configure; the rest is here.
///
/// Frames are painted by InkLayers into two wl_shm buffers in turn, only where
/// something changed, and sent with that damage when the compositor's frame
/// callback says the last one was used. The buffers have the output's pixels:
/// at its integer scale (wl_surface.set_buffer_scale), or where the compositor
/// offers wp_fractional_scale_v1 and wp_viewporter at the scale it prefers for
/// the surface (1.25, 1.5 …), shown through a viewport at the surface's logical
/// size, so that ink is sharp on a fractionally scaled output instead of drawn
/// at 2 and shrunk by the compositor.
///
/// The first frame already has that scale: layers and buffers are made only
/// once the scale is settled, so an open never draws (and allocates) at a
/// scale it throws away a moment later. The integer scale is the output's,
/// known before the surface exists. A fractional one is settled by a
/// `preferred_scale` that agrees with the output's integer scale (KWin 5.27
/// first says 1 for a new surface, then its output's 1.5), or after
/// `settleMilliseconds` without one; until then a configured surface shows a
/// 1×1 transparent buffer stretched by the viewport, since a compositor may
/// tell a surface its output only once it is mapped. Nothing is waited for on
/// an output of integer scale 1 whose mode is as large as its logical size (a
/// fractional scale rounds up to 1 only when it is 1 or less, and its sizes say
/// when it is less), nor again where the last map of this output, at the same
/// scale, heard no preferred scale at all (KWin 6.3 sends none at scale 1).
///
/// Minimized the surface does not exist: no buffers, no role, no keyboard.
@MainActor
class WaylandCanvas: CanvasSurface {
    unowned let owner: CanvasSurfaceOwner
    unowned let backend: WaylandBackend
    private(set) var output: WaylandOutput
    let layers: InkLayers
    var drawnAlpha = -1.0

    private(set) var surface: OpaquePointer?
    var configured = false
    var width: Int32 = 0, height: Int32 = 0
    /// Buffer pixels per logical pixel, as the buffers and layers are made now.
    var scale = 1.0
    var viewport: OpaquePointer?
    var fractionalScale: OpaquePointer?
    /// The compositor's preferred scale for this surface, in 120ths; 0 until it says.
    var preferredScale120: UInt32 = 0
    /// The scale the first frame is drawn at is known: nothing is drawn before.
    var scaleSettled = false
    /// Maps so far, so that the settle timer of an earlier map does nothing.
    private var mapCount = 0
    /// What maps the surface while the fractional scale is not settled.
    var placeholder: ShmBuffer?
    /// How long a fractional scale that disagrees with the output's integer scale is waited for.
    static let settleMilliseconds: UInt32 = 250
    /// The output's integer scale when the last map waited out `settleMilliseconds` with no
    /// preferred scale at all: a map at that scale again draws at once.
    var silentAtOutputScale: Int32?
    var buffers: [ShmBuffer] = []
    var frameCallback: OpaquePointer?
    var needsFrame = false
    /// A snapshot's frame: drawn without the hover rings.
    var hidesHover = false
    var tick: (@MainActor (Int64) -> Bool)?
    var tickTimer: guint = 0
    /// The text tool's taps this canvas followed (WaylandCanvas+Text.swift).
    var textTapsSeen = 0

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
        refreshPointerSetting()
        if surface == nil { map() }
        drawnAlpha = -1
        queueDraw()
    }

    func hide() {
        dropTextEntry()
        unmap()
    }

    func destroy() {
        stopTicks()
        unmap()
        layers.release()
    }

    // MARK: The role, which a subclass gives

    /// Makes `surface` a layer surface, a toplevel …, with its listeners; nothing committed yet.
    func addRole(to surface: OpaquePointer) {
        preconditionFailure("a WaylandCanvas without a role")
    }

    /// Destroys the role's objects (before the wl_surface, as the protocols ask).
    func removeRole() {}

    /// What the log calls the surface, e.g. "layer surface".
    var roleName: String { "surface" }

    /// The compositor configured the role at `width`×`height` logical pixels (0: the output's size),
    /// acked by the subclass: the first frame, or one at the new size.
    func configured(width: UInt32, height: UInt32) {
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

    // MARK: The surface

    func map() {
        guard let compositor = backend.compositor else { return }
        let surface = wl_compositor_create_surface(compositor)!
        self.surface = surface
        if let viewporter = backend.viewporter, let manager = backend.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            listenForPreferredScale()
        }
        scale = wantedScale
        if viewport == nil { wl_surface_set_buffer_scale(surface, Int32(scale)) }
        mapCount += 1
        scaleSettled = !waitsForPreferredScale
        if !scaleSettled {
            let map = mapCount
            after(milliseconds: Self.settleMilliseconds) { [weak self] in
                guard let self, mapCount == map, self.surface != nil, !scaleSettled else { return }
                owner.log("no preferred scale agreeing with the output's \(output.scale) within \(Self.settleMilliseconds) ms: drawing at \(InkLayers.describe(wantedScale))")
                if preferredScale120 == 0 { silentAtOutputScale = output.scale }
                settleScale()
            }
        }
        addRole(to: surface)
        applyInputRegion()
        wl_surface_commit(surface)   // no buffer yet: the compositor answers with a configure
        owner.log("\(roleName) on \(output.connector ?? "output #\(output.globalName)")")
    }

    func unmap() {
        if tickTimer != 0 {
            g_source_remove(tickTimer)
            tickTimer = 0
        }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        removeRole()
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let surface { wl_surface_destroy(surface) }
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

    // MARK: Input

    func updateInputRegion() {
        guard let surface else { return }
        applyInputRegion()
        if configured { wl_surface_commit(surface) }
        backend.flush()
    }

    /// As on X11: empty (pointer input goes through) when the daemon captures the pen or
    /// `--click-through` asks, unless `[canvas] pointer = "draw"` wants the mouse and touch to
    /// draw; otherwise the whole surface takes it.
    private func applyInputRegion() {
        guard let surface, let compositor = backend.compositor else { return }
        if owner.passesPointerInput, !takesPointerToDraw {
            let empty = wl_compositor_create_region(compositor)
            wl_surface_set_input_region(surface, empty)
            wl_region_destroy(empty)
            owner.log("click-through: empty input region")
        } else {
            wl_surface_set_input_region(surface, nil)
            owner.log("input region: the whole surface takes pointer input")
        }
    }
}
