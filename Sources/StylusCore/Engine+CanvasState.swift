// SPDX-License-Identifier: MIT
extension Engine {
    mutating func openCanvas(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .open, .opening: .unchanged(reason: "canvas is already \(canvas.state.rawValue)")
        case .minimizing: .refused(reason: "canvas is minimizing; wait for the transition to end")
        case .minimized: toggleCanvas(source: source, at: time, into: &effects)
        }
    }

    mutating func minimizeCanvas(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .minimized, .minimizing: .unchanged(reason: "canvas is already \(canvas.state.rawValue)")
        case .opening: .refused(reason: "canvas is opening; wait for the transition to end")
        case .open: toggleCanvas(source: source, at: time, into: &effects)
        }
    }

    /// - Parameter restartStrokes: a pen touching the open canvas starts a new stroke at once;
    ///   not when a drawing ends (the canvas minimizes next).
    mutating func clearCanvas(source: ChangeSource, restartStrokes: Bool = true, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        for i in devices.indices { devices[i].recordingStroke = nil }
        let hadContent = canvas.hasContent
        // Undoable: the strokes come back (a stroke in progress is cleared with them, as before).
        if !canvas.strokes.isEmpty { record(.clear(canvas.strokes)) }
        canvas.strokes.removeAll()
        canvas.pointCount = 0
        canvas.isFull = false
        if canvas.state == .open, restartStrokes {
            for i in devices.indices where devices[i].tipDown { startStroke(device: i, at: time, into: &effects) }
        }
        effects.events.append(.canvas(canvasEvent(source: source, cause: .clear, at: time)))
        effects.stateChanged = true
        return hadContent ? .done : .unchanged(reason: "canvas was already empty")
    }

    /// Ends the drawing: its own event (the result, the path a submit wrote,
    /// whether it had content), then an undoable clear and, if the canvas is
    /// open, a minimize whose events carry the same result. Strokes cleared
    /// here come back with `undo` until the next stroke.
    mutating func endDrawing(_ result: DrawingResult, path: String?, source: ChangeSource, at time: Microseconds,
                                     into effects: inout Effects) -> CommandOutcome {
        if result == .cancelled, canvas.strokes.isEmpty, canvas.state == .minimized || canvas.state == .minimizing {
            return .unchanged(reason: "nothing to discard: the canvas is \(canvas.state.rawValue) and empty")
        }
        // As minimize is. A submit's picture is already written by then: it ends the drawing whatever the state.
        if result == .cancelled, canvas.state == .opening { return .refused(reason: "canvas is opening; wait for the transition to end") }
        let minimizes = canvas.state == .open
        // A stroke in progress is part of the drawing that ends: finished now, cleared with the rest, not begun again.
        if minimizes { for i in devices.indices { endStroke(device: i, at: time, into: &effects) } }
        var event = canvasEvent(source: source, cause: result == .submitted ? .submit : .discard, at: time)
        event.result = result
        event.path = path
        effects.events.append(.canvas(event))
        effects.stateChanged = true
        if !canvas.strokes.isEmpty { _ = clearCanvas(source: source, restartStrokes: !minimizes, at: time, into: &effects) }
        // Opening: the canvas opens, empty; a drawing that ends cannot stop a transition half way.
        if canvas.state == .open { _ = toggleCanvas(source: source, result: result, at: time, into: &effects) }
        return .done
    }

    mutating func toggleCanvas(source: ChangeSource, result: DrawingResult = .minimized, at time: Microseconds,
                                       into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .opening, .minimizing:
            return .refused(reason: "canvas is \(canvas.state.rawValue); a toggle waits until the transition ends")
        case .minimized:
            canvas.state = .opening
        case .open:
            canvas.state = .minimizing
            for i in devices.indices { endStroke(device: i, at: time, into: &effects) }
            releaseCanvasSources()
        }
        canvas.transition = Canvas.Transition(source: source, deadline: time + Microseconds(config.transitionMS) * 1000,
                                              result: canvas.state == .minimizing ? result : nil)
        var event = canvasEvent(source: source, cause: .request, at: time)
        event.result = canvas.transition?.result
        effects.events.append(.canvas(event))
        effects.output.append(.canvas(canvas.state, time: time))
        effects.stateChanged = true
        if config.transitionMS == 0 { finishTransition(cause: .timeout, at: time, into: &effects) }
        return .done
    }

    mutating func finishTransition(cause: CanvasEvent.Cause, at time: Microseconds, into effects: inout Effects) {
        guard let transition = canvas.transition else { return }
        canvas.transition = nil
        canvas.state = canvas.state == .opening ? .open : .minimized
        var event = canvasEvent(source: transition.source, cause: cause, at: time)
        event.result = transition.result
        effects.events.append(.canvas(event))
        effects.output.append(.canvas(canvas.state, time: time))
        effects.stateChanged = true
        if canvas.state == .open {
            // A pen already touching when the canvas opens starts drawing now.
            for i in devices.indices where devices[i].tipDown { startStroke(device: i, at: time, into: &effects) }
        }
    }

    func canvasEvent(source: ChangeSource, cause: CanvasEvent.Cause, at time: Microseconds) -> CanvasEvent {
        CanvasEvent(state: canvas.state, source: source, cause: cause, hasContent: canvas.hasContent,
                    strokeCount: canvas.strokes.count, time: time)
    }
}
