// SPDX-License-Identifier: MIT
/// The pure core: `state + input -> state + effects`. No I/O, no clock, no
/// threads; every time comes in with its input, so a replay is repeatable.
public struct Engine: Sendable {
    public private(set) var config: EngineConfig
    public internal(set) var canvas = Canvas()
    public internal(set) var precisionEnabled = false
    /// Emit a `PenSample` per pen input (only worth it while someone listens).
    public var publishesSamples = false
    /// An output holds first presses back (filter mode, `replay
    /// --output-frames`): the end of each pending side-button press's
    /// interval becomes a deadline, and `fireTimers` reports it as
    /// `.pendingCleared` so the output can write the press then. Off, the
    /// rule and its events are exactly the same; only that report is missing.
    public var withholdsPresses = false
    /// A `palette` action or command asked for the palette (see `paletteShown`).
    public internal(set) var paletteRequested = false
    /// Where the canvas's palette is, as it last reported.
    public internal(set) var paletteRegions: [PaletteRegion] = []

    /// Whether the canvas shows its palette while open.
    public var paletteShown: Bool { config.showPalette == .always || paletteRequested }

    var devices: [DeviceState] = []
    /// Points reserved per stroke at tip-down: about 1.3 s at 200 Hz.
    static let strokeReservation = 256
    /// The most points one stroke eraser (`[canvas] eraser = "stroke"`) gathers before
    /// it ends by itself: about 5 minutes of rubbing at 200 Hz.
    static let strokeEraserPointLimit = 65_536
    var curve: PrecisionCurve
    var intervalUS: Microseconds
    var debounceUS: Microseconds

    /// - Precondition: `config.problems()` is empty; callers validate first.
    public init(config: EngineConfig = EngineConfig()) {
        self.config = config
        self.curve = PrecisionCurve(config.precision)
        self.intervalUS = Microseconds(config.doublePressIntervalMS) * 1000
        self.debounceUS = Microseconds(config.debounceMS) * 1000
        canvas.style = config.style.applied(to: canvas.style)
        canvas.pens.base = canvas.style
        if let background = config.background { canvas.background = background }
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
        let shown = paletteShown, colors = self.config.palette, configured = self.config.style, earlier = self.config
        let configuredBackground = self.config.background
        reconfigure(config)
        // As for the style: only a value the file changed, so a board the user chose since stays.
        if let background = config.background, background != configuredBackground {
            _ = changeBackground(.set(background), source: .command, at: time, into: &effects)
        }
        var changed = paletteShown != shown || config.palette != colors
        // Only the keys whose value the file changed: another key's, unchanged, leaves the style the user chose.
        let shownStyle = canvas.style
        if applyCanvasKeys(config.style.changed(from: configured)) { effects.stateChanged = true }
        if applyPenConfig(since: earlier) { effects.stateChanged = true }
        if canvas.style != shownStyle { changed = true }
        guard changed else { return }
        effects.events.append(toolEvent(source: .command, time: time))
    }

    /// Restores persisted state (a restart); never mid-transition. The style keys
    /// `[canvas]` sets are where each start begins, over the saved style.
    public mutating func restore(canvas: Canvas, precisionEnabled: Bool) {
        self.canvas = canvas
        self.canvas.transition = nil
        // A canvas from before pen tools: its style is where new tools start.
        if self.canvas.pens.tools.isEmpty { self.canvas.pens.adopt(style: self.canvas.style, previousTool: self.canvas.previousTool) }
        showCurrentPen()
        _ = applyCanvasKeys(config.style)
        _ = applyPenConfig(since: nil)
        if let background = config.background { self.canvas.background = background }
        self.precisionEnabled = precisionEnabled
        updateFullness()
    }

    /// The tablets' devices; not the canvas's pointer and touch (`StrokeSource`).
    public var deviceIDs: [DeviceID] { devices.lazy.map(\.id).filter { !$0.isCanvasSource } }

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
    var nextPendingExpiry: (deadline: Microseconds, device: Int, button: ButtonID)? {
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
}
