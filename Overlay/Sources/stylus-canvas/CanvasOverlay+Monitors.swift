// SPDX-License-Identifier: MIT
import CanvasModel
import StylusProtocol

/// Which monitors the canvas covers, and what the daemon is told about them.
extension CanvasOverlay {
    /// A surface on each monitor of the placement, reusing the surfaces there are.
    func present() {
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
        applyBoard()
        updatePalette()
        log("presented")
    }

    /// Tells the daemon which route this canvas took, how many outputs it has
    /// (`stylusctl status` shows it) and the area the tablet maps to (the size
    /// `export` draws at): on each connection, and when the outputs or pens change.
    func reportOverlay(force: Bool = false) {
        let monitors = backend.monitors()
        let area = MonitorPlacement.choose(options.monitor, pens: pens, monitors: monitors)
        let report = OverlayReport(backend: backend.name, outputs: monitors.count, width: area?.areaWidth, height: area?.areaHeight)
        guard model.connected, force || report != reported else { return }
        reported = report
        link.send(.overlay(report)) { error in
            // An older daemon does not know the command: nothing else depends on it.
            if let error { MainInbox.shared.post { [self] in log("overlay report: \(error)") } }
        }
    }

    func monitorsChanged() {
        reportOverlay()
        guard shown else { return }
        log("the monitors changed")
        present()
        queueDraw()
    }

    /// The daemon's pens changed (a status after a device event): place again if that moves the canvas.
    func setPens(_ surfaces: [PenSurface]) {
        guard surfaces != pens else { return }
        pens = surfaces
        reportOverlay()   // the pens choose the monitors, and so the area an export draws
        if shown { present() }
    }
}
