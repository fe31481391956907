// SPDX-License-Identifier: MIT
import CanvasModel

/// What a surface asks of the overlay that owns it.
@MainActor
protocol CanvasSurfaceOwner: AnyObject {
    var book: StrokeBook { get }
    var alpha: Double { get }
    var shown: Bool { get }
    var hover: [UInt32: InkPoint] { get }
    var passesPointerInput: Bool { get }
    func requestMinimize(_ why: String)
    /// Escape, Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y on the open canvas.
    func keyPressed(_ key: CanvasKey)
    func log(_ message: String)
    /// A monitor came, went or changed: cover what the placement says now.
    func monitorsChanged()
}

/// How the canvas reaches the screen: an xcb window per monitor (X11), a
/// layer surface per output (Wayland with wlr-layer-shell) or an xdg toplevel
/// (Wayland without it). CanvasOverlay decides what to show; a backend only
/// shows it.
@MainActor
protocol CanvasBackend: AnyObject {
    /// The name `--verbose` logs and docs/OVERLAY.md's table uses: `layer-shell`, `x11`, `wayland-toplevel`.
    var name: String { get }
    /// The monitors in the order `--monitor N` counts them.
    func monitors() -> [MonitorShape]
    func makeSurface(owner: CanvasSurfaceOwner, monitor: Int, geometry: InkGeometry) -> CanvasSurface
    /// Sends what is queued now (an input region must not wait for the next frame).
    func flush()
    /// Said when the canvas should show and there is no monitor to show it on.
    var whyNoMonitor: String { get }
}

extension CanvasBackend {
    var whyNoMonitor: String { "no monitor to show the canvas on" }
}

/// The canvas on one monitor, drawn by its `layers`.
@MainActor
protocol CanvasSurface: AnyObject {
    var layers: InkLayers { get }
    /// The alpha this surface last painted with, so that a fade ends when every surface has drawn its end.
    var drawnAlpha: Double { get }
    /// Covers monitor `monitor` (the backend's `monitors()` index) with ink placed by `geometry`.
    func place(monitor: Int, geometry: InkGeometry)
    func present()
    func hide()
    func destroy()
    func queueDraw()
    /// Takes or lets through pointer input as the owner's `passesPointerInput` says.
    func updateInputRegion()
    /// Calls `tick` with the frame time (µs, monotonic) before each frame until it returns false.
    func startTicks(_ tick: @escaping @MainActor (Int64) -> Bool)
    func stopTicks()
    /// Draws a frame now, without the hover rings, and sends it: a snapshot reads the screen next.
    func drawBare()
}

extension CanvasSurface {
    func drawBare() {}

    /// Moves the ink; draws every stroke again when the placement changed.
    func setGeometry(_ geometry: InkGeometry, book: StrokeBook) {
        guard layers.setGeometry(geometry) else { return }
        layers.redrawFinished(book.finished)
        layers.redrawLive(book.liveStrokes)
    }
}
