// SPDX-License-Identifier: MIT
import CWayland
import CanvasModel

/// The canvas on one output as a wlr-layer-shell surface: on the overlay
/// layer (above fullscreen windows), anchored to every edge, exclusive zone
/// −1 (panels do not push it), namespace `stylus-canvas`; the keyboard while
/// open, exclusively (the keys' table and a text being typed need it even when
/// the input region is empty and no click could give on-demand focus), none
/// minimized, since minimized it does not exist. Buffers, frames and scale:
/// WaylandCanvas.
@MainActor
final class LayerCanvas: WaylandCanvas {
    private var layerSurface: OpaquePointer?

    override var roleName: String { "layer surface" }

    override func addRole(to surface: OpaquePointer) {
        guard let shell = backend.layerShell else { return }
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
    }

    override func removeRole() {
        if let layerSurface { zwlr_layer_surface_v1_destroy(layerSurface) }
        layerSurface = nil
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

    private func configure(_ serial: UInt32, _ width: UInt32, _ height: UInt32) {
        guard let layerSurface else { return }
        zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
        configured(width: width, height: height)
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
}
