// SPDX-License-Identifier: MIT
extension Engine {
    /// The `background` command and the `background:` action: the board changes, the canvases hear of it,
    /// and the state file keeps it.
    mutating func changeBackground(_ request: BackgroundRequest, source: ChangeSource, at time: Microseconds,
                                   into effects: inout Effects) -> CommandOutcome {
        let wanted = switch request {
        case .set(let b): b
        case .next: canvas.background.next
        case .toggle(let b): canvas.background == b ? .none : b
        }
        if wanted == canvas.background { return .unchanged(reason: "the background already is \(wanted.name)") }
        canvas.background = wanted
        effects.events.append(.background(BackgroundEvent(background: wanted, source: source, time: time)))
        effects.stateChanged = true
        return .done
    }
}
