// SPDX-License-Identifier: MIT
extension Engine {
    public mutating func handle(_ input: PenInput, at time: Microseconds, into effects: inout Effects) {
        let frame: (device: DeviceID, kind: PenFrame.Kind)? = switch input {
        case .proximityIn(let id, _, _): (id, .proximityIn)
        case .proximityOut(let id): (id, .proximityOut)
        case .tipDown(let id, _): (id, .tipDown)
        case .tipUp(let id, _): (id, .tipUp)
        case .motion(let id, _): (id, .motion)
        case .deviceAdded, .deviceRemoved, .button: nil
        }
        react(to: input, at: time, into: &effects)
        if let frame { appendFrame(device: frame.device, kind: frame.kind, at: time, into: &effects) }
    }

    private mutating func react(to input: PenInput, at time: Microseconds, into effects: inout Effects) {
        switch input {
        case .deviceAdded(let id, let info):
            if let i = index(of: id) {
                devices[i].info = info
            } else {
                devices.append(DeviceState(id: id, info: info))
            }
            effects.events.append(.device(DeviceEvent(change: .added, device: id, info: info, endedStroke: false, time: time)))

        case .deviceRemoved(let id):
            guard let i = index(of: id) else { return }
            let wasDrawing = devices[i].recordingStroke != nil
            endStroke(device: i, at: time, into: &effects)
            let info = devices[i].info
            devices.remove(at: i)
            effects.events.append(.device(DeviceEvent(change: .removed, device: id, info: info, endedStroke: wasDrawing, time: time)))

        case .proximityIn(let id, let tool, let axes):
            let i = ensureDevice(id)
            if let current = devices[i].tool, current != tool {
                leaveProximity(device: i, at: time, into: &effects)
            }
            if devices[i].tool == tool { return }
            if devices[i].lastTool != tool { clearPendingSidePresses(device: i, at: time, into: &effects) }
            devices[i].tool = tool
            devices[i].lastTool = tool
            devices[i].axes = axes
            devices[i].adjustedX = axes.x
            devices[i].adjustedY = axes.y
            effects.events.append(.proximity(ProximityEvent(device: id, inProximity: true, tool: tool, time: time)))
            enterPen(device: i, tool: tool, at: time, into: &effects)
            devices[i].axes = shaped(axes, device: i)
            emitSample(device: i, at: time, into: &effects)

        case .proximityOut(let id):
            guard let i = index(of: id), devices[i].tool != nil else { return }
            leaveProximity(device: i, at: time, into: &effects)

        case .tipDown(let id, let raw):
            let i = ensureDevice(id)
            let axes = shaped(raw, device: i)
            guard !devices[i].tipDown else { return move(device: i, to: axes, at: time, into: &effects) }
            devices[i].tipDown = true
            // Rule 5: a press held back while hovering becomes the start of a
            // button-drag (the output writes it before the tip), so it can no
            // longer be the first press of a double press.
            clearPendingSidePresses(device: i, at: time, onlyHeldDown: true, into: &effects)
            devices[i].axes = axes
            devices[i].adjustedX = axes.x
            devices[i].adjustedY = axes.y
            updatePrecision(device: i, at: time, into: &effects)
            if !tapPalette(device: i, at: time, into: &effects) { startStroke(device: i, at: time, into: &effects) }
            emitSample(device: i, at: time, into: &effects)

        case .tipUp(let id, let raw):
            guard let i = index(of: id), devices[i].tipDown else { return }
            devices[i].axes = shaped(raw, device: i)
            appendPoint(device: i, at: time, into: &effects)
            lift(device: i, at: time, into: &effects)
            emitSample(device: i, at: time, into: &effects)

        case .motion(let id, let raw):
            let i = ensureDevice(id)
            move(device: i, to: shaped(raw, device: i), at: time, into: &effects)

        case .button(let id, let button, let pressed):
            let i = ensureDevice(id)
            let slot = button.slot
            var decision = ButtonDecision(device: id, button: button, pressed: pressed, verdict: .ignored, time: time,
                                          bound: binding(for: button, device: i) != .none)
            guard slot < ButtonID.slotCount else { return effects.output.append(.button(decision)) }
            if !pressed {
                decision.verdict = Self.verdict(devices[i].buttons[slot].release(at: time))
                appendButtonEvent(device: id, button: button, release: decision.verdict, at: time, into: &effects)
                return effects.output.append(.button(decision))
            }
            devices[i].slotsPressed = max(devices[i].slotsPressed, slot + 1)
            // Rule 5: a drag press ends the pending first press (a click the output
            // held back is written now, before the drag's press).
            if devices[i].tipDown, case .side(let b) = button { clearPendingPress(device: i, button: b, at: time, into: &effects) }
            let previousPress = devices[i].buttons[slot].lastPress
            let verdict = devices[i].buttons[slot].press(at: time, interval: intervalUS, debounce: debounceUS,
                                                         tipDown: devices[i].tipDown)
            appendButtonEvent(device: id, button: button, press: verdict, after: previousPress, at: time, into: &effects)
            switch verdict {
            case .bounce: decision.verdict = .bounce
            case .repeated: decision.verdict = .ignored
            case .first: decision.verdict = .first(pendingUntil: time + intervalUS)
            case .double(let first): decision.verdict = .doublePress(firstPress: first)
            case .drag: decision.verdict = .drag
            }
            // Before the double press's own effects: cause, then what it caused.
            effects.output.append(.button(decision))
            if case .double(let first) = verdict {
                doublePress(device: i, button: button, first: first, at: time, into: &effects)
            }
        }
    }

    /// The `button` event of a press; a repeated press (never from the kernel) has none.
    func appendButtonEvent(device: DeviceID, button: ButtonID, press verdict: ButtonTracker.PressVerdict,
                                   after previous: Microseconds?, at time: Microseconds, into effects: inout Effects) {
        if verdict == .repeated { return }
        var isDouble = false
        if case .double = verdict { isDouble = true }
        effects.events.append(.button(ButtonEvent(device: device, button: button, pressed: true, double: isDouble,
                                                  bounce: verdict == .bounce, implicit: false,
                                                  gap: previous.map { time - $0 }, interval: intervalUS, time: time)))
    }

    /// The `button` event of a release; one with no press down (never from the kernel) has none.
    func appendButtonEvent(device: DeviceID, button: ButtonID, release verdict: ButtonDecision.Verdict, implicit: Bool = false,
                                   at time: Microseconds, into effects: inout Effects) {
        if verdict == .ignored { return }
        effects.events.append(.button(ButtonEvent(device: device, button: button, pressed: false, double: false,
                                                  bounce: verdict == .bounce, implicit: implicit,
                                                  gap: nil, interval: intervalUS, time: time)))
    }

    static func verdict(_ release: ButtonTracker.ReleaseVerdict) -> ButtonDecision.Verdict {
        switch release {
        case .bounce: .bounce
        case .unmatched: .ignored
        case .first: .passed
        case .double(let first): .doublePress(firstPress: first)
        }
    }

    /// The output's view of a pen position input, after the engine handled it.
    private func appendFrame(device id: DeviceID, kind: PenFrame.Kind, at time: Microseconds, into effects: inout Effects) {
        guard let i = index(of: id) else {
            // A proximity-out from a device the engine never saw.
            return effects.output.append(.frame(PenFrame(device: id, kind: kind, inProximity: false, tipDown: false,
                                                         x: 0, y: 0, adjustedX: 0, adjustedY: 0, time: time)))
        }
        // Field by field: a copy of the whole DeviceState costs retains on every pen event.
        effects.output.append(.frame(PenFrame(device: id, kind: kind, inProximity: devices[i].tool != nil, tipDown: devices[i].tipDown,
                                              x: devices[i].axes.x, y: devices[i].axes.y,
                                              adjustedX: devices[i].adjustedX, adjustedY: devices[i].adjustedY, time: time,
                                              onPalette: devices[i].onPalette)))
    }

    /// Appends what an output joining now must know beyond the next inputs:
    /// the canvas state (after `restore`, or when the output is replaced).
    public func describeState(forOutputAt time: Microseconds, into effects: inout Effects) {
        effects.output.append(.canvas(canvas.state, time: time))
    }
}
