// SPDX-License-Identifier: MIT
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// A snapshot's wait for the compositing manager: the canvas sent its frame
/// without chrome, and the root's pixels hold it only once the manager has
/// painted it. Rather than a fixed time, one screen pixel the frame changes is
/// watched until it changes: xcompmgr and picom paint on damage, within a
/// frame. The time is bounded: a manager that paints elsewhere (or a change
/// that composes to the same colour) costs the bound, as the fixed wait did.
struct X11CompositorWait {
    static let limitMicroseconds: Int64 = 60_000
    static let pollMicroseconds: useconds_t = 1_000

    /// The pixel on the root window, and what the screen showed there before the frame.
    let x: Int16, y: Int16
    let before: UInt32

    /// Rows [y0, y1) of [x0, x1) of an ARGB32 image, copied before it is drawn over.
    static func copy(_ data: UnsafePointer<UInt8>, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) -> [UInt32] {
        var old: [UInt32] = []
        old.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 {
            let row = UnsafeRawPointer(data + y * stride)
            for x in x0..<x1 { old.append(row.load(fromByteOffset: x * 4, as: UInt32.self)) }
        }
        return old
    }

    /// The first pixel of the rectangle whose value is not what `old` held: where the new frame shows.
    static func firstChange(_ old: [UInt32], _ data: UnsafePointer<UInt8>, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) -> (x: Int, y: Int)? {
        var i = 0
        for y in y0..<y1 {
            let row = UnsafeRawPointer(data + y * stride)
            for x in x0..<x1 {
                if row.load(fromByteOffset: x * 4, as: UInt32.self) != old[i] { return (x, y) }
                i += 1
            }
        }
        return nil
    }

    /// What the screen shows at (x, y) of the root now; nil when the server would not say.
    static func screenPixel(_ c: OpaquePointer, root: xcb_window_t, x: Int16, y: Int16) -> UInt32? {
        let cookie = xcb_get_image(c, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), root, x, y, 1, 1, UInt32.max)
        guard let reply = xcb_get_image_reply(c, cookie, nil) else { return nil }
        defer { free(reply) }
        guard xcb_get_image_data_length(reply) >= 4, let data = xcb_get_image_data(reply) else { return nil }
        return UnsafeRawPointer(data).loadUnaligned(as: UInt32.self) & 0x00ff_ffff
    }

    /// Reads the pixel before the frame goes out (the server has drawn all sent before: a round trip).
    init?(_ c: OpaquePointer, root: xcb_window_t, x: Int16, y: Int16) {
        guard let pixel = Self.screenPixel(c, root: root, x: x, y: y) else { return nil }
        self.x = x
        self.y = y
        before = pixel
    }

    /// After the frame was flushed: until the pixel changed, or the bound. The microseconds waited.
    @discardableResult
    func wait(_ c: OpaquePointer, root: xcb_window_t) -> Int64 {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let waited = Int64(now.tv_sec - start.tv_sec) * 1_000_000 + Int64(now.tv_nsec - start.tv_nsec) / 1_000
            guard let pixel = Self.screenPixel(c, root: root, x: x, y: y), pixel == before, waited < Self.limitMicroseconds else {
                return waited
            }
            usleep(Self.pollMicroseconds)
        }
    }
}
