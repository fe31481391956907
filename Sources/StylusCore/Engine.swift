// SPDX-License-Identifier: MIT
public enum Command: Equatable, Sendable {
    case toggleCanvas
    case openCanvas
    case minimizeCanvas
    /// The overlay finished drawing its transition.
    case acknowledgeTransition
    case clearCanvas
    /// Takes back the last step: a finished stroke or a clear (see `undo(source:)`).
    case undo
    /// Takes again what undo took back, until another change (stroke, erase, clear, discard, submit).
    case redo
    /// Changes the style the next stroke gets.
    case style(StyleRequest)
    /// Ends the drawing as `submitted`, once the shell has written it to
    /// `path`: a canvas event with the result and the path, then an undoable
    /// clear and, if the canvas is open, a minimize. `source`: what asked for
    /// the submit (a double press's pen or pad, or a command).
    case submit(path: String, source: ChangeSource = .command)
    /// Ends the drawing as `cancelled`: an undoable clear and, if open, a minimize.
    case discard
    /// Shows or hides the canvas's palette.
    case palette(PaletteRequest)
    /// Where the canvas's palette is (the canvas reports it; empty: nowhere).
    case paletteRegions([PaletteRegion])
    case precision(PrecisionRequest)
}

public enum CommandOutcome: Equatable, Sendable {
    case done
    /// Nothing to do; the state already is what was asked for.
    case unchanged(reason: String)
    case refused(reason: String)
}

struct DeviceState {
    var id: DeviceID
    var info: DeviceInfo
    var tool: Tool?
    /// The last tool seen in proximity, to tell "a different tool" from a return.
    var lastTool: Tool?
    var tipDown = false
    var buttons = [ButtonTracker](repeating: ButtonTracker(), count: ButtonID.slotCount)
    /// Slots below this have seen a press: what a scan for pending presses
    /// looks at (three for a pen, not all 67, at every pen sample).
    var slotsPressed = 0
    var axes = PenAxes()
    var adjustedX = 0.0
    var adjustedY = 0.0
    var precisionActive = false
    var scale = 1.0
    var reportedScale = 1.0
    /// Index into `canvas.strokes` of the stroke this pen is drawing.
    var recordingStroke: Int?
    /// The tip went down on the palette: until it lifts, this contact selected
    /// and draws nothing, even where it slides off the palette.
    var onPalette = false

    init(id: DeviceID, info: DeviceInfo) {
        self.id = id
        self.info = info
    }
}

/// The pure core: `state + input -> state + effects`. No I/O, no clock, no
/// threads; every time comes in with its input, so a replay is repeatable.
public struct Engine: Sendable {
    public private(set) var config: EngineConfig
    public private(set) var canvas = Canvas()
    public private(set) var precisionEnabled = false
    /// Emit a `PenSample` per pen input (only worth it while someone listens).
    public var publishesSamples = false
    /// An output holds first presses back (filter mode, `replay
    /// --output-frames`): the end of each pending side-button press's
    /// interval becomes a deadline, and `fireTimers` reports it as
    /// `.pendingCleared` so the output can write the press then. Off, the
    /// rule and its events are exactly the same; only that report is missing.
    public var withholdsPresses = false
    /// A `palette` action or command asked for the palette (see `paletteShown`).
    public private(set) var paletteRequested = false
    /// Where the canvas's palette is, as it last reported.
    public private(set) var paletteRegions: [PaletteRegion] = []

    /// Whether the canvas shows its palette while open.
    public var paletteShown: Bool { config.showPalette == .always || paletteRequested }

    var devices: [DeviceState] = []
    /// Points reserved per stroke at tip-down: about 1.3 s at 200 Hz.
    static let strokeReservation = 256
    /// The most points one stroke eraser (`[canvas] eraser = "stroke"`) gathers before
    /// it ends by itself: about 5 minutes of rubbing at 200 Hz.
    static let strokeEraserPointLimit = 65_536
    private var curve: PrecisionCurve
    private var intervalUS: Microseconds
    private var debounceUS: Microseconds

    /// - Precondition: `config.problems()` is empty; callers validate first.
    public init(config: EngineConfig = EngineConfig()) {
        self.config = config
        self.curve = PrecisionCurve(config.precision)
        self.intervalUS = Microseconds(config.doublePressIntervalMS) * 1000
        self.debounceUS = Microseconds(config.debounceMS) * 1000
        canvas.style = config.style.applied(to: canvas.style)
    }

    /// Replaces the configuration; canvas, strokes and precision are kept.
    public mutating func reconfigure(_ config: EngineConfig) {
        self.config = config
        // Sampling the curve is most of what a reload costs the engine: only when it changed.
        if config.precision != curve.config { curve = PrecisionCurve(config.precision) }
        intervalUS = Microseconds(config.doublePressIntervalMS) * 1000
        debounceUS = Microseconds(config.debounceMS) * 1000
        updateFullness()
    }

    /// Replaces the configuration (a reload). Style keys `[canvas]` sets anew
    /// apply over the current style; the canvases hear of it, and of the
    /// palette's colours or `show_palette` changing, in a `tool` event.
    public mutating func reconfigure(_ config: EngineConfig, at time: Microseconds, into effects: inout Effects) {
        let shown = paletteShown, colors = self.config.palette, configured = self.config.style
        reconfigure(config)
        var changed = paletteShown != shown || config.palette != colors
        // Only the keys whose value the file changed: another key's, unchanged, leaves the style the user chose.
        let style = config.style.changed(from: configured).applied(to: canvas.style)
        if style != canvas.style {
            setStyle(style)
            effects.stateChanged = true
            changed = true
        }
        guard changed else { return }
        effects.events.append(toolEvent(source: .command, time: time))
    }

    /// Restores persisted state (a restart); never mid-transition. The style keys
    /// `[canvas]` sets are where each start begins, over the saved style.
    public mutating func restore(canvas: Canvas, precisionEnabled: Bool) {
        self.canvas = canvas
        self.canvas.transition = nil
        setStyle(config.style.applied(to: self.canvas.style))
        self.precisionEnabled = precisionEnabled
        updateFullness()
    }

    private mutating func setStyle(_ style: StrokeStyle) {
        if style.tool != canvas.style.tool { canvas.previousTool = canvas.style.tool }
        canvas.style = style
    }

    private func toolEvent(source: ChangeSource, time: Microseconds) -> EngineEvent {
        .tool(ToolEvent(style: canvas.style, palette: paletteShown, colors: config.palette, source: source, time: time))
    }

    public var deviceIDs: [DeviceID] { devices.map(\.id) }

    public func deviceInfo(_ id: DeviceID) -> DeviceInfo? {
        devices.first(where: { $0.id == id })?.info
    }

    /// Whether any pen is slowed by precision mode right now.
    public var precisionActive: Bool { devices.contains { $0.precisionActive } }

    /// When the engine next needs `fireTimers`; nil while nothing is pending.
    public var nextDeadline: Microseconds? {
        let transition = canvas.transition?.deadline
        guard withholdsPresses, let expiry = nextPendingExpiry else { return transition }
        return min(expiry.deadline, transition ?? .max)
    }

    /// The pending press (side button or pad button) whose interval ends
    /// first. A second press at `first + interval` still pairs, so it ends one µs later.
    private var nextPendingExpiry: (deadline: Microseconds, device: Int, button: ButtonID)? {
        var best: (deadline: Microseconds, device: Int, slot: Int)?
        for i in devices.indices {
            for slot in 0..<devices[i].slotsPressed {
                guard let first = devices[i].buttons[slot].pendingPress else { continue }
                let deadline = first + intervalUS + 1
                if best == nil || deadline < best!.deadline { best = (deadline, i, slot) }
            }
        }
        return best.map { ($0.deadline, $0.device, ButtonID(slot: $0.slot)) }
    }

    // MARK: Pen input

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
            emitSample(device: i, at: time, into: &effects)

        case .proximityOut(let id):
            guard let i = index(of: id), devices[i].tool != nil else { return }
            leaveProximity(device: i, at: time, into: &effects)

        case .tipDown(let id, let axes):
            let i = ensureDevice(id)
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

        case .tipUp(let id, let axes):
            guard let i = index(of: id), devices[i].tipDown else { return }
            devices[i].axes = axes
            appendPoint(device: i, at: time, into: &effects)
            lift(device: i, at: time, into: &effects)
            emitSample(device: i, at: time, into: &effects)

        case .motion(let id, let axes):
            let i = ensureDevice(id)
            move(device: i, to: axes, at: time, into: &effects)

        case .button(let id, let button, let pressed):
            let i = ensureDevice(id)
            let slot = button.slot
            var decision = ButtonDecision(device: id, button: button, pressed: pressed, verdict: .ignored, time: time)
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
    private func appendButtonEvent(device: DeviceID, button: ButtonID, press verdict: ButtonTracker.PressVerdict,
                                   after previous: Microseconds?, at time: Microseconds, into effects: inout Effects) {
        if verdict == .repeated { return }
        var isDouble = false
        if case .double = verdict { isDouble = true }
        effects.events.append(.button(ButtonEvent(device: device, button: button, pressed: true, double: isDouble,
                                                  bounce: verdict == .bounce, implicit: false,
                                                  gap: previous.map { time - $0 }, interval: intervalUS, time: time)))
    }

    /// The `button` event of a release; one with no press down (never from the kernel) has none.
    private func appendButtonEvent(device: DeviceID, button: ButtonID, release verdict: ButtonDecision.Verdict, implicit: Bool = false,
                                   at time: Microseconds, into effects: inout Effects) {
        if verdict == .ignored { return }
        effects.events.append(.button(ButtonEvent(device: device, button: button, pressed: false, double: false,
                                                  bounce: verdict == .bounce, implicit: implicit,
                                                  gap: nil, interval: intervalUS, time: time)))
    }

    private static func verdict(_ release: ButtonTracker.ReleaseVerdict) -> ButtonDecision.Verdict {
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

    // MARK: Commands and timers

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

    // MARK: Double press and its actions

    private mutating func doublePress(device i: Int, button: ButtonID, first: Microseconds, at time: Microseconds, into effects: inout Effects) {
        let action = config.binding(for: button)
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
        case .preset, .exec, .key, .click, .submit:
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

    private mutating func openCanvas(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .open, .opening: .unchanged(reason: "canvas is already \(canvas.state.rawValue)")
        case .minimizing: .refused(reason: "canvas is minimizing; wait for the transition to end")
        case .minimized: toggleCanvas(source: source, at: time, into: &effects)
        }
    }

    private mutating func minimizeCanvas(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .minimized, .minimizing: .unchanged(reason: "canvas is already \(canvas.state.rawValue)")
        case .opening: .refused(reason: "canvas is opening; wait for the transition to end")
        case .open: toggleCanvas(source: source, at: time, into: &effects)
        }
    }

    /// - Parameter restartStrokes: a pen touching the open canvas starts a new stroke at once;
    ///   not when a drawing ends (the canvas minimizes next).
    private mutating func clearCanvas(source: ChangeSource, restartStrokes: Bool = true, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
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
    private mutating func endDrawing(_ result: DrawingResult, path: String?, source: ChangeSource, at time: Microseconds,
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

    private mutating func toggleCanvas(source: ChangeSource, result: DrawingResult = .minimized, at time: Microseconds,
                                       into effects: inout Effects) -> CommandOutcome {
        switch canvas.state {
        case .opening, .minimizing:
            return .refused(reason: "canvas is \(canvas.state.rawValue); a toggle waits until the transition ends")
        case .minimized:
            canvas.state = .opening
        case .open:
            canvas.state = .minimizing
            for i in devices.indices { endStroke(device: i, at: time, into: &effects) }
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

    private mutating func finishTransition(cause: CanvasEvent.Cause, at time: Microseconds, into effects: inout Effects) {
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

    private func canvasEvent(source: ChangeSource, cause: CanvasEvent.Cause, at time: Microseconds) -> CanvasEvent {
        CanvasEvent(state: canvas.state, source: source, cause: cause, hasContent: canvas.hasContent,
                    strokeCount: canvas.strokes.count, time: time)
    }

    // MARK: Strokes

    /// Takes back the last step, in any canvas state (as `clear` works in
    /// any state): a finished stroke, or a clear (its strokes come back). A
    /// stroke still being drawn is not finished: it is neither ended nor
    /// removed, it goes on, and the finished stroke before it is the one
    /// removed. Every other stroke keeps its bits.
    private mutating func undo(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
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
    private mutating func redo(source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
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
    private mutating func restore(_ erased: [ErasedStroke]) -> [ErasedStroke] {
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
    private mutating func remove(_ erased: [ErasedStroke]) {
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
    private mutating func record(_ step: DrawingStep) {
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

    private mutating func changeStyle(_ request: StyleRequest, source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch request.applied(to: canvas.style, previousTool: canvas.previousTool, palette: config.palette) {
        case .failure(let unchanged):
            return .unchanged(reason: unchanged.reason)
        case .success(let style):
            setStyle(style)
            effects.events.append(toolEvent(source: source, time: time))
            effects.stateChanged = true
            return .done
        }
    }

    private mutating func setPalette(_ request: PaletteRequest, source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        let wanted = switch request {
        case .show: true
        case .hide: false
        case .toggle: !paletteShown
        }
        if wanted == paletteShown { return .unchanged(reason: "the palette is already \(wanted ? "shown" : "hidden")") }
        if !wanted, config.showPalette == .always {
            return .refused(reason: "the palette always shows ([canvas] show_palette = \"always\"); set it to \"on-request\" to hide it")
        }
        paletteRequested = wanted
        effects.events.append(toolEvent(source: source, time: time))
        return .done
    }

    /// A tip-down on the open canvas's shown palette selects what the region
    /// under it selects (as a `tool:`, `color:` or `width:` action from the pen
    /// would) and marks the contact as no ink. True when it was such a tap.
    private mutating func tapPalette(device i: Int, at time: Microseconds, into effects: inout Effects) -> Bool {
        guard canvas.state == .open, paletteShown, !paletteRegions.isEmpty else { return false }
        let x = devices[i].axes.x, y = devices[i].axes.y
        guard let region = paletteRegions.last(where: { $0.contains(x: x, y: y) }) else { return false }
        devices[i].onPalette = true
        // Tapping what is already chosen changes nothing and is still no stroke.
        _ = changeStyle(region.selection, source: .pen, at: time, into: &effects)
        return true
    }

    private mutating func startStroke(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard canvas.state == .open, devices[i].recordingStroke == nil, !devices[i].onPalette,
              let tool = devices[i].tool ?? devices[i].lastTool else { return }
        var style = canvas.style
        if tool.type == .eraser { style.tool = .eraser }
        // A stroke eraser is never kept: on a full canvas it is how room is made.
        if !(style.tool == .eraser && config.eraser == .stroke) {
            guard !canvas.isFull else { return }
            if canvas.strokes.count >= config.canvasLimits.maxStrokes {
                markFull(.strokes, at: time, into: &effects)
                return
            }
            if canvas.pointCount >= config.canvasLimits.maxPoints {
                markFull(.points, at: time, into: &effects)
                return
            }
        }
        // Room for a typical stroke is taken now, on the tip-down frame, so
        // that its motion frames append without allocating; endStroke trims it.
        var points: [StrokePoint] = []
        points.reserveCapacity(Self.strokeReservation)
        points.append(StrokePoint(devices[i].axes, time: time))
        // The laser's ink only shows while it fades: never recorded, never content.
        guard style.tool != .laser else { return }
        canvas.strokes.append(Stroke(device: devices[i].id, style: style, points: points))
        canvas.pointCount += 1
        devices[i].recordingStroke = canvas.strokes.count - 1
    }

    private mutating func appendPoint(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard let s = devices[i].recordingStroke else { return }
        if canvas.strokes[s].style.tool == .eraser, config.eraser == .stroke {
            // Its points go with it when it ends: bounded on their own, not by the canvas's limit.
            if canvas.strokes[s].points.count >= Self.strokeEraserPointLimit {
                endStroke(device: i, at: time, into: &effects)
                return
            }
        } else if canvas.pointCount >= config.canvasLimits.maxPoints {
            endStroke(device: i, at: time, into: &effects)
            markFull(.points, at: time, into: &effects)
            return
        }
        canvas.strokes[s].points.append(StrokePoint(devices[i].axes, time: time))
        canvas.pointCount += 1
    }

    private mutating func endStroke(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard let s = devices[i].recordingStroke else { return }
        devices[i].recordingStroke = nil
        if canvas.strokes[s].style.tool == .eraser, config.eraser == .stroke {
            eraseStrokesTouched(by: s, device: i, at: time, into: &effects)
            return
        }
        if canvas.strokes[s].points.capacity > 2 * canvas.strokes[s].points.count {
            canvas.strokes[s].points = canvas.strokes[s].points.withUnsafeBufferPointer { Array($0) }
        }
        record(.stroke)
        effects.events.append(.stroke(StrokeEvent(device: devices[i].id, index: s, points: canvas.strokes[s].points.count, time: time)))
        effects.stateChanged = true
    }

    /// `[canvas] eraser = "stroke"`: the eraser stroke at `s` is not kept; every
    /// finished stroke it touched goes, whole, in one step undo takes back.
    /// Strokes other pens are drawing stay. Distances are measured where widths
    /// are, in pixels of a drawing 1600 wide at the eraser's tablet's aspect.
    private mutating func eraseStrokesTouched(by s: Int, device i: Int, at time: Microseconds, into effects: inout Effects) {
        let eraser = canvas.strokes.remove(at: s)
        canvas.pointCount -= eraser.points.count
        for d in devices.indices {
            if let r = devices[d].recordingStroke, r > s { devices[d].recordingStroke = r - 1 }
        }
        let drawing = Set(devices.compactMap(\.recordingStroke))
        let aspect = devices[i].info.area.flatMap { area -> Double? in
            guard let w = area.widthMM, let h = area.heightMM, w > 0, h > 0 else { return nil }
            return h / w
        } ?? 10.0 / 16.0
        let erased = canvas.strokes.indices.filter { index in
            !drawing.contains(index) && EraserHit.touches(eraser, canvas.strokes[index], aspect: aspect)
        }.map { ErasedStroke(index: $0, stroke: canvas.strokes[$0]) }
        if !erased.isEmpty {
            remove(erased)
            record(.erase(erased))
        }
        updateFullness()
        // Said even when nothing was touched: a canvas drew the eraser's path live and
        // draws the drawing again from `strokes`.
        effects.events.append(.canvas(canvasEvent(source: .pen, cause: .erase, at: time)))
        effects.stateChanged = true
    }

    private mutating func markFull(_ limit: CanvasFullEvent.Limit, at time: Microseconds, into effects: inout Effects) {
        guard !canvas.isFull else { return }
        canvas.isFull = true
        effects.events.append(.canvasFull(CanvasFullEvent(limit: limit, strokeCount: canvas.strokes.count, pointCount: canvas.pointCount, time: time)))
    }

    private mutating func updateFullness() {
        canvas.isFull = canvas.strokes.count >= config.canvasLimits.maxStrokes || canvas.pointCount >= config.canvasLimits.maxPoints
    }

    // MARK: Pen state

    private mutating func move(device i: Int, to axes: PenAxes, at time: Microseconds, into effects: inout Effects) {
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

    private mutating func lift(device i: Int, at time: Microseconds, into effects: inout Effects) {
        devices[i].tipDown = false
        devices[i].onPalette = false
        devices[i].adjustedX = devices[i].axes.x
        devices[i].adjustedY = devices[i].axes.y
        endStroke(device: i, at: time, into: &effects)
        updatePrecision(device: i, at: time, into: &effects)
    }

    private mutating func leaveProximity(device i: Int, at time: Microseconds, into effects: inout Effects) {
        if devices[i].tipDown { lift(device: i, at: time, into: &effects) }
        // Like libinput, leaving proximity releases every side button.
        for b in SideButton.allCases {
            let verdict = Self.verdict(devices[i].buttons[b.rawValue].release(at: time))
            guard verdict != .ignored else { continue }   // it was not down
            appendButtonEvent(device: devices[i].id, button: .side(b), release: verdict, implicit: true, at: time, into: &effects)
            effects.output.append(.button(ButtonDecision(device: devices[i].id, button: .side(b), pressed: false,
                                                         implicit: true, verdict: verdict, time: time)))
        }
        clearPendingSidePresses(device: i, at: time, into: &effects)
        guard let tool = devices[i].tool else { return }
        devices[i].tool = nil
        effects.events.append(.proximity(ProximityEvent(device: devices[i].id, inProximity: false, tool: tool, time: time)))
    }

    private mutating func clearPendingSidePresses(device i: Int, at time: Microseconds, onlyHeldDown: Bool = false,
                                                  into effects: inout Effects) {
        for b in SideButton.allCases where !onlyHeldDown || devices[i].buttons[b.rawValue].isDown {
            clearPendingPress(device: i, button: b, at: time, into: &effects)
        }
    }

    private mutating func clearPendingPress(device i: Int, button b: SideButton, at time: Microseconds, into effects: inout Effects) {
        guard let first = devices[i].buttons[b.rawValue].pendingPress else { return }
        devices[i].buttons[b.rawValue].pendingPress = nil
        // One whose interval already ended could not pair any more anyway.
        guard time - first <= intervalUS else { return }
        effects.output.append(.pendingCleared(PendingPress(device: devices[i].id, button: .side(b), firstPress: first, time: time)))
    }

    // MARK: Precision

    private mutating func setPrecision(enabled: Bool, source: ChangeSource, at time: Microseconds, into effects: inout Effects) {
        precisionEnabled = enabled
        effects.stateChanged = true
        for i in devices.indices {
            // Position restarts from the raw position, so nothing drifts.
            devices[i].adjustedX = devices[i].axes.x
            devices[i].adjustedY = devices[i].axes.y
            let (active, scale) = precisionTarget(device: i)
            devices[i].precisionActive = active
            devices[i].scale = scale
            devices[i].reportedScale = scale
        }
        effects.events.append(.precision(PrecisionEvent(
            device: nil, enabled: enabled, active: precisionActive,
            scale: devices.first(where: { $0.precisionActive })?.scale ?? 1, source: source, time: time)))
    }

    private func precisionTarget(device i: Int) -> (active: Bool, scale: Double) {
        let d = devices[i]
        guard precisionEnabled, d.tipDown else { return (false, 1) }
        let p = config.precision
        let active = d.precisionActive
            ? d.axes.pressure < p.fullSpeedPressure
            : d.axes.pressure < p.fullSpeedPressure - p.hysteresis
        return (active, curve.scale(pressure: d.axes.pressure))
    }

    private mutating func updatePrecision(device i: Int, at time: Microseconds, into effects: inout Effects) {
        let (active, scale) = precisionTarget(device: i)
        devices[i].scale = scale
        let activeChanged = active != devices[i].precisionActive
        let scaleMoved = abs(scale - devices[i].reportedScale) >= config.precision.reportStep
        guard activeChanged || (active && scaleMoved) else { return }
        devices[i].precisionActive = active
        devices[i].reportedScale = scale
        effects.events.append(.precision(PrecisionEvent(
            device: devices[i].id, enabled: precisionEnabled, active: active, scale: scale, source: nil, time: time)))
    }

    // MARK: Helpers

    private func index(of id: DeviceID) -> Int? {
        devices.firstIndex(where: { $0.id == id })
    }

    /// Input from a device nobody announced (a recording without a header
    /// event, a race with hotplug) still counts: the device is adopted.
    private mutating func ensureDevice(_ id: DeviceID) -> Int {
        if let i = index(of: id) { return i }
        devices.append(DeviceState(id: id, info: DeviceInfo(name: "", kind: .pen)))
        return devices.count - 1
    }

    private func emitSample(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard publishesSamples else { return }
        let d = devices[i]
        effects.samples.append(PenSample(
            // A tap on the palette reads as a tip in the air: no canvas draws live ink for it.
            device: d.id, tool: (d.tool ?? d.lastTool)?.type ?? .pen, axes: d.axes, tipDown: d.tipDown && !d.onPalette,
            adjustedX: d.adjustedX, adjustedY: d.adjustedY, scale: d.tipDown && precisionEnabled ? d.scale : 1, time: time))
    }
}
