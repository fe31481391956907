// SPDX-License-Identifier: MIT
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// A snapshot's wait for the window manager, on a desktop with no compositing
/// manager: a reparenting window manager (openbox, xfwm4, i3) copies the canvas
/// window's bounding shape onto its frame when it hears the ShapeNotify, so for
/// a while after the canvas shrinks its shape (the palette taken off for the
/// snapshot) the frame still covers the old shape with its own black pixels,
/// and the screen read at once holds a black palette. Only a frame whose shape
/// was the canvas's own before the change is waited for, until it is again or
/// for a bounded time.
struct X11FrameShapeWait {
    static let limitMicroseconds: Int64 = 150_000
    static let pollMicroseconds: useconds_t = 1_000

    let frame: xcb_window_t
    /// The window's place in its frame.
    let dx: Int16, dy: Int16

    /// Nil when the window is not in a frame, or the frame's shape is not a copy of the window's.
    init?(_ c: OpaquePointer, window: xcb_window_t) {
        guard let tree = xcb_query_tree_reply(c, xcb_query_tree(c, window), nil) else { return nil }
        let parent = tree.pointee.parent, root = tree.pointee.root
        free(tree)
        guard parent != root, parent != 0,
              let place = xcb_translate_coordinates_reply(c, xcb_translate_coordinates(c, window, parent, 0, 0), nil) else { return nil }
        frame = parent
        dx = place.pointee.dst_x
        dy = place.pointee.dst_y
        free(place)
        guard let own = Self.rectangles(c, window), own == self.frameShape(c) else { return nil }
    }

    /// After the new shape was sent: until the frame's shape is the window's again, or the bound. The microseconds waited.
    @discardableResult
    func wait(_ c: OpaquePointer, window: xcb_window_t) -> Int64 {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let own = Self.rectangles(c, window)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let waited = Int64(now.tv_sec - start.tv_sec) * 1_000_000 + Int64(now.tv_nsec - start.tv_nsec) / 1_000
            guard let own, frameShape(c) != own, waited < Self.limitMicroseconds else { return waited }
            usleep(Self.pollMicroseconds)
        }
    }

    /// The frame's bounding shape in the window's coordinates.
    private func frameShape(_ c: OpaquePointer) -> [Rectangle]? {
        Self.rectangles(c, frame)?.map { Rectangle(x: $0.x - Int32(dx), y: $0.y - Int32(dy), width: $0.width, height: $0.height) }
    }

    /// The server keeps a region in one canonical band order, so equal regions list equal rectangles.
    struct Rectangle: Equatable {
        let x: Int32, y: Int32, width: Int32, height: Int32
    }

    private static func rectangles(_ c: OpaquePointer, _ window: xcb_window_t) -> [Rectangle]? {
        let cookie = xcb_shape_get_rectangles(c, window, UInt8(XCB_SHAPE_SK_BOUNDING.rawValue))
        guard let reply = xcb_shape_get_rectangles_reply(c, cookie, nil) else { return nil }
        defer { free(reply) }
        let n = Int(xcb_shape_get_rectangles_rectangles_length(reply))
        guard n > 0, let first = xcb_shape_get_rectangles_rectangles(reply) else { return [] }
        return (0..<n).map { i in
            let r = first[i]
            return Rectangle(x: Int32(r.x), y: Int32(r.y), width: Int32(r.width), height: Int32(r.height))
        }
    }
}
