// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `snapshot` and `copy`, as the daemon passes them on: this process sees the
/// screen and can own the clipboard. The screen is taken as the user sees it,
/// less what is only there to draw with (the palette, hover rings, the laser):
/// those are left out of one frame, which the capture reads, then come back.
extension CanvasOverlay {
    func share(_ ask: ShareAsk) {
        log("share \(ask.request): \(ask.what.rawValue)")
        let reply: ShareReply
        switch ask.what {
        case .copyDrawing:
            switch RenderPNG.drawingPNG(book.finished, width: ask.width, height: ask.height, board: ask.board) {
            case .failure(let failure): reply = ShareReply(request: ask.request, error: failure.message)
            case .success(let png):
                reply = hold(png, ask: ask, width: Int(ask.width), height: Int(ask.height), scene: "ink", note: nil)
            }
        case .snapshot, .copySnapshot:
            switch screenWithInk(monitor: ask.monitor) {
            case .failure(let failure): reply = ShareReply(request: ask.request, error: failure.message)
            case .success(let (image, scene, note)):
                defer { cairo_surface_destroy(image) }
                let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
                guard let png = RenderPNG.encode(image) else {
                    reply = ShareReply(request: ask.request, error: "cannot encode a \(width)×\(height) PNG: out of memory")
                    break
                }
                if ask.what == .copySnapshot {
                    reply = hold(png, ask: ask, width: width, height: height, scene: scene, note: note)
                } else if let path = ask.path {
                    if let reason = RenderPNG.replaceFile(path, with: png) {
                        reply = ShareReply(request: ask.request, error: "cannot write \(path): \(reason)")
                    } else {
                        reply = ShareReply(request: ask.request, path: path, width: width, height: height, scene: scene, note: note)
                    }
                } else {
                    reply = ShareReply(request: ask.request, error: "the daemon named no file for the snapshot")
                }
            }
        }
        link.send(.shared(reply)) { error in
            if let error { MainInbox.shared.post { printError("stylus-canvas: share \(ask.request): \(error)\n") } }
        }
    }

    private func hold(_ png: [UInt8], ask: ShareAsk, width: Int, height: Int, scene: String, note: String?) -> ShareReply {
        guard let clipboard = backend as? ScreenShare else {
            return ShareReply(request: ask.request, error: "the canvas on \(backend.name) holds no clipboard yet (X11 only)")
        }
        if let reason = clipboard.holdClipboard(png) { return ShareReply(request: ask.request, error: reason) }
        log("clipboard: image/png, \(png.count) bytes")
        return ShareReply(request: ask.request, width: width, height: height, scene: scene, note: note)
    }

    /// The monitor as the user sees it with the ink (an image to destroy), whether it is the
    /// screen or the ink alone (`ink`, with why, where the desktop has no capture); or why not.
    private func screenWithInk(monitor name: String?) -> Result<(OpaquePointer, String, String?), ShareFailure> {
        guard model.canvas == .open, shown else { return .failure("the canvas is not open: a snapshot is of the open canvas over the screen") }
        let monitors = backend.monitors()
        guard let placement else { return .failure("the canvas covers no monitor") }
        let index: Int
        if let name {
            guard let found = monitors.firstIndex(where: { $0.connector == name }) else {
                return .failure("no monitor \"\(name)\"; monitors are \(monitors.compactMap(\.connector).joined(separator: ", "))")
            }
            index = found
        } else {
            guard let first = placement.monitors.first, first < monitors.count else { return .failure("the canvas covers no monitor") }
            index = first
        }
        let surface = placement.monitors.firstIndex(of: index).flatMap { $0 < windows.count ? windows[$0] : nil }
        // Chrome off for one frame: no palette, no laser, no open-canvas sign; the hover rings are left out by `drawBare`.
        let live = book.liveStrokes.filter { $0.style.tool != .laser }
        dismissHelp("a snapshot")
        for w in windows {
            w.layers.setPalette([], style: currentStyle)
            w.layers.setIndicator(.none)
            w.layers.redrawLive(live)
        }
        defer {
            for w in windows { w.layers.redrawLive(book.liveStrokes) }
            applyIndicator()
            updatePalette()
            queueDraw()
        }
        var note = "\(backend.name) offers the canvas no screen capture: the picture holds the ink only"
        if let screen = backend as? ScreenShare, screen.capturesScreen {
            for w in windows { w.drawBare() }
            switch screen.captureScreen(monitors[index]) {
            case .success(let image): return .success((image, "screen", nil))
            case .failure(let failure) where failure.inkInstead: note = failure.message
            case .failure(let failure): return .failure(failure)
            }
        }
        // No capture here (weston, cage), or the desktop refused it: the ink as the surface holds it, on transparency.
        guard let surface, let image = surface.layers.makeLayer() else {
            return .failure("this desktop lets no client read the screen, and the canvas has no ink on \(name ?? "its monitor")")
        }
        let cr = cairo_create(image)!
        surface.layers.compose(onto: cr, alpha: 1, hover: [InkPoint]())
        cairo_destroy(cr)
        cairo_surface_flush(image)
        return .success((image, "ink", note))
    }
}
