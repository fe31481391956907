// SPDX-License-Identifier: MIT
import CGlib
import CXcb
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// The canvas on one monitor as an X11 window of the ARGB visual: managed,
/// undecorated, fullscreen and above other windows (`_NET_WM_STATE` set
/// before each map), so that the window manager gives it the keyboard
/// (Escape, Ctrl+Z) and its close minimizes the canvas. Its pixels are
/// composed by InkLayers into one cairo image and sent with PutImage, only
/// the rectangle that changed, at most one frame each 16 ms. Without a
/// compositing manager the ARGB window's clear pixels would show black, so
/// its bounding shape then follows the ink's pixels (the desktop shows
/// around it, and only the ink takes clicks).
@MainActor
final class X11Canvas: CanvasSurface {
    unowned let owner: CanvasSurfaceOwner
    unowned let backend: X11Backend
    let window: xcb_window_t
    private let gc: xcb_gcontext_t
    let layers: InkLayers
    private(set) var drawnAlpha = -1.0
    private var monitor: MonitorShape
    private var width: Int32, height: Int32
    /// The window's pixels as last composed (cairo ARGB32: the visual's premultiplied ARGB on a little-endian machine).
    private var image: OpaquePointer?
    /// Window pixels the server lost (exposed) or never got: sent again from the next frame.
    private var stale: PixelRect?
    /// Asked to be mapped (the window manager may not have done it yet).
    private var mapped = false
    /// The input shape was emptied, and the window manager's frame may still hold that shape.
    private var emptied = false
    /// No compositing manager when it was mapped: the bounding shape follows the ink.
    /// What the window listens to; key releases too once an input method has a context for it.
    static let events = XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_KEY_PRESS.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
    private var shapedToInk = false
    private var frameSource: guint = 0
    private var lastFrame: Int64 = 0
    private var tick: (@MainActor (Int64) -> Bool)?
    private var tickTimer: guint = 0
    /// The text tool's taps this canvas followed (X11Canvas+Text.swift).
    var textTapsSeen = 0

    init(owner: CanvasSurfaceOwner, backend: X11Backend, monitor: MonitorShape, geometry: InkGeometry) {
        self.owner = owner
        self.backend = backend
        self.monitor = monitor
        width = Int32(monitor.width)
        height = Int32(monitor.height)
        layers = InkLayers(geometry: geometry)
        let c = backend.connection
        window = xcb_generate_id(c)
        let events = Self.events
        // Border pixel and colormap are required for a window whose depth differs from its parent's.
        let mask = XCB_CW_BACK_PIXEL.rawValue | XCB_CW_BORDER_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue | XCB_CW_COLORMAP.rawValue
        let values: [UInt32] = [0, 0, events, backend.colormap]
        xcb_create_window(c, 32, window, backend.root, Int16(monitor.x), Int16(monitor.y), UInt16(width), UInt16(height), 0,
                          UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), backend.visual, mask, values)
        gc = xcb_generate_id(c)
        xcb_create_gc(c, gc, window, 0, nil)
        let atoms = backend.atoms
        let title = Array("stylus-canvas".utf8)
        backend.setProperty(window, XCB_ATOM_WM_NAME.rawValue, XCB_ATOM_STRING.rawValue, bytes: title)
        backend.setProperty(window, atoms.name, atoms.utf8, bytes: title)
        backend.setProperty(window, XCB_ATOM_WM_CLASS.rawValue, XCB_ATOM_STRING.rawValue, bytes: Array("stylus-canvas\0Stylus-canvas\0".utf8))
        backend.setProperty(window, atoms.protocols, XCB_ATOM_ATOM.rawValue, [atoms.deleteWindow])
        backend.setProperty(window, atoms.motifHints, atoms.motifHints, [2, 0, 0, 0, 0])   // decorations: none
        backend.setProperty(window, XCB_ATOM_WM_HINTS.rawValue, XCB_ATOM_WM_HINTS.rawValue, [1 | 2, 1, 1, 0, 0, 0, 0, 0, 0])   // input, normal state
        backend.setProperty(window, atoms.windowType, XCB_ATOM_ATOM.rawValue, [atoms.normalType])
        backend.setProperty(window, atoms.pid, XCB_ATOM_CARDINAL.rawValue, [UInt32(getpid())])
        backend.pointerInput?.select(window: window)
    }

    func place(monitor: Int, geometry: InkGeometry) {
        let all = backend.monitors()
        if all.indices.contains(monitor), all[monitor] != self.monitor {
            self.monitor = all[monitor]
            if mapped {
                // Fullscreen is the window manager's: mapped again at the new place, it covers the new monitor.
                hide()
                present()
            }
        }
        setGeometry(geometry, book: owner.book)
    }

    func present() {
        refreshPointerSetting()
        drawnAlpha = -1
        let c = backend.connection
        guard !mapped else {
            xcb_configure_window(c, window, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), [XCB_STACK_MODE_ABOVE.rawValue])
            queueDraw()
            return
        }
        // The monitor's place and size as the window's own: without a window manager (nobody
        // honours "fullscreen") the canvas still covers its monitor; with one, fullscreen wins.
        let place = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue
        xcb_configure_window(c, window, UInt16(place), [UInt32(bitPattern: Int32(monitor.x)), UInt32(bitPattern: Int32(monitor.y)),
                                                         UInt32(monitor.width), UInt32(monitor.height)])
        var hints = [UInt32](repeating: 0, count: 18)
        hints[0] = 1 | 2 | 4 | 8   // user and program position and size: the window manager places it on its monitor
        hints[1] = UInt32(bitPattern: Int32(monitor.x))
        hints[2] = UInt32(bitPattern: Int32(monitor.y))
        hints[3] = UInt32(monitor.width)
        hints[4] = UInt32(monitor.height)
        backend.setProperty(window, XCB_ATOM_WM_NORMAL_HINTS.rawValue, XCB_ATOM_WM_SIZE_HINTS.rawValue, hints)
        // A window manager drops _NET_WM_STATE when it lets a window go: set again before each map.
        backend.setProperty(window, backend.atoms.state, XCB_ATOM_ATOM.rawValue, [backend.atoms.fullscreen, backend.atoms.above])
        if backend.shapes {
            let composited = backend.composited
            if !composited, !shapedToInk {
                owner.log("no compositing manager: the canvas window is shaped to its ink, so the desktop shows around it")
            }
            shapedToInk = !composited
            if shapedToInk {
                // Nothing until the first frame sends the ink's shape, so no black rectangle ever shows.
                shape(XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING)
            } else {
                unshape(XCB_SHAPE_SK_BOUNDING)
            }
            // Before the map, not after: the window manager's frame copies the window's
            // input shape when it maps it (openbox does), so the canvas takes its clicks
            // (or lets them through) from the first frame on.
            applyInputShape()
        } else if !backend.composited {
            owner.log("no compositing manager and no SHAPE extension: the canvas hides the desktop while it shows")
        }
        xcb_map_window(c, window)
        mapped = true
        stale = layers.everything
        queueDraw()
    }

    func hide() {
        guard mapped else { return }
        xcb_unmap_window(backend.connection, window)
        mapped = false
        cancelFrame()
    }

    func destroy() {
        stopTicks()
        cancelFrame()
        backend.forget(window)
        xcb_free_gc(backend.connection, gc)
        xcb_destroy_window(backend.connection, window)
        if let image { cairo_surface_destroy(image) }
        image = nil
        layers.release()
    }

    // MARK: Events from the backend

    func exposed(x: Int32, y: Int32, width: Int32, height: Int32) {
        let rect = PixelRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
        stale = stale?.union(rect) ?? rect
        queueDraw()
    }

    func configured(width: Int32, height: Int32) {
        guard width != self.width || height != self.height, width > 0, height > 0 else { return }
        self.width = width
        self.height = height
        queueDraw()
    }

    /// Mapped on the screen (by the window manager, in its frame): an empty input shape is set
    /// again, since openbox takes a client's input shape for its frame from a ShapeNotify only,
    /// not when it manages the window, and its frame would take the clicks.
    func serverMapped() {
        guard backend.shapes, mapped, owner.passesPointerInput, !takesPointerToDraw else { return }
        shape(XCB_SHAPE_SO_SET, XCB_SHAPE_SK_INPUT)
        backend.flush()
    }

    /// A compositing manager started or went while the canvas shows: see-through ARGB with one,
    /// shaped to the ink without (a 32-bit window's clear pixels are black then).
    func compositingChanged(_ composited: Bool) {
        guard mapped, backend.shapes, shapedToInk == composited else { return }
        shapedToInk = !composited
        owner.log(composited ? "a compositing manager started: the canvas window is see-through, unshaped"
                             : "the compositing manager went: the canvas window is shaped to its ink")
        if shapedToInk {
            shape(XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING)
        } else {
            unshape(XCB_SHAPE_SK_BOUNDING)
        }
        // Every pixel again: the shape is rebuilt from the ink, or the whole window shows.
        stale = layers.everything
        queueDraw()
        backend.flush()
    }

    func keyPressed(_ key: CanvasKey) {
        if (owner as? CanvasOverlay)?.dismissHelp("a key") == true { return }
        if typeText(key) { return }
        owner.keyPressed(key)
    }

    /// The window manager's close minimizes the canvas; the daemon decides.
    func closeRequested() { owner.requestMinimize("close request") }

    // MARK: Input

    /// In filter mode the pen reaches the canvas only through the daemon, so the window's input
    /// shape is empty; in observe mode the window takes pointer input, so that a stroke on the
    /// canvas does not also click the application under it.
    func updateInputRegion() {
        guard backend.shapes else { return }
        let wasEmptied = emptied
        applyInputShape()
        if wasEmptied, !emptied, mapped {
            // A window manager that copied the empty shape to its frame (openbox does) keeps it
            // there: mapped again, the frame takes the window's shape anew, and the canvas its clicks.
            hide()
            present()
            return
        }
        backend.flush()
    }

    private func applyInputShape() {
        if owner.passesPointerInput, !takesPointerToDraw {
            shape(XCB_SHAPE_SO_SET, XCB_SHAPE_SK_INPUT)
            emptied = true
            owner.log("click-through: empty input region")
        } else {
            unshape(XCB_SHAPE_SK_INPUT)
            emptied = false
            owner.log("input region: the whole window takes pointer input")
        }
    }

    // MARK: Frames

    func queueDraw() {
        guard mapped, frameSource == 0 else { return }
        let wait = max(0, 16_000 - (Self.now() - lastFrame)) / 1000
        frameSource = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(wait), { data in
            onMain(data, X11Canvas.self) { me in
                me.frameSource = 0
                me.drawFrame()
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func cancelFrame() {
        if frameSource != 0 { g_source_remove(frameSource) }
        frameSource = 0
    }

    func drawBare() {
        cancelFrame()
        drawFrame(bare: true)
        // The next ordinary frame puts the rings back where they were.
        layers.damageEverything()
    }

    private func drawFrame(bare: Bool = false) {
        guard mapped else { return }
        lastFrame = Self.now()
        if !bare { followTextTaps() }
        if layers.ensure(width: width, height: height, scale: 1) {
            layers.redrawFinished(owner.book.finished)
            layers.redrawLive(owner.book.liveStrokes)
            owner.log("layers \(width)x\(height)@1")
        }
        if image == nil || cairo_image_surface_get_width(image) != width || cairo_image_surface_get_height(image) != height {
            if let image { cairo_surface_destroy(image) }
            image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
            stale = layers.everything
            if shapedToInk { shape(XCB_SHAPE_SO_SET, XCB_SHAPE_SK_BOUNDING) }
        }
        guard let image else { return }
        let alpha = owner.shown ? owner.alpha : 0
        let hover = bare ? [] : Array(owner.hover.values)
        layers.hoverMoved(hover)
        if alpha != drawnAlpha { layers.damageEverything() }
        var changed = layers.takeDamage()
        if let stale { changed = changed?.union(stale) ?? stale }
        stale = nil
        drawnAlpha = alpha
        guard let changed else { return }
        let x0 = max(0, Int32(changed.x.rounded(.down))), y0 = max(0, Int32(changed.y.rounded(.down)))
        let x1 = min(width, Int32((changed.x + changed.width).rounded(.up))), y1 = min(height, Int32((changed.y + changed.height).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }   // what changed lies off this monitor
        let data = cairo_image_surface_get_data(image)!, stride = cairo_image_surface_get_stride(image)
        let c = backend.connection
        // A snapshot's frame under a compositing manager: what it showed where the chrome goes, to wait for its paint.
        let old = bare && backend.composited && !shapedToInk
            ? X11CompositorWait.copy(data, stride: Int(stride), x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1)) : nil
        layers.repaint(image, x0: x0, y0: y0, x1: x1, y1: y1, alpha: alpha, hover: hover)
        let probe = old.flatMap { X11CompositorWait.firstChange($0, data, stride: Int(stride), x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1)) }
            .flatMap { X11CompositorWait(c, root: backend.root, x: Int16(Int(monitor.x) + $0.x), y: Int16(Int(monitor.y) + $0.y)) }
        // A snapshot's frame with no compositing manager: the window manager's frame must take the new shape too.
        let frameWait = bare && shapedToInk ? X11FrameShapeWait(c, window: window) : nil
        if shapedToInk {
            // The bounding shape is the ink's pixels: the changed rectangle out, what shows in it back in.
            shape(XCB_SHAPE_SO_SUBTRACT, XCB_SHAPE_SK_BOUNDING,
                  [xcb_rectangle_t(x: Int16(x0), y: Int16(y0), width: UInt16(x1 - x0), height: UInt16(y1 - y0))])
            let ink = Self.inkRectangles(data, stride: Int(stride), x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1))
            if !ink.isEmpty { shape(XCB_SHAPE_SO_UNION, XCB_SHAPE_SK_BOUNDING, ink) }
        }
        put(data, stride: Int(stride), x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        xcb_flush(c)
        if let probe {
            let waited = probe.wait(c, root: backend.root)
            owner.log("snapshot frame painted by the compositing manager after \(waited / 1000) ms")
        }
        if let frameWait {
            let waited = frameWait.wait(c, window: window)
            owner.log("snapshot frame's shape taken by the window manager's frame after \(waited / 1000) ms")
        }
    }

    // MARK: Shapes and pixels, cut to the server's largest request

    /// ShapeRectangles, in as many requests as the server's request size needs (the first with `op`, the rest union).
    private func shape(_ op: xcb_shape_so_t, _ kind: xcb_shape_sk_t, _ rects: [xcb_rectangle_t] = []) {
        let c = backend.connection
        // The request's own 16 bytes, then 8 a rectangle (the largest request is in 4-byte units).
        let most = Int(xcb_get_maximum_request_length(c))
        let per = min(most > 1024 ? (most - 4) / 2 : 500, 65536)
        rects.withUnsafeBufferPointer { all in
            var done = 0
            repeat {
                let n = min(all.count - done, per)
                xcb_shape_rectangles(c, UInt8((done == 0 ? op : XCB_SHAPE_SO_UNION).rawValue), UInt8(kind.rawValue),
                                     UInt8(XCB_CLIP_ORDERING_UNSORTED.rawValue), window, 0, 0, UInt32(n), all.baseAddress.map { $0 + done })
                done += n
            } while done < all.count
        }
    }

    /// ShapeMask with no bitmap: the window's own rectangle again.
    private func unshape(_ kind: xcb_shape_sk_t) {
        xcb_shape_mask(backend.connection, UInt8(XCB_SHAPE_SO_SET.rawValue), UInt8(kind.rawValue), window, 0, 0, 0)
    }

    /// The non-transparent pixels of an ARGB32 image's rectangle [x0, x1) × [y0, y1) as rectangles:
    /// the runs of a row, each merged with the same run in the rows above.
    static func inkRectangles(_ data: UnsafePointer<UInt8>, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int) -> [xcb_rectangle_t] {
        var rects: [xcb_rectangle_t] = []
        rects.reserveCapacity(256)
        // The runs of the row above, as indices into rects, so that a run that repeats grows downwards.
        var aboveStart = 0, aboveEnd = 0
        for y in y0..<max(y0, y1) {
            let row = UnsafeRawPointer(data + y * stride)
            func opaque(_ x: Int) -> Bool { row.load(fromByteOffset: x * 4, as: UInt32.self) >> 24 != 0 }
            let rowStart = rects.count
            var scan = aboveStart
            var x = x0
            while x < x1 {
                while x < x1, !opaque(x) { x += 1 }
                if x == x1 { break }
                let start = x
                while x < x1, opaque(x) { x += 1 }
                while scan < aboveEnd, Int(rects[scan].x) < start { scan += 1 }
                if scan < aboveEnd, Int(rects[scan].x) == start, Int(rects[scan].width) == x - start,
                   Int(rects[scan].y) + Int(rects[scan].height) == y {
                    // Kept in this row's list too: moved to the end, so that the next row can grow it; a husk stays behind.
                    var grown = rects[scan]
                    grown.height += 1
                    rects[scan] = xcb_rectangle_t(x: Int16.min, y: 0, width: 0, height: 0)
                    rects.append(grown)
                    scan += 1
                    continue
                }
                rects.append(xcb_rectangle_t(x: Int16(start), y: Int16(y), width: UInt16(x - start), height: 1))
            }
            aboveStart = rowStart
            aboveEnd = rects.count
        }
        return rects.filter { $0.width > 0 }
    }

    /// Puts the image's rectangle (`stride` bytes a row) at the same place in the window, in bands
    /// that fit the server's request size.
    private func put(_ data: UnsafeMutablePointer<UInt8>, stride: Int, x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        let c = backend.connection
        let row = width * 4
        // PutImage's own 24 bytes, then the pixels; kept well under the largest request.
        let most = min(Int(xcb_get_maximum_request_length(c)) * 4, 8 << 20)
        let rows = max(1, (most - 64) / row)
        // A rectangle narrower than the image: its rows are copied together first.
        let band: UnsafeMutablePointer<UInt8>? = row == stride ? nil : .allocate(capacity: row * min(rows, height))
        defer { band?.deallocate() }
        for top in Swift.stride(from: 0, to: height, by: rows) {
            let n = min(height - top, rows)
            let first = data + (y + top) * stride + x * 4
            var pixels = first
            if let band {
                for i in 0..<n { (band + i * row).update(from: first + i * stride, count: row) }
                pixels = band
            }
            xcb_put_image(c, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, gc, UInt16(width), UInt16(n),
                          Int16(x), Int16(y + top), 0, 32, UInt32(row * n), pixels)
        }
    }

    // MARK: Ticks (the fade): a 16 ms timer in the main loop while it runs; each tick's
    // redraw goes out as a frame, so the fade ends even with nothing to show it.

    func startTicks(_ tick: @escaping @MainActor (Int64) -> Bool) {
        self.tick = tick
        guard tickTimer == 0 else { return }
        tickTimer = g_timeout_add_full(G_PRIORITY_DEFAULT, 16, { data in
            var more = false
            onMain(data, X11Canvas.self) { me in
                if let tick = me.tick, tick(X11Canvas.now()) {
                    more = true
                } else {
                    me.tick = nil
                    me.tickTimer = 0
                }
            }
            return more ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    func stopTicks() {
        tick = nil
        if tickTimer != 0 { g_source_remove(tickTimer) }
        tickTimer = 0
    }

    /// Monotonic microseconds, the frame time a tick takes.
    static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
