// SPDX-License-Identifier: MIT
extension Engine {
    mutating func doublePress(device i: Int, button: ButtonID, first: Microseconds, at time: Microseconds, into effects: inout Effects) {
        let action = binding(for: button, device: i)
        let source: ChangeSource = if case .pad = button { .pad } else { .pen }
        let slot = effects.events.count
        effects.events.append(.doublePress(DoublePressEvent(
            device: devices[i].id, button: button, time: time, firstPress: first, action: action, outcome: .applied)))
        let outcome: DoublePressEvent.Outcome
        switch action {
        case .none:
            outcome = .ignored(reason: "no action is bound to \(button)")
        case .toggleCanvas:
            if case .refused(let reason) = toggleCanvas(source: source, at: time, into: &effects) {
                outcome = .ignored(reason: reason)
            } else {
                outcome = .applied
            }
        case .togglePrecision:
            setPrecision(enabled: !precisionEnabled, source: source, at: time, into: &effects)
            outcome = .applied
        case .undo:
            outcome = Self.doublePressOutcome(undo(source: source, at: time, into: &effects))
        case .redo:
            outcome = Self.doublePressOutcome(redo(source: source, at: time, into: &effects))
        case .style(let request):
            outcome = Self.doublePressOutcome(changeStyle(request, source: source, at: time, into: &effects))
        case .background(let request):
            outcome = Self.doublePressOutcome(changeBackground(request, source: source, at: time, into: &effects))
        case .palette:
            outcome = Self.doublePressOutcome(setPalette(.toggle, source: source, at: time, into: &effects))
        case .clearCanvas:
            outcome = Self.doublePressOutcome(clearCanvas(source: source, at: time, into: &effects))
        case .openCanvas:
            outcome = Self.doublePressOutcome(openCanvas(source: source, at: time, into: &effects))
        case .minimizeCanvas:
            outcome = Self.doublePressOutcome(minimizeCanvas(source: source, at: time, into: &effects))
        case .discard:
            outcome = Self.doublePressOutcome(endDrawing(.cancelled, path: nil, source: source, at: time, into: &effects))
        case .preset, .exec, .key, .click, .submit, .snapshot, .copy:
            // submit: the shell writes the picture, then performs `Command.submit`.
            // Applied unless the shell, performing it, says otherwise in this same event.
            effects.actionRequests.append(ActionRequest(action: action, device: devices[i].id, button: button, time: time, eventIndex: slot))
            outcome = .applied
        }
        if case .doublePress(var event) = effects.events[slot] {
            event.outcome = outcome
            effects.events[slot] = .doublePress(event)
        }
    }

    /// A double press's outcome from a command's: nothing done is "ignored", with the reason.
    private static func doublePressOutcome(_ outcome: CommandOutcome) -> DoublePressEvent.Outcome {
        switch outcome {
        case .done: .applied
        case .unchanged(let reason), .refused(let reason): .ignored(reason: reason)
        }
    }
}
