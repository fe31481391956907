// SPDX-License-Identifier: MIT
import CWayland
import CanvasModel

/// The canvas on a Wayland compositor without layer-shell (weston, cage): an
/// xdg toplevel, undecorated, see-through, maximized rather than fullscreen,
/// since weston puts a black backdrop under a fullscreen window and the
/// desktop would no longer show around the ink. An ordinary window, then:
/// panels stay above it and a window raised above it covers the ink; the
/// compositor chooses the output it maximizes on. The window manager's close
/// minimizes the canvas (the daemon decides). Buffers, frames and scale:
/// WaylandCanvas.
@MainActor
final class ToplevelCanvas: WaylandCanvas {
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    /// The size the last toplevel configure asked for (0: ours to choose), applied at the xdg_surface configure that closes it.
    private var pendingWidth: Int32 = 0, pendingHeight: Int32 = 0
    private var maximizeAsked = false

    override var roleName: String { "toplevel" }

    override func addRole(to surface: OpaquePointer) {
        guard let wmBase = backend.wmBase else { return }
        let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        self.xdgSurface = xdgSurface
        xdg_surface_add_listener(xdgSurface, Self.surfaceListener, Unmanaged.passUnretained(self).toOpaque())
        let toplevel = xdg_surface_get_toplevel(xdgSurface)
        self.toplevel = toplevel
        xdg_toplevel_add_listener(toplevel, Self.toplevelListener, Unmanaged.passUnretained(self).toOpaque())
        xdg_toplevel_set_title(toplevel, "stylus-canvas")
        xdg_toplevel_set_app_id(toplevel, "stylus-canvas")
        pendingWidth = 0
        pendingHeight = 0
        maximizeAsked = false
    }

    override func removeRole() {
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        toplevel = nil
        xdgSurface = nil
    }

    private static let surfaceListener: UnsafeMutablePointer<xdg_surface_listener> = allocate({
        var l = xdg_surface_listener()
        l.configure = { data, _, serial in onMain(data, ToplevelCanvas.self) { $0.configure(serial) } }
        return l
    }())

    private static let toplevelListener: UnsafeMutablePointer<xdg_toplevel_listener> = allocate({
        var l = xdg_toplevel_listener()
        l.configure = { data, _, width, height, _ in
            onMain(data, ToplevelCanvas.self) { me in (me.pendingWidth, me.pendingHeight) = (width, height) }
        }
        l.close = { data, _ in onMain(data, ToplevelCanvas.self) { $0.owner.requestMinimize("close request") } }
        l.configure_bounds = { _, _, _, _ in }
        l.wm_capabilities = { _, _, _ in }
        return l
    }())

    /// Maximized once the window shows its first frame: weston answers a maximize asked
    /// before it with a 0x0 configure, and then calls the window's own size a protocol error.
    private func configure(_ serial: UInt32) {
        guard let xdgSurface else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
        configured(width: UInt32(max(pendingWidth, 0)), height: UInt32(max(pendingHeight, 0)))
        if !maximizeAsked, let toplevel {
            maximizeAsked = true
            xdg_toplevel_set_maximized(toplevel)
        }
    }
}
