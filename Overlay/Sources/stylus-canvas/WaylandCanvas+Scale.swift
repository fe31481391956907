// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel

/// The scale a surface's buffers are drawn at: the output's integer one, or
/// the fractional one the compositor prefers, settled before the first frame.
extension WaylandCanvas {
    func listenForPreferredScale() {
        wp_fractional_scale_v1_add_listener(fractionalScale, Self.fractionalListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private static let fractionalListener: UnsafeMutablePointer<wp_fractional_scale_v1_listener> = allocate({
        var l = wp_fractional_scale_v1_listener()
        l.preferred_scale = { data, _, scale120 in
            onMain(data, WaylandCanvas.self) { me in
                guard scale120 > 0, scale120 != me.preferredScale120 else { return }
                me.preferredScale120 = scale120
                me.silentAtOutputScale = nil
                me.owner.log("preferred scale \(InkLayers.describe(Double(scale120) / 120))")
                if !me.scaleSettled, me.preferredAgreesWithOutput { me.settleScale() } else { me.queueDraw() }
            }
        }
        return l
    }())

    /// The scale buffers should have: the compositor's fractional one where it said it, else the output's.
    var wantedScale: Double {
        if viewport != nil, preferredScale120 > 0 { return Double(preferredScale120) / 120 }
        return Double(max(output.scale, 1))
    }

    /// wl_output.scale is the fractional scale rounded up (sway, KWin) or to nearest: a preferred
    /// scale that rounds to neither is not (yet) the output's, e.g. KWin's 1 for a surface it has not placed.
    /// On an output scaled below 1 (which says 1) only a preferred scale below 1 is its own.
    private var preferredAgreesWithOutput: Bool {
        let preferred = Double(preferredScale120) / 120, integer = Double(max(output.scale, 1))
        if output.scaledBelowOne { return preferred < 1 }
        return preferred.rounded(.up) == integer || preferred.rounded() == integer
    }

    /// Whether a map waits for the preferred scale before its first frame: only where one will
    /// come (wp_fractional_scale_v1 bound) and the output's integer scale is not already the
    /// scale to draw at. At integer scale 1 that is known only from the output's sizes: fewer
    /// mode pixels than logical ones is a scale below 1 (sway's `output X scale 0.75`), which
    /// wl_output rounds up to 1; an output whose sizes say 1 (or say nothing) draws at once, as
    /// before, and so does one whose last map at this scale heard no preferred scale at all.
    var waitsForPreferredScale: Bool {
        guard fractionalScale != nil, silentAtOutputScale != output.scale else { return false }
        return output.scale > 1 || output.scaledBelowOne
    }

    /// The first frame's scale is known: layers and buffers at it, and the frame drawn.
    func settleScale() {
        scaleSettled = true
        guard configured else { return }
        adoptScale()
        drawFrame()
    }

    /// Layers at the wanted scale (the buffers follow in drawFrame), everything to be drawn again.
    func adoptScale() {
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
    func showPlaceholder() {
        guard placeholder == nil, let surface, let viewport, let shm = backend.shm,
              let buffer = ShmBuffer(shm: shm, width: 1, height: 1, scale: 1) else { return }
        placeholder = buffer
        wp_viewport_set_destination(viewport, width, height)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        if wl_proxy_get_version(surface) >= 4 { wl_surface_damage_buffer(surface, 0, 0, 1, 1) } else { wl_surface_damage(surface, 0, 0, width, height) }
        wl_surface_commit(surface)
        owner.log("waiting for the preferred scale (output scale \(output.scale))")
    }
}
