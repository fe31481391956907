// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel

/// The canvas as GTK windows, one per monitor: on X11 fullscreen, see-through
/// with a compositing manager; on a Wayland compositor without layer-shell
/// (`toplevel`) a maximized, undecorated, transparent window, since xdg-shell
/// makes a fullscreen one opaque (docs/OVERLAY.md: what that looks like).
@MainActor
final class GtkBackend: CanvasBackend {
    let name: String
    private let toplevel: Bool
    weak var owner: CanvasSurfaceOwner?

    /// Initializes GTK; nil when it cannot open a display.
    init?(toplevel: Bool) {
        guard gtk_init_check() != 0 else { return nil }
        self.toplevel = toplevel
        name = toplevel ? "wayland-toplevel" : "x11"
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, "window.stylus-canvas, window.stylus-canvas > * { background: transparent; box-shadow: none; }", -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        typealias ItemsChanged = @convention(c) (OpaquePointer?, guint, guint, guint, UnsafeMutableRawPointer?) -> Void
        let onMonitors: ItemsChanged = { _, _, _, _, data in
            MainActor.assumeIsolated { Unmanaged<GtkBackend>.fromOpaque(data!).takeUnretainedValue().owner?.monitorsChanged() }
        }
        connectSignal(UnsafeMutableRawPointer(gdk_display_get_monitors(gdk_display_get_default())), "items-changed", onMonitors,
                      Unmanaged.passUnretained(self).toOpaque())
    }

    /// GDK's monitor `index`; the display's list keeps its reference.
    static func monitor(at index: Int) -> OpaquePointer? {
        let list = gdk_display_get_monitors(gdk_display_get_default())
        guard index >= 0, index < Int(g_list_model_get_n_items(list)), let item = g_list_model_get_item(list, guint(index)) else { return nil }
        g_object_unref(item)
        return OpaquePointer(item)
    }

    func monitors() -> [MonitorShape] {
        let list = gdk_display_get_monitors(gdk_display_get_default())
        return (0..<Int(g_list_model_get_n_items(list))).compactMap { i in
            guard let monitor = Self.monitor(at: i) else { return nil }
            var r = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &r)
            let connector = gdk_monitor_get_connector(monitor).map { String(cString: $0) }
            let manufacturer = gdk_monitor_get_manufacturer(monitor).map { String(cString: $0) }
            return MonitorShape(connector: connector, manufacturer: manufacturer, x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height),
                                widthMM: Int(gdk_monitor_get_width_mm(monitor)), heightMM: Int(gdk_monitor_get_height_mm(monitor)))
        }
    }

    func makeSurface(owner: CanvasSurfaceOwner, monitor: Int, geometry: InkGeometry) -> CanvasSurface {
        MonitorWindow(owner: owner, monitor: Self.monitor(at: monitor)!, geometry: geometry, maximizeInstead: toplevel)
    }

    func flush() { gdk_display_flush(gdk_display_get_default()) }
}
