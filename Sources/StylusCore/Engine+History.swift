// SPDX-License-Identifier: MIT
extension Engine {
    /// Takes back the last step, in any canvas state (as `clear` works in
    /// any state): a finished stroke, or a clear (its strokes come back). A
    /// stroke still being drawn is not finished: it is neither ended nor
    /// removed, it goes on, and the finished stroke before it is the one
    /// removed. Every other stroke keeps its bits.
    mutating func undo(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        // A clear is the last step only while nothing was finished since: what is on the
        // canvas now is at most strokes in progress, and the cleared ones go back below them.
        if case .clear(let strokes)? = canvas.history.last {
            canvas.history.removeLast()
            let drawing = canvas.strokes
            canvas.strokes = strokes + drawing
            for i in devices.indices {
                if let r = devices[i].recordingStroke { devices[i].recordingStroke = r + strokes.count }
            }
            canvas.pointCount = canvas.strokes.reduce(0) { $0 + $1.points.count }
            canvas.undone.append(.clear)
            return stepped(.undo, source: source, at: time, into: &effects)
        }
        if case .erase(let erased)? = canvas.history.last {
            canvas.history.removeLast()
            // Redo takes them off again from where they are now, not where they were.
            canvas.undone.append(.erase(restore(erased)))
            return stepped(.undo, source: source, at: time, into: &effects)
        }
        let drawing = Set(devices.compactMap(\.recordingStroke))
        guard let s = canvas.strokes.indices.last(where: { !drawing.contains($0) }) else {
            return .unchanged(reason: canvas.strokes.isEmpty
                ? "canvas is empty; nothing to undo"
                : "no finished stroke to undo; the stroke in progress is kept")
        }
        if case .stroke? = canvas.history.last { canvas.history.removeLast() }
        canvas.pointCount -= canvas.strokes[s].points.count
        canvas.undone.append(.stroke(canvas.strokes.remove(at: s)))
        for i in devices.indices {
            if let r = devices[i].recordingStroke, r > s { devices[i].recordingStroke = r - 1 }
        }
        return stepped(.undo, source: source, at: time, into: &effects)
    }

    /// Takes again the step undo took back last: a stroke goes back on top, a clear clears again.
    mutating func redo(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        guard let step = canvas.undone.popLast() else {
            return .unchanged(reason: "nothing to redo; redo takes again what undo took back, until a stroke, an erase, a clear, a discard or a submit changes the drawing")
        }
        switch step {
        case .stroke(let stroke):
            // Below a stroke in progress, which stays the newest.
            let at = devices.compactMap(\.recordingStroke).min() ?? canvas.strokes.count
            canvas.strokes.insert(stroke, at: at)
            for i in devices.indices {
                if let r = devices[i].recordingStroke, r >= at { devices[i].recordingStroke = r + 1 }
            }
            canvas.pointCount += stroke.points.count
            appendHistory(.stroke)
        case .clear:
            let drawing = Set(devices.compactMap(\.recordingStroke))
            let cleared = canvas.strokes.indices.filter { !drawing.contains($0) }.map { canvas.strokes[$0] }
            canvas.strokes = canvas.strokes.indices.filter { drawing.contains($0) }.map { canvas.strokes[$0] }
            for i in devices.indices where devices[i].recordingStroke != nil {
                devices[i].recordingStroke = canvas.strokes.firstIndex { $0.device == devices[i].id }
            }
            canvas.pointCount = canvas.strokes.reduce(0) { $0 + $1.points.count }
            appendHistory(.clear(cleared))
        case .erase(let erased):
            remove(erased)
            appendHistory(.erase(erased))
        }
        return stepped(.redo, source: source, at: time, into: &effects)
    }

    /// Puts erased strokes back where they were, lowest index first, so each lands
    /// at its own index (strokes begun since sit above them all and move up); the
    /// places they landed, which differ when strokes below were undone since.
    mutating func restore(_ erased: [ErasedStroke]) -> [ErasedStroke] {
        var placed: [ErasedStroke] = []
        for e in erased.sorted(by: { $0.index < $1.index }) {
            let at = min(e.index, canvas.strokes.count)
            placed.append(ErasedStroke(index: at, stroke: e.stroke))
            canvas.strokes.insert(e.stroke, at: at)
            canvas.pointCount += e.stroke.points.count
            for i in devices.indices {
                if let r = devices[i].recordingStroke, r >= at { devices[i].recordingStroke = r + 1 }
            }
        }
        return placed
    }

    /// Takes erased strokes off the canvas, highest index first; a stroke not at its
    /// index (which bookkeeping should prevent) is looked for, never another removed.
    mutating func remove(_ erased: [ErasedStroke]) {
        for e in erased.sorted(by: { $0.index > $1.index }) {
            let found = canvas.strokes.indices.contains(e.index) && canvas.strokes[e.index] == e.stroke
                ? e.index : canvas.strokes.firstIndex(of: e.stroke)
            guard let index = found else { continue }
            canvas.pointCount -= canvas.strokes[index].points.count
            canvas.strokes.remove(at: index)
            for i in devices.indices {
                if let r = devices[i].recordingStroke, r > index { devices[i].recordingStroke = r - 1 }
            }
        }
    }

    private mutating func stepped(_ cause: CanvasEvent.Cause, source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        updateFullness()
        effects.events.append(.canvas(canvasEvent(source: source, cause: cause, at: time)))
        effects.stateChanged = true
        return .done
    }

    /// A new step: what undo took back can no longer be taken again.
    mutating func record(_ step: DrawingStep) {
        canvas.undone.removeAll()
        appendHistory(step)
    }

    /// Keeps at most `historyLimit` steps, and the strokes cleared ones hold to the
    /// canvas's own point limit: 256 clears of a full canvas would otherwise keep
    /// 256 canvases. The oldest steps go first.
    private mutating func appendHistory(_ step: DrawingStep) {
        canvas.history.append(step)
        if canvas.history.count > Canvas.historyLimit { canvas.history.removeFirst(canvas.history.count - Canvas.historyLimit) }
        func held(_ step: DrawingStep) -> Int {
            switch step {
            case .clear(let strokes): strokes.reduce(0) { $0 + $1.points.count }
            case .erase(let erased): erased.reduce(0) { $0 + $1.stroke.points.count }
            case .stroke: 0
            }
        }
        var points = canvas.history.reduce(0) { $0 + held($1) }
        while points > config.canvasLimits.maxPoints, let oldest = canvas.history.firstIndex(where: { held($0) > 0 }) {
            points -= canvas.history[...oldest].reduce(0) { $0 + held($1) }
            canvas.history.removeFirst(oldest + 1)
        }
    }
}
