// SPDX-License-Identifier: MIT
extension Engine {
    public mutating func perform(_ command: Command, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch command {
        case .toggleCanvas:
            return toggleCanvas(source: .command, at: time, into: &effects)
        case .openCanvas:
            return openCanvas(source: .command, at: time, into: &effects)
        case .minimizeCanvas:
            return minimizeCanvas(source: .command, at: time, into: &effects)
        case .acknowledgeTransition:
            guard canvas.transition != nil else {
                return .refused(reason: "no transition in progress (canvas is \(canvas.state.rawValue))")
            }
            finishTransition(cause: .ack, at: time, into: &effects)
            return .done
        case .clearCanvas:
            return clearCanvas(source: .command, at: time, into: &effects)
        case .undo:
            return undo(source: .command, at: time, into: &effects)
        case .redo:
            return redo(source: .command, at: time, into: &effects)
        case .style(let request):
            return changeStyle(request, source: .command, at: time, into: &effects)
        case .penStyle(let request, let pen):
            return changePenStyle(request, pen: pen, at: time, into: &effects)
        case .submit(let path, let source):
            return endDrawing(.submitted, path: path, source: source, at: time, into: &effects)
        case .discard:
            return endDrawing(.cancelled, path: nil, source: .command, at: time, into: &effects)
        case .palette(let request):
            return setPalette(request, source: .command, at: time, into: &effects)
        case .paletteRegions(let regions):
            // Not a change anyone is told of: only the tip-downs that follow read it.
            if regions == paletteRegions { return .unchanged(reason: "the palette already has these \(counted(regions.count, "region"))") }
            paletteRegions = regions
            return .done
        case .background(let request):
            return changeBackground(request, source: .command, at: time, into: &effects)
        case .precision(let request):
            let wanted: Bool = switch request {
            case .enable: true
            case .disable: false
            case .toggle: !precisionEnabled
            }
            if wanted == precisionEnabled {
                return .unchanged(reason: "precision is already \(wanted ? "enabled" : "disabled")")
            }
            setPrecision(enabled: wanted, source: .command, at: time, into: &effects)
            return .done
        case .draw(let request):
            return draw(request, at: time, into: &effects)
        case .text(let request):
            return addText(request, at: time, into: &effects)
        }
    }

    /// Runs every timer due at or before `time`.
    public mutating func fireTimers(at time: Microseconds, into effects: inout Effects) {
        guard withholdsPresses else {
            if let transition = canvas.transition, transition.deadline <= time {
                finishTransition(cause: .timeout, at: transition.deadline, into: &effects)
            }
            return
        }
        // Every due deadline, earliest first.
        while true {
            let transition = canvas.transition.map(\.deadline).flatMap { $0 <= time ? $0 : nil }
            let expiry = nextPendingExpiry.flatMap { $0.deadline <= time ? $0 : nil }
            if let expiry, expiry.deadline <= (transition ?? .max) {
                // Forgetting an expired pending press changes nothing: it could not pair any more.
                let first = devices[expiry.device].buttons[expiry.button.slot].pendingPress!
                devices[expiry.device].buttons[expiry.button.slot].pendingPress = nil
                effects.output.append(.pendingCleared(PendingPress(device: devices[expiry.device].id, button: expiry.button,
                                                                   firstPress: first, time: expiry.deadline)))
            } else if let transition {
                finishTransition(cause: .timeout, at: transition, into: &effects)
            } else {
                return
            }
        }
    }
}
