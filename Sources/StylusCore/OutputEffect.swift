// SPDX-License-Identifier: MIT
/// What the engine tells an output stage ("where input goes next": the
/// desktop reading the real node today, a virtual pen later) about the input
/// it just handled. `Effects.output` holds these in the order the engine
/// decided them. Like every effect they are pure: times come from the input.
public enum OutputEffect: Equatable, Sendable {
    /// One per pen position input (proximity in and out, tip down and up,
    /// motion), with the position the cursor should get.
    case frame(PenFrame)
    /// One per button press or release the engine handles, plus one per
    /// release the engine makes itself (`ButtonDecision.implicit`).
    case button(ButtonDecision)
    /// A pending first press can no longer become a double press: the tool
    /// left proximity or a different tool came in (rule 4), or, with
    /// `Engine.withholdsPresses`, its interval ended (stamped with the first
    /// µs after it). An output that held the press back can write it now.
    case pendingCleared(PendingPress)
    /// The canvas entered `state` (a request, a timeout or an acknowledgement).
    case canvas(CanvasState, time: Microseconds)

    public var time: Microseconds {
        switch self {
        case .frame(let f): f.time
        case .button(let b): b.time
        case .pendingCleared(let p): p.time
        case .canvas(_, let time): time
        }
    }
}

/// One pen position input as an output sees it.
public struct PenFrame: Equatable, Sendable {
    public enum Kind: UInt8, Sendable, CaseIterable {
        case proximityIn, motion, tipDown, tipUp, proximityOut
    }
    public var device: DeviceID
    public var kind: Kind
    /// After this input.
    public var inProximity: Bool
    public var tipDown: Bool
    /// The raw position, normalised (0...1), as the engine holds it after
    /// this input: the input's own, except for a proximity-out and inputs
    /// the engine ignores (a tip-up with the tip up, a proximity-in of the
    /// tool already in), which keep the last position it had.
    public var x: Double
    public var y: Double
    /// The precision-mode position, normalised: bit for bit `x` and `y`
    /// while precision is disabled, the pen hovers or it is out of proximity.
    public var adjustedX: Double
    public var adjustedY: Double
    public var time: Microseconds
    /// The tip is down on the canvas's palette: the touch selected, and an
    /// output that passes the pen on must not let the desktop see it touch.
    public var onPalette: Bool

    public init(device: DeviceID, kind: Kind, inProximity: Bool, tipDown: Bool, x: Double, y: Double,
                adjustedX: Double, adjustedY: Double, time: Microseconds, onPalette: Bool = false) {
        self.onPalette = onPalette
        self.device = device
        self.kind = kind
        self.inProximity = inProximity
        self.tipDown = tipDown
        self.x = x
        self.y = y
        self.adjustedX = adjustedX
        self.adjustedY = adjustedY
        self.time = time
    }

    /// Whether the cursor should be somewhere else than the pen is: an output
    /// that writes positions writes the raw value unchanged when this is false.
    public var isAdjusted: Bool { adjustedX != x || adjustedY != y }
}

/// What the double-press rule made of one button press or release.
public struct ButtonDecision: Equatable, Sendable {
    public enum Verdict: Equatable, Sendable {
        /// A press that is now the pending first press: a second press up to
        /// `pendingUntil` (inclusive) makes a double press.
        case first(pendingUntil: Microseconds)
        /// The release of a first press or of a drag press.
        case passed
        /// A press while the tip touches (the frame's resulting tip state): a
        /// button-drag. It is never a first or second press of a double press,
        /// so an output writes it at once.
        case drag
        /// Consumed by a double press: its second press, and that press's
        /// release. `firstPress` is the pending press it pairs with.
        case doublePress(firstPress: Microseconds)
        /// Consumed as contact bounce: a press less than `debounce` after the
        /// button's last release, and its release.
        case bounce
        /// Outside the rule: a press while the button is already down, a
        /// release while it is up (the kernel never sends either; a release
        /// after leaving proximity released the button does), or a pad
        /// button beyond `ButtonID.maxPadButtons`.
        case ignored
    }
    public var device: DeviceID
    public var button: ButtonID
    public var pressed: Bool
    /// A release the engine made itself, with no input behind it: leaving
    /// proximity releases held side buttons, as libinput does.
    public var implicit: Bool
    public var verdict: Verdict
    public var time: Microseconds
    /// Whether a double press of this button does something for the tool in
    /// proximity (its `[pens.NAME.bindings]`, else `[bindings]`): only then
    /// does filter mode hold its presses back from the clone.
    public var bound: Bool

    public init(device: DeviceID, button: ButtonID, pressed: Bool, implicit: Bool = false, verdict: Verdict, time: Microseconds,
                bound: Bool = true) {
        self.device = device
        self.button = button
        self.pressed = pressed
        self.implicit = implicit
        self.verdict = verdict
        self.time = time
        self.bound = bound
    }

    /// The desktop should never see this event: it belongs to a double press
    /// or to contact bounce.
    public var consumed: Bool {
        switch verdict {
        case .doublePress, .bounce: true
        case .first, .passed, .drag, .ignored: false
        }
    }
}

/// A first press that was pending when rule 4 cleared it.
public struct PendingPress: Equatable, Sendable {
    public var device: DeviceID
    public var button: ButtonID
    public var firstPress: Microseconds
    /// When it was cleared.
    public var time: Microseconds

    public init(device: DeviceID, button: ButtonID, firstPress: Microseconds, time: Microseconds) {
        self.device = device
        self.button = button
        self.firstPress = firstPress
        self.time = time
    }
}
