// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The overlay: follows the daemon's canvas with a see-through surface on
/// each monitor the tablet maps to (MonitorPlacement decides which; the
/// backend shows them, InkLayers draws). When to show, fade, hide and ack is
/// CanvasModel's OverlayState; this shell feeds it and runs what it asks.
@MainActor
final class CanvasOverlay: CanvasSurfaceOwner {
    let options: Options
    let link: DaemonLink
    let backend: CanvasBackend
    var windows: [CanvasSurface] = []
    var placement: MonitorPlacement?
    /// What the daemon last said about its pens, for the placement.
    var pens: [PenSurface] = []

    var book = StrokeBook()
    /// Shown, fading, connected, the daemon capturing the pen.
    var model: OverlayState

    var shown: Bool { model.shown }
    var alpha: Double { model.alpha }
    /// Pointer input goes to the windows underneath: asked for, or the pen is captured.
    var passesPointerInput: Bool { model.passesPointerInput }

    /// The surface whose frame clock drives the fade.
    var tickWindow: CanvasSurface?

    /// Where each device's tool hovers (or touches), normalized.
    private(set) var hover: [UInt32: InkPoint] = [:]
    var fetching = false
    var fetchAgain = false
    /// An undo removed a stroke: the next `strokes` asked for is drawn again, not appended.
    var rebuildOnNextFetch = false

    /// The daemon's current style, which the next stroke gets.
    var currentStyle = InkStyle()
    /// Whether the daemon says the palette shows (status tool.palette, the tool event).
    var paletteShown = false
    /// The colours the daemon's `color:next` goes round, which the palette offers.
    var paletteColors = InkStyle.paletteDefault
    /// The board under the ink, as the daemon last said (every surface draws it).
    var board = InkBoard.none
    /// How the open canvas shows it is open (`[canvas] indicator`).
    var indicator = InkIndicator.frame
    /// The regions the daemon last accepted, so that an unchanged layout is not sent again.
    var reportedRegions: [InkRegion]?
    /// The overlay report the daemon last got.
    var reported: OverlayReport?

    init(options: Options, link: DaemonLink, backend: CanvasBackend) {
        self.options = options
        self.link = link
        self.backend = backend
        model = OverlayState(fadeMilliseconds: options.fadeMilliseconds, clickThrough: options.clickThrough)
    }

    func log(_ message: String) {
        guard options.verbose else { return }
        printError("stylus-canvas: [\(Int64(Self.monotonicMilliseconds())) ms] \(message)\n")
    }

    nonisolated static func monotonicMilliseconds() -> Milliseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    // MARK: The daemon

    func handle(_ update: DaemonUpdate) {
        switch update {
        case .connected(let canvas, let strokeCount, let capturesPen, let pens, let style, let again):
            currentStyle = style
            log("\(again ? "reconnected" : "connected"): canvas \(canvas.rawValue), \(strokeCount) strokes\(capturesPen ? ", the daemon captures the pen" : "")")
            feed(.connected(capturesPen: capturesPen))
            setPens(pens)
            reportOverlay(force: true)
            // A daemon that restarted knows no regions: they go again with the next layout.
            reportedRegions = nil
            // Another daemon's drawing, maybe: the whole of it, not a tail joined to the old one's.
            if again { rebuildOnNextFetch = true }
            if again || strokeCount != book.finished.count { fetchStrokes() }
            feed(.canvas(canvas))
        case .disconnected(let reason):
            feed(.disconnected(reason: reason))
        case .canvas(let canvas, let cause, let strokeCount):
            log("canvas \(canvas.rawValue) (\(cause), \(strokeCount) strokes)")
            if cause == "undo" || cause == "redo" || cause == "erase", strokeCount > 0 {
                // A stroke left or came back (a clear taken back, strokes erased whole): the next
                // answer is drawn again (InkLayers redraws where it differs), not appended.
                rebuildOnNextFetch = true
                fetchStrokes()
            } else if strokeCount == 0, !book.finished.isEmpty || !book.liveStrokes.isEmpty {
                book.clear()
                for w in windows {
                    w.layers.clearFinished()
                    w.layers.clearLive()
                }
                queueDraw()
            } else if strokeCount != book.finished.count, !fetching {
                fetchStrokes()
            }
            feed(.canvas(canvas))
        case .strokeRecorded:
            fetchStrokes()
        case .pens(let surfaces):
            setPens(surfaces)
        case .style(let style):
            log("style \(style.tool.rawValue), \(style.color.hex), width \(InkLayers.describe(style.width))")
            currentStyle = style
            updatePalette()
        case .palette(let shown, let colors):
            if shown != paletteShown { log(shown ? "the palette shows" : "the palette hides") }
            paletteShown = shown
            if let colors, !colors.isEmpty { paletteColors = colors }
            updatePalette()
        case .background(let board):
            setBoard(board)
        case .indicator(let indicator):
            setIndicator(indicator)
        case .capturesPen(let captures):
            feed(.capturesPen(captures))
        case .pen(let device, let tool, let point, let tip):
            guard shown else { return }
            hover[device] = point
            let lasers = book.lasers.count
            defer { if book.lasers.count > lasers { expireLaserLater() } }
            if model.canvas == .open {
                switch book.penSample(device: device, style: liveStyle(tool), point: point, tip: tip) {
                case .segment(let a, let b, let style): for w in windows { w.layers.drawLiveSegment(a, b, style) }
                case .redrawLive: redrawLive()
                case .none: break
                }
            }
            queueDraw()
        case .proximity(let device, let inProximity):
            if !inProximity {
                hover[device] = nil
                let lasers = book.lasers.count
                if book.endStroke(device: device) { redrawLive() }
                if book.lasers.count > lasers { expireLaserLater() }
                queueDraw()
            }
        }
    }

    func requestMinimize(_ why: String) {
        log("\(why): asking stylusd to minimize")
        link.send(.minimize) { error in
            if let error { MainInbox.shared.post { printError("stylus-canvas: minimize: \(error)\n") } }
        }
    }

    func keyPressed(_ key: CanvasKey) {
        if helpKey(key) { return }
        switch key {
        case .minimize: requestMinimize("Escape")
        case .forward(let name): forwardKey(name)
        }
    }

    func sendAck() {
        log("ack")
        link.send(.ack) { error in
            // Refused when the transition already ended (by timeout): nothing to do.
            if let error { MainInbox.shared.post { [self] in log("ack: \(error)") } }
        }
    }

    func queueDraw() { if shown { for w in windows { w.queueDraw() } } }
}
