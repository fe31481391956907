// SPDX-License-Identifier: MIT
extension Engine {
    mutating func move(device i: Int, to axes: PenAxes, at time: Microseconds, into effects: inout Effects) {
        let previous = devices[i].axes
        devices[i].axes = axes
        if devices[i].tipDown {
            updatePrecision(device: i, at: time, into: &effects)
            if precisionEnabled {
                let scale = devices[i].scale
                devices[i].adjustedX = min(max(devices[i].adjustedX + (axes.x - previous.x) * scale, 0), 1)
                devices[i].adjustedY = min(max(devices[i].adjustedY + (axes.y - previous.y) * scale, 0), 1)
            } else {
                devices[i].adjustedX = axes.x
                devices[i].adjustedY = axes.y
            }
            appendPoint(device: i, at: time, into: &effects)
        } else {
            devices[i].adjustedX = axes.x
            devices[i].adjustedY = axes.y
        }
        emitSample(device: i, at: time, into: &effects)
    }

    mutating func lift(device i: Int, at time: Microseconds, into effects: inout Effects) {
        devices[i].tipDown = false
        devices[i].onPalette = false
        devices[i].adjustedX = devices[i].axes.x
        devices[i].adjustedY = devices[i].axes.y
        endStroke(device: i, at: time, into: &effects)
        updatePrecision(device: i, at: time, into: &effects)
    }

    mutating func leaveProximity(device i: Int, at time: Microseconds, into effects: inout Effects) {
        if devices[i].tipDown { lift(device: i, at: time, into: &effects) }
        // Like libinput, leaving proximity releases every side button.
        for b in SideButton.allCases {
            let verdict = Self.verdict(devices[i].buttons[b.rawValue].release(at: time))
            guard verdict != .ignored else { continue }   // it was not down
            appendButtonEvent(device: devices[i].id, button: .side(b), release: verdict, implicit: true, at: time, into: &effects)
            effects.output.append(.button(ButtonDecision(device: devices[i].id, button: .side(b), pressed: false,
                                                         implicit: true, verdict: verdict, time: time,
                                                         bound: binding(for: .side(b), device: i) != .none)))
        }
        clearPendingSidePresses(device: i, at: time, into: &effects)
        guard let tool = devices[i].tool else { return }
        devices[i].tool = nil
        effects.events.append(.proximity(ProximityEvent(device: devices[i].id, inProximity: false, tool: tool, time: time)))
    }

    mutating func clearPendingSidePresses(device i: Int, at time: Microseconds, onlyHeldDown: Bool = false,
                                                  into effects: inout Effects) {
        for b in SideButton.allCases where !onlyHeldDown || devices[i].buttons[b.rawValue].isDown {
            clearPendingPress(device: i, button: b, at: time, into: &effects)
        }
    }

    mutating func clearPendingPress(device i: Int, button b: SideButton, at time: Microseconds, into effects: inout Effects) {
        guard let first = devices[i].buttons[b.rawValue].pendingPress else { return }
        devices[i].buttons[b.rawValue].pendingPress = nil
        // One whose interval already ended could not pair any more anyway.
        guard time - first <= intervalUS else { return }
        effects.output.append(.pendingCleared(PendingPress(device: devices[i].id, button: .side(b), firstPress: first, time: time)))
    }
}
