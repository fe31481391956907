// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// Frames: painted where something changed, sent when the compositor has
/// used the last one; and the fade's ticks, paced by those frames.
extension WaylandCanvas {
    func queueDraw() {
        needsFrame = true
        if configured, frameCallback == nil { drawFrame() }
    }

    /// Commits a frame without the hover rings now, if a buffer is free: the capture that follows
    /// is of the output's next render, which holds it.
    func drawBare() {
        hidesHover = true
        drawFrame()
        hidesHover = false
        layers.damageEverything()   // the rings come back with the next frame
        backend.flush()
    }

    func drawFrame() {
        guard configured, scaleSettled, let surface, let shm = backend.shm else { return }
        if wantedScale != scale { adoptScale() }   // the scale changed while the surface shows
        if !hidesHover { followTextTaps() }
        let alpha = owner.shown ? owner.alpha : 0
        let hover = hidesHover ? [] : Array(owner.hover.values)
        layers.hoverMoved(hover)
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
            layers.compose(onto: cr, alpha: alpha, hover: hover)
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
        l.done = { data, _, _ in onMain(data, WaylandCanvas.self) { $0.frameDone() } }
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
    func scheduleTick() {
        guard tick != nil, tickTimer == 0 else { return }
        tickTimer = g_timeout_add_full(G_PRIORITY_DEFAULT, frameCallback == nil ? 16 : 50, { data in
            onMain(data, WaylandCanvas.self) { me in
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
