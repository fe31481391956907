// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// Snapshots on wlroots compositors (sway, Hyprland, wayfire): one
/// zwlr_screencopy frame of the output, into a wl_shm buffer of the layout the
/// compositor asks for, waited for in place (a capture takes a frame or two).
/// The canvas committed its frame without chrome just before: the output's next
/// render, which the copy is, holds it. KWin has no screencopy: KWinScreenShot.
/// The clipboard: WaylandClipboard.
extension WaylandBackend: ScreenShare {
    var capturesScreen: Bool { screencopy != nil || KWinScreenShot.offered }

    /// What the frame's events said, filled in by the listener.
    private final class Capture {
        var format: UInt32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        var offered = false, offersDone = false, ready = false, failed = false
        var flags: UInt32 = 0
    }

    func captureScreen(_ monitor: MonitorShape) -> Result<OpaquePointer, ShareFailure> {
        guard let output = outputs.first(where: { $0.shape == monitor }) else { return .failure("the monitor is gone") }
        guard let screencopy, let shm else {
            guard let name = output.connector else { return .failure("the compositor names no output to capture") }
            // KWin reads the scene from its own thread: the bare frame must have reached it before the request does.
            wl_display_roundtrip(display)
            return KWinScreenShot.capture(output: name)
        }
        let capture = Capture()
        guard let frame = zwlr_screencopy_manager_v1_capture_output(screencopy, 0, output.proxy) else {
            return .failure("the compositor would not start a capture")
        }
        defer { zwlr_screencopy_frame_v1_destroy(frame) }
        zwlr_screencopy_frame_v1_add_listener(frame, Self.captureListener, Unmanaged.passUnretained(capture).toOpaque())
        // Version 3 lists every buffer type, then buffer_done; before it, the shm offer is the last word.
        let lists = wl_proxy_get_version(frame) >= 3
        while !capture.failed, !(capture.offered && (!lists || capture.offersDone)) {
            if wl_display_dispatch(display) < 0 { return .failure("the Wayland connection failed during the capture") }
        }
        let argb = UInt32(WL_SHM_FORMAT_ARGB8888.rawValue), xrgb = UInt32(WL_SHM_FORMAT_XRGB8888.rawValue)
        guard !capture.failed else { return .failure("the compositor refused the capture") }
        guard capture.format == argb || capture.format == xrgb, capture.stride >= capture.width * 4 else {
            return .failure("the compositor captures in a pixel layout (wl_shm format \(capture.format)) a snapshot does not read")
        }
        let size = Int(capture.stride) * Int(capture.height)
        let fd = stylus_shm_file(Int64(size))
        guard fd >= 0 else { return .failure("no shared memory for a \(capture.width)×\(capture.height) capture: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            return .failure("cannot map a \(capture.width)×\(capture.height) capture")
        }
        defer { munmap(memory, size) }
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        let buffer = wl_shm_pool_create_buffer(pool, 0, capture.width, capture.height, capture.stride, capture.format)
        wl_shm_pool_destroy(pool)
        defer { wl_buffer_destroy(buffer) }
        zwlr_screencopy_frame_v1_copy(frame, buffer)
        while !capture.failed, !capture.ready {
            if wl_display_dispatch(display) < 0 { return .failure("the Wayland connection failed during the capture") }
        }
        guard capture.ready else { return .failure("the compositor could not copy the screen") }
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, capture.width, capture.height)!
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(image) else {
            cairo_surface_destroy(image)
            return .failure("cannot hold a \(capture.width)×\(capture.height) picture: out of memory")
        }
        let stride = Int(cairo_image_surface_get_stride(image))
        let flipped = capture.flags & UInt32(ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT.rawValue) != 0
        for y in 0..<Int(capture.height) {
            let row = flipped ? Int(capture.height) - 1 - y : y
            let from = (memory + row * Int(capture.stride)).assumingMemoryBound(to: UInt32.self)
            let to = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            // The screen is opaque (XRGB's pad byte, or an output's alpha that means nothing).
            for x in 0..<Int(capture.width) { to[x] = from[x] | 0xff00_0000 }
        }
        cairo_surface_mark_dirty(image)
        return .success(image)
    }

    /// Sent at once: the answer to `copy` must not reach a paste before the compositor has the selection.
    func holdClipboard(_ png: [UInt8]) -> String? {
        defer { flush() }
        return clipboard.hold(png, seat: seat)
    }

    private static let captureListener: UnsafeMutablePointer<zwlr_screencopy_frame_v1_listener> = allocate({
        var l = zwlr_screencopy_frame_v1_listener()
        func capture(_ data: UnsafeMutableRawPointer?) -> Capture { Unmanaged<Capture>.fromOpaque(data!).takeUnretainedValue() }
        l.buffer = { data, _, format, width, height, stride in
            let c = capture(data)
            (c.format, c.width, c.height, c.stride, c.offered) = (format, Int32(width), Int32(height), Int32(stride), true)
        }
        l.flags = { data, _, flags in capture(data).flags = flags }
        l.ready = { data, _, _, _, _ in capture(data).ready = true }
        l.failed = { data, _ in capture(data).failed = true }
        l.damage = { _, _, _, _, _, _ in }
        l.linux_dmabuf = { _, _, _, _, _ in }
        l.buffer_done = { data, _ in capture(data).offersDone = true }
        return l
    }())
}
