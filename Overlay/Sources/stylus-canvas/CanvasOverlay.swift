// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var socket: String?
    /// An empty input region whatever the daemon's output: clicks go to the windows under the canvas.
    var clickThrough = false
    var fadeMilliseconds = 120
    /// Which monitors to cover; `auto`: where the tablet maps to.
    var monitor = MonitorRequest.auto
    var verbose = false
}

/// The overlay: follows the daemon's canvas with a see-through surface on
/// each monitor the tablet maps to (MonitorPlacement decides which; the
/// backend shows them, InkLayers draws), fades them in and out together and
/// acks the end.
@MainActor
final class CanvasOverlay: CanvasSurfaceOwner {
    private let options: Options
    private let link: DaemonLink
    private let backend: CanvasBackend
    private var windows: [CanvasSurface] = []
    private var placement: MonitorPlacement?
    /// What the daemon last said about its pens, for the placement.
    private var pens: [PenSurface] = []

    private(set) var book = StrokeBook()

    /// The daemon's canvas state as last heard.
    private var state = CanvasState.minimized
    private var connected = false
    /// Bumped on every connection change, so that a stale "hide after 2 s" does nothing.
    private var connectionGeneration = 0
    private(set) var shown = false
    /// The daemon captures the pen (status output.captures_pen): the canvas needs no pointer input.
    private var daemonCapturesPen = false
    /// Pointer input goes to the windows underneath: asked for, or the pen is captured.
    var passesPointerInput: Bool { options.clickThrough || daemonCapturesPen }

    private enum Fade { case none, inward, outward }
    private var fade = Fade.none
    private var fadeStart: Int64 = 0
    private var fadeFrom = 0.0
    private(set) var alpha = 0.0
    /// The surface whose frame clock drives the fade.
    private var tickWindow: CanvasSurface?
    /// Send `ack` when the running fade has been drawn to its end.
    private var ackWhenDone = false

    /// Where each device's tool hovers (or touches), normalized.
    private(set) var hover: [UInt32: InkPoint] = [:]
    private var fetching = false
    private var fetchAgain = false
    /// An undo removed a stroke: the next `strokes` asked for is drawn again, not appended.
    private var rebuildOnNextFetch = false

    init(options: Options, link: DaemonLink, backend: CanvasBackend) {
        self.options = options
        self.link = link
        self.backend = backend
    }

    func log(_ message: String) {
        guard options.verbose else { return }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let ms = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        printError("stylus-canvas: [\(Int64(ms)) ms] \(message)\n")
    }

    // MARK: The daemon

    func handle(_ update: DaemonUpdate) {
        switch update {
        case .connected(let canvas, let strokeCount, let capturesPen, let pens, let style, let again):
            connected = true
            currentStyle = style
            connectionGeneration += 1
            log("\(again ? "reconnected" : "connected"): canvas \(canvas.rawValue), \(strokeCount) strokes\(capturesPen ? ", the daemon captures the pen" : "")")
            setDaemonCapturesPen(capturesPen)
            setPens(pens)
            reportOverlay(force: true)
            // A daemon that restarted knows no regions: they go again with the next layout.
            reportedRegions = nil
            if again || strokeCount != book.finished.count { fetchStrokes() }
            follow(canvas)
        case .disconnected(let reason):
            if connectionGeneration == 0 {
                // Started before the daemon (a login's autostart, make run): said once, not silent.
                printError("stylus-canvas: waiting for stylusd on \(link.path) (\(reason)); the canvas follows it once it runs\n")
            }
            connected = false
            connectionGeneration += 1
            let generation = connectionGeneration
            log("disconnected: \(reason)")
            // A daemon that stopped gave the pen back to the desktop: until the
            // window hides, it must take the pen's clicks itself.
            setDaemonCapturesPen(false)
            after(milliseconds: 2000) { [self] in
                guard generation == connectionGeneration, !connected, shown else { return }
                log("stylusd gone for 2 s: hiding")
                hideNow()
            }
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
            follow(canvas)
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
        case .capturesPen(let captures):
            if captures != daemonCapturesPen {
                log(captures ? "the daemon captures the pen" : "the daemon no longer captures the pen: the canvas takes pointer input")
            }
            setDaemonCapturesPen(captures)
        case .pen(let device, let tool, let point, let tip):
            guard shown else { return }
            hover[device] = point
            let lasers = book.lasers.count
            defer { if book.lasers.count > lasers { expireLaserLater() } }
            if state == .open {
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

    /// The daemon's current style, which the next stroke gets.
    private var currentStyle = InkStyle()

    /// How a live sample is drawn: in the current style, or as the eraser when
    /// the pen is turned round (its eraser end erases whatever tool is chosen).
    private func liveStyle(_ tool: InkTool) -> InkStyle {
        var style = currentStyle
        if tool == .eraser { style.tool = .eraser }
        return style
    }

    private func redrawLive() { for w in windows { w.layers.redrawLive(book.liveStrokes) } }

    /// A laser stroke ended: it leaves the canvas a moment later (the daemon never keeps it).
    private func expireLaserLater() {
        after(milliseconds: UInt32(StrokeBook.laserLifetimeMilliseconds)) { [weak self] in
            guard let self, book.expireOldestLaser() else { return }
            redrawLive()
            queueDraw()
        }
    }

    private func follow(_ canvas: CanvasState) {
        state = canvas
        switch canvas {
        case .opening: show(ack: true)
        case .open: show(ack: false)
        case .minimizing: hide(ack: true)
        case .minimized: if shown { hideNow() }
        }
    }

    func requestMinimize(_ why: String) {
        log("\(why): asking stylusd to minimize")
        link.send(.minimize) { error in
            if let error { MainInbox.shared.post { printError("stylus-canvas: minimize: \(error)\n") } }
        }
    }

    func keyPressed(_ key: CanvasKey) {
        switch key {
        case .minimize: requestMinimize("Escape")
        case .undo, .redo:
            let command: DaemonLink.Command = key == .undo ? .undo : .redo
            log("\(key == .undo ? "Ctrl+Z" : "Ctrl+Shift+Z"): asking stylusd to \(command)")
            link.send(command) { error in
                if let error { MainInbox.shared.post { printError("stylus-canvas: \(command): \(error)\n") } }
            }
        }
    }

    private func sendAck() {
        log("ack")
        link.send(.ack) { error in
            // Refused when the transition already ended (by timeout): nothing to do.
            if let error { MainInbox.shared.post { [self] in log("ack: \(error)") } }
        }
    }

    private func fetchStrokes() {
        if fetching {
            fetchAgain = true
            return
        }
        fetching = true
        let rebuild = rebuildOnNextFetch
        rebuildOnNextFetch = false
        link.strokes { result in
            MainInbox.shared.post { [self] in
                fetching = false
                switch result {
                case .success(let strokes): apply(strokes, rebuild: rebuild)
                case .failure(let error):
                    log("strokes: \(error.message)")
                    if rebuild { rebuildOnNextFetch = true }
                }
                if fetchAgain {
                    fetchAgain = false
                    fetchStrokes()
                }
            }
        }
    }

    private func apply(_ strokes: [InkStroke], rebuild: Bool) {
        let (finished, liveChanged) = book.reconcile(strokes, rebuild: rebuild)
        switch finished {
        case .unchanged: break
        case .append(let range):
            for stroke in book.finished[range] { for w in windows { w.layers.drawFinished(stroke) } }
        case .rebuild:
            for w in windows { w.layers.redrawFinished(book.finished) }
        }
        if liveChanged { redrawLive() }
        log("strokes: \(strokes.count) (\(finished))")
        queueDraw()
    }

    // MARK: Showing and hiding

    private func show(ack: Bool) {
        if shown, fade == .none, alpha >= 1 {
            if ack { sendAck() }
            return
        }
        ackWhenDone = ack
        if !shown {
            shown = true
            alpha = 0
            present()
        }
        startFade(.inward)
    }

    private func hide(ack: Bool) {
        guard shown else {
            if ack { sendAck() }
            return
        }
        ackWhenDone = ack
        startFade(.outward)
    }

    private func hideNow() {
        stopFade()
        shown = false
        alpha = 0
        for w in windows { w.hide() }
        log("hidden")
    }

    /// A surface on each monitor of the placement, reusing the surfaces there are.
    private func present() {
        let monitors = backend.monitors()
        guard let chosen = MonitorPlacement.choose(options.monitor, pens: pens, monitors: monitors) else {
            printError("stylus-canvas: \(backend.whyNoMonitor)\n")
            return
        }
        if chosen != placement {
            // Not only with --verbose: a user whose canvas is on another monitor than expected finds why in the journal.
            printError("stylus-canvas: covering \(chosen.reason)")
            placement = chosen
        }
        while windows.count > chosen.monitors.count {
            let gone = windows.removeLast()
            if gone === tickWindow { tickWindow = nil }
            gone.destroy()
        }
        for (n, index) in chosen.monitors.enumerated() {
            let geometry = chosen.geometry(on: monitors[index])
            if n < windows.count {
                windows[n].place(monitor: index, geometry: geometry)
            } else {
                windows.append(backend.makeSurface(owner: self, monitor: index, geometry: geometry))
            }
        }
        for w in windows { w.present() }
        ensureTick()
        updatePalette()
        log("presented")
    }

    // MARK: The palette

    /// Whether the daemon says the palette shows (status tool.palette, the tool event).
    private var paletteShown = false
    /// The colours the daemon's `color:next` goes round, which the palette offers.
    private var paletteColors = InkStyle.paletteDefault
    /// The regions the daemon last accepted, so that an unchanged layout is not sent again.
    private var reportedRegions: [InkRegion]?

    /// Lays the palette out on the placement's first monitor (the one a pen
    /// display maps to; with several, the first), draws it there, and tells the
    /// daemon where its buttons are in the tablet's coordinates: the daemon,
    /// which sees every pen tap, decides that a tap there selects.
    private func updatePalette() {
        guard let placement, let first = windows.first else { return }
        let monitors = backend.monitors()
        guard let index = placement.monitors.first, index < monitors.count else { return }
        let m = monitors[index]
        let buttons = PaletteLayout.buttons(colors: paletteColors, width: Double(m.width), height: Double(m.height))
        first.layers.setPalette(paletteShown ? buttons : [], style: currentStyle)
        for w in windows.dropFirst() { w.layers.setPalette([], style: currentStyle) }
        queueDraw()
        let regions = PaletteLayout.regions(buttons, geometry: placement.geometry(on: m))
        guard connected, regions != reportedRegions else { return }
        reportedRegions = regions
        link.reportPalette(regions) { error in
            MainInbox.shared.post { [self] in
                guard let error else { return log("palette: \(regions.count) regions reported") }
                printError("stylus-canvas: palette regions: \(error)\n")
                reportedRegions = nil
            }
        }
    }

    /// Tells the daemon which route this canvas took, how many outputs it has
    /// (`stylusctl status` shows it) and the area the tablet maps to (the size
    /// `export` draws at): on each connection, and when the outputs or pens change.
    private func reportOverlay(force: Bool = false) {
        let monitors = backend.monitors()
        let area = MonitorPlacement.choose(options.monitor, pens: pens, monitors: monitors)
        let report = OverlayReport(backend: backend.name, outputs: monitors.count, width: area?.areaWidth, height: area?.areaHeight)
        guard connected, force || report != reported else { return }
        reported = report
        link.send(.overlay(report)) { error in
            // An older daemon does not know the command: nothing else depends on it.
            if let error { MainInbox.shared.post { [self] in log("overlay report: \(error)") } }
        }
    }
    private var reported: OverlayReport?

    func monitorsChanged() {
        reportOverlay()
        guard shown else { return }
        log("the monitors changed")
        present()
        queueDraw()
    }

    /// The daemon's pens changed (a status after a device event): place again if that moves the canvas.
    private func setPens(_ surfaces: [PenSurface]) {
        guard surfaces != pens else { return }
        pens = surfaces
        reportOverlay()   // the pens choose the monitors, and so the area an export draws
        if shown { present() }
    }

    private func setDaemonCapturesPen(_ captures: Bool) {
        guard captures != daemonCapturesPen else { return }
        daemonCapturesPen = captures
        guard shown else { return }
        for w in windows { w.updateInputRegion() }
        // Sent now: with nothing to draw, GDK would keep the request in its
        // buffer, and a daemon that just died would leave the pen clicking
        // through a canvas still on the screen until the next frame.
        backend.flush()
        if !passesPointerInput { log("takes pointer input") }
    }

    private func startFade(_ direction: Fade) {
        fade = direction
        fadeFrom = alpha
        fadeStart = 0   // set by the first tick, from the frame clock
        ensureTick()
        queueDraw()
    }

    /// The fade runs on the first window's frame clock; with no window yet
    /// (no monitor), `present` starts it once there is one.
    private func ensureTick() {
        guard fade != .none, tickWindow == nil, let first = windows.first else { return }
        tickWindow = first
        first.startTicks { [unowned self] now in tick(now) }
    }

    private func stopFade() {
        tickWindow?.stopTicks()
        tickWindow = nil
        fade = .none
    }

    /// The fade's end is drawn when every window painted it.
    private var drawnAlpha: Double {
        switch fade {
        case .outward: windows.map(\.drawnAlpha).max() ?? 0
        default: windows.map(\.drawnAlpha).min() ?? 0
        }
    }

    /// How long past its end a fade waits for every window to have drawn it:
    /// a window whose monitor never paints (blanked, or held back by the
    /// compositor) must not keep the fade, and the daemon's transition, waiting.
    private static let fadeGraceMicroseconds = 100_000.0

    /// Called before each frame while a fade runs.
    private func tick(_ now: Int64) -> Bool {
        if fadeStart == 0 { fadeStart = now }
        let duration = Double(max(options.fadeMilliseconds, 1)) * 1000
        let progress = min(1, Double(now - fadeStart) / duration)
        let overdue = Double(now - fadeStart) > duration + Self.fadeGraceMicroseconds
        switch fade {
        case .inward:
            if drawnAlpha >= 1 || (overdue && alpha >= 1) {
                finishFade()
                return false
            }
            alpha = fadeFrom + (1 - fadeFrom) * progress
        case .outward:
            if (drawnAlpha <= 0 || overdue), alpha <= 0 {
                finishFade()
                return false
            }
            alpha = fadeFrom * (1 - progress)
        case .none:
            tickWindow = nil
            return false
        }
        queueDraw()
        return true
    }

    private func finishFade() {
        let direction = fade
        tickWindow = nil
        fade = .none
        if direction == .outward {
            shown = false
            for w in windows { w.hide() }
            log("hidden")
        } else {
            log("shown")
        }
        if ackWhenDone {
            ackWhenDone = false
            sendAck()
        }
    }

    // MARK: Drawing

    private func queueDraw() { if shown { for w in windows { w.queueDraw() } } }
}
