// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// Snapshots on KWin, which offers no wlr-screencopy: org.kde.KWin.ScreenShot2 on
/// the session bus. KWin answers CaptureScreen with the image's layout, then writes
/// its raw pixels into the pipe it was given, from a thread of its own; both are
/// waited for in place, each with a deadline, as the screencopy path waits for its
/// frame. KWin serves only a program that a desktop file names by its full path
/// with `X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2`
/// (Overlay/stylus-canvas.desktop); it offers the name only where it composites
/// with OpenGL.
@MainActor
enum KWinScreenShot {
    static let service = "org.kde.KWin.ScreenShot2"
    /// Each wait (the answer, then the pixels), both within the daemon's 5 s for the canvas's answer so
    /// that the reason given is this one: a frame takes KWin milliseconds on a GPU, tens on llvmpipe.
    static let timeoutMS: Int32 = 2000

    /// Asked at each snapshot, not at start-up: KWin may switch compositing (and the name) on and off.
    static var offered: Bool {
        guard sessionBusKnown, let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var arguments = [g_variant_new_string(service)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", parameters, g_variant_type_checked_("(b)"),
                                                      G_DBUS_CALL_FLAGS_NONE, 1000, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        let owned = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// Without an address or the user's bus socket GLib would launch a bus of its own (dbus-launch, with X11): not for a question.
    private static var sessionBusKnown: Bool {
        if getenv("DBUS_SESSION_BUS_ADDRESS") != nil { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR") else { return false }
        return access(String(cString: runtime) + "/bus", F_OK) == 0
    }

    /// The output named `output` (its wl_output name, which is KWin's) at native pixels, as an opaque
    /// cairo ARGB32 image; or why not. A refusal for want of the desktop file says so and asks for the ink alone.
    static func capture(output: String) -> Result<OpaquePointer, ShareFailure> {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            return .failure("no session bus to ask KWin for the screen: \(take(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure("no pipe for KWin's screenshot: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        defer { close(readEnd) }
        let fds = g_unix_fd_list_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(fds)) }
        let index = g_unix_fd_list_append(fds, ends[1], &error)
        // The list holds its own copy: ours goes now, so the pipe ends when KWin has written.
        close(ends[1])
        guard index >= 0 else { return .failure("cannot pass a pipe to KWin: \(take(error))") }

        func option(_ key: String, _ value: Bool) -> OpaquePointer? {
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(g_variant_new_boolean(value ? 1 : 0)))
        }
        // The canvas is what the snapshot is of: KWin 6 hides the caller's own windows unless told not to.
        var entries: [OpaquePointer?] = [option("native-resolution", true), option("include-cursor", false), option("hide-caller-windows", false)]
        let options = entries.withUnsafeMutableBufferPointer { g_variant_new_array(g_variant_type_checked_("{sv}"), $0.baseAddress, gsize($0.count)) }
        var arguments: [OpaquePointer?] = [g_variant_new_string(output), options, g_variant_new_handle(index)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            bus, service, "/org/kde/KWin/ScreenShot2", service, "CaptureScreen", parameters, g_variant_type_checked_("(a{sv})"),
            G_DBUS_CALL_FLAGS_NONE, timeoutMS, fds, nil, nil, &error) else {
            return .failure(refusal(error, output: output))
        }
        defer { g_variant_unref(reply) }
        let results = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(results) }
        func number(_ key: String) -> Int? {
            guard let value = g_variant_lookup_value(results, key, g_variant_type_checked_("u")) else { return nil }
            defer { g_variant_unref(value) }
            return Int(g_variant_get_uint32(value))
        }
        if let type = g_variant_lookup_value(results, "type", g_variant_type_checked_("s")) {
            defer { g_variant_unref(type) }
            let name = String(cString: g_variant_get_string(type, nil))
            guard name == "raw" else { return .failure("KWin sent the screen as \"\(name)\", not the raw pixels a snapshot reads") }
        }
        guard let width = number("width"), let height = number("height"), let stride = number("stride"), let format = number("format"),
              width > 0, height > 0, width <= 16384, height <= 16384 else {
            return .failure("KWin's screenshot answer gave no usable size")
        }
        guard let layout = Layout(rawValue: format) else {
            return .failure("KWin captures in a pixel layout (QImage format \(format)\(Layout.name(format).map { ", \($0)" } ?? "")) a snapshot does not read")
        }
        guard stride >= width * 4 else { return .failure("KWin's screenshot rows (\(stride) bytes) are shorter than \(width) pixels") }
        return read(readEnd, width: width, height: height, stride: stride, layout: layout)
    }

    /// The QImage formats of 32 bits a pixel, the ones a screen comes in.
    enum Layout: Int {
        case rgb32 = 4, argb32 = 5, argb32Premultiplied = 6, rgbx8888 = 16, rgba8888 = 17, rgba8888Premultiplied = 18

        /// Whether the bytes are R, G, B, A in memory (else one native 0xAARRGGBB word, cairo's own).
        var bytewise: Bool { rawValue >= 16 }

        /// Names for the reason a snapshot gives when KWin sends another layout.
        static func name(_ format: Int) -> String? {
            [7: "RGB16", 13: "RGB888", 19: "BGR30", 20: "A2BGR30_Premultiplied", 21: "RGB30", 22: "A2RGB30_Premultiplied",
             25: "RGBX64", 26: "RGBA64", 27: "RGBA64_Premultiplied", 29: "BGR888", 30: "RGBX16FPx4", 31: "RGBA16FPx4",
             32: "RGBA16FPx4_Premultiplied"][format]
        }
    }

    /// The pixels from the pipe, a row at a time into the image (no second full-size copy).
    private static func read(_ fd: Int32, width: Int, height: Int, stride: Int, layout: Layout) -> Result<OpaquePointer, ShareFailure> {
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(image) else {
            cairo_surface_destroy(image)
            return .failure("cannot hold a \(width)×\(height) picture: out of memory")
        }
        let imageStride = Int(cairo_image_surface_get_stride(image))
        let row = UnsafeMutableRawPointer.allocate(byteCount: stride, alignment: 4)
        defer { row.deallocate() }
        let deadline = monotonicMS() + Int64(timeoutMS)
        for y in 0..<height {
            var filled = 0
            while filled < stride {
                let left = deadline - monotonicMS()
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = left > 0 ? poll(&poller, 1, Int32(left)) : 0
                if ready < 0, errno == EINTR { continue }
                let got = ready > 0 ? Glibc.read(fd, row + filled, stride - filled) : -1
                if got < 0, ready > 0, errno == EINTR || errno == EAGAIN { continue }
                guard got > 0 else {
                    cairo_surface_destroy(image)
                    let why = ready == 0 ? "within \(timeoutMS / 1000) s" : got == 0 ? "before it closed the pipe" : "(\(String(cString: strerror(errno))))"
                    return .failure("KWin sent \(y) of the \(height) rows of the screen \(why)")
                }
                filled += got
            }
            let from = row.assumingMemoryBound(to: UInt32.self)
            let to = UnsafeMutableRawPointer(pixels + y * imageStride).assumingMemoryBound(to: UInt32.self)
            // The screen is opaque: RGB32's pad byte and an output's alpha mean nothing here.
            if layout.bytewise {
                for x in 0..<width {
                    let p = UInt32(littleEndian: from[x])
                    to[x] = 0xff00_0000 | (p & 0xff) << 16 | (p & 0xff00) | (p >> 16) & 0xff
                }
            } else {
                for x in 0..<width { to[x] = from[x] | 0xff00_0000 }
            }
        }
        cairo_surface_mark_dirty(image)
        return .success(image)
    }

    /// KWin's error in words; NoAuthorized asks for the ink alone, with how to authorise the canvas.
    private static func refusal(_ error: UnsafeMutablePointer<GError>?, output: String) -> ShareFailure {
        let remote = error.flatMap { g_dbus_error_get_remote_error($0) }.map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        // GDBus's own deadline is a local error, not KWin's.
        let timedOut = error.map { $0.pointee.domain == g_io_error_quark() && $0.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue) } ?? false
        if let error { g_dbus_error_strip_remote_error(error) }
        let message = take(error)
        if timedOut { return "KWin did not answer the screenshot request within \(timeoutMS / 1000) s" }
        switch remote {
        case "org.kde.KWin.ScreenShot2.Error.NoAuthorized":
            var failure = ShareFailure(stringLiteral: "KWin refused the screen capture (\(remote!)): it serves only a program that a desktop file "
                + "under share/applications runs by its full path (Exec=\(executablePath())) with "
                + "X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2, which `make install` and the .deb put there; "
                + "the picture holds the ink only")
            failure.inkInstead = true
            return failure
        case "org.kde.KWin.ScreenShot2.Error.InvalidScreen":
            return "KWin knows no screen \"\(output)\" to capture"
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            return "KWin did not answer the screenshot request within \(timeoutMS / 1000) s"
        case "org.freedesktop.DBus.Error.ServiceUnknown":
            return "KWin stopped offering its screenshot service (\(service)) during the snapshot"
        case let name?:
            return "KWin's screenshot failed (\(name)): \(message)"
        case nil:
            return "KWin's screenshot failed: \(message)"
        }
    }

    /// The GError's message, freeing it.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }

    /// What KWin compares with the desktop files' Exec: this process's executable, links resolved.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "stylus-canvas"
    }

    private static func monotonicMS() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
