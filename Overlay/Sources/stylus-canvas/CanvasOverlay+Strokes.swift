// SPDX-License-Identifier: MIT
import CanvasModel

/// The daemon's strokes on the surfaces: fetched, reconciled by StrokeBook, drawn.
extension CanvasOverlay {
    /// How a live sample is drawn: in the current style, or as the eraser when
    /// the pen is turned round (its eraser end erases whatever tool is chosen).
    func liveStyle(_ tool: InkTool) -> InkStyle {
        var style = currentStyle
        if tool == .eraser { style.tool = .eraser }
        return style
    }

    func redrawLive() { for w in windows { w.layers.redrawLive(book.liveStrokes) } }

    /// A laser stroke ended: it leaves the canvas a moment later (the daemon never keeps it).
    func expireLaserLater() {
        after(milliseconds: UInt32(StrokeBook.laserLifetimeMilliseconds)) { [weak self] in
            guard let self, book.expireOldestLaser() else { return }
            redrawLive()
            queueDraw()
        }
    }

    func fetchStrokes() {
        if fetching {
            fetchAgain = true
            return
        }
        fetching = true
        let rebuild = rebuildOnNextFetch
        rebuildOnNextFetch = false
        // Only what is new, from the last stroke known on (StrokeBook checks that one is unchanged):
        // fetching the whole drawing at each stroke made the canvas's work and its heap's high-water
        // mark grow with the drawing.
        let known = rebuild ? 0 : max(0, book.finished.count - 1)
        link.strokes(from: known) { result in
            MainInbox.shared.post { [self] in
                fetching = false
                switch result {
                case .success(let tail):
                    if let strokes = tail.whole(after: book.finished) {
                        apply(strokes, rebuild: rebuild)
                    } else {
                        rebuildOnNextFetch = true
                        fetchAgain = true
                    }
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
}
