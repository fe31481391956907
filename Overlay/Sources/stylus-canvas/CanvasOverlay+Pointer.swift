// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

/// Strokes of the canvas's own mouse, touchpad or touchscreen (`[canvas]
/// pointer = "draw"`): drawn live here at once, as the pen's samples are, and
/// sent to the daemon (`draw`), whose recorded stroke StrokeBook then takes in
/// their place. A backend calls these with points in the daemon's space.
extension CanvasOverlay {
    /// Whether a pointer or touch stroke may begin now: the canvas is open and shows.
    var drawsWithPointer: Bool { shown && model.canvas == .open }

    /// Whether a press here lands on the shown palette: the daemon selects what it offers
    /// (as for a pen tap), and nothing is drawn live for that press.
    func pointerOnPalette(_ point: InkPoint) -> Bool {
        paletteShown && (reportedRegions ?? []).contains { $0.contains(x: point.x, y: point.y) }
    }

    /// A point of a canvas source's stroke; `tip` false ends it.
    func pointerStroke(_ source: StrokeSource, at point: InkPoint, tip: Bool) {
        guard let device = source.device?.rawValue else { return }
        let lasers = book.lasers.count
        defer { if book.lasers.count > lasers { expireLaserLater() } }
        switch book.penSample(device: device, style: currentStyle, point: point, tip: true) {
        case .segment(let a, let b, let style): for w in windows { w.layers.drawLiveSegment(a, b, style) }
        case .redrawLive: redrawLive()
        case .none: break
        }
        // The lift as a pen's: it ends the stroke, and a text tool's contact (the next click is a new tap).
        if !tip, book.penSample(device: device, style: currentStyle, point: point, tip: false) == .redrawLive { redrawLive() }
        queueDraw()
    }

    /// The stroke is thrown away (a second finger): it leaves the live layer, and the
    /// daemon's drawing comes back whole, since StrokeBook waits for a stroke that will not come.
    func cancelPointerStroke(_ source: StrokeSource) {
        guard let device = source.device?.rawValue else { return }
        book.endStroke(device: device)
        rebuildOnNextFetch = true
        fetchStrokes()
        redrawLive()
        queueDraw()
    }
}
