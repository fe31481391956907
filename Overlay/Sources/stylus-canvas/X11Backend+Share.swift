// SPDX-License-Identifier: MIT
import CGlib
import CXcb
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// Snapshots on X11: the root window's pixels (GetImage), which hold what the
/// screen shows: without a compositing manager the canvas's shaped window is
/// drawn on it like any window; with one, what the manager painted.
extension X11Backend: ScreenShare {
    var capturesScreen: Bool { true }

    func captureScreen(_ monitor: MonitorShape) -> Result<OpaquePointer, ShareFailure> {
        // A round trip: the server has drawn every request sent before it. Under a compositing
        // manager the canvas's frame without chrome waited for its paint (X11CompositorWait).
        if let reply = xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil) { free(reply) }
        let (w, h) = (Int32(monitor.width), Int32(monitor.height))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let cookie = xcb_get_image(connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), root, Int16(monitor.x), Int16(monitor.y),
                                   UInt16(w), UInt16(h), UInt32.max)
        guard let reply = xcb_get_image_reply(connection, cookie, &error) else {
            let code = error.map { Int($0.pointee.error_code) } ?? 0
            free(error)
            return .failure("the X server would not give the screen's pixels (GetImage error \(code))")
        }
        defer { free(reply) }
        let depth = reply.pointee.depth
        let length = Int(xcb_get_image_data_length(reply))
        guard depth == 24 || depth == 32, length == Int(w) * Int(h) * 4, let data = xcb_get_image_data(reply) else {
            return .failure("the screen's pixels (depth \(depth), \(length) bytes for \(w)×\(h)) are not 32 bits each, the only layout a snapshot reads")
        }
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)!
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(image) else {
            cairo_surface_destroy(image)
            return .failure("cannot hold a \(w)×\(h) picture: out of memory")
        }
        let stride = Int(cairo_image_surface_get_stride(image))
        let source = UnsafeRawPointer(data)
        for y in 0..<Int(h) {
            let from = (source + y * Int(w) * 4).assumingMemoryBound(to: UInt32.self)
            let to = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            // The screen is opaque: its pad byte becomes full alpha.
            for x in 0..<Int(w) { to[x] = from[x] | 0xff00_0000 }
        }
        cairo_surface_mark_dirty(image)
        return .success(image)
    }

    func holdClipboard(_ png: [UInt8]) -> String? {
        clipboardMade = true
        return clipboard.hold(png)
    }
}
