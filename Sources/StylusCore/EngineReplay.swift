// SPDX-License-Identifier: MIT
/// Runs the engine over one device's evdev stream with the stream's own
/// timestamps. Timers fire at their deadlines, in order with the input, so
/// the result depends only on the recording and the configuration.
public struct EngineReplay {
    public private(set) var engine: Engine
    public private(set) var translator: EvdevTranslator
    public private(set) var evdevEventCount = 0
    private var effects = Effects()
    private var inputs: [TimedPenInput] = []
    private var started = false

    public init(description: DeviceDescription, config: EngineConfig, device: DeviceID = DeviceID(1), withholdsPresses: Bool = false) {
        engine = Engine(config: config)
        engine.withholdsPresses = withholdsPresses
        translator = EvdevTranslator(device: device, description: description)
    }

    /// Fires every timer due at or before `time` (the daemon's timerfd, for
    /// an output that must see a withheld press's deadline before the next frame).
    public mutating func fireTimers(through time: Microseconds, _ onEffects: (Effects) -> Void) {
        while let deadline = engine.nextDeadline, deadline <= time {
            engine.fireTimers(at: deadline, into: &effects)
        }
        flush(onEffects)
    }

    public mutating func feed(type: UInt16, code: UInt16, value: Int32, time: Microseconds, onEvent: (EngineEvent) -> Void) {
        feedEffects(type: type, code: code, value: value, time: time) { Self.deliver($0, onEvent) }
    }

    /// The same, handing over everything the engine produced for each
    /// completed frame (events, and what an output stage gets) at once.
    public mutating func feedEffects(type: UInt16, code: UInt16, value: Int32, time: Microseconds, _ onEffects: (Effects) -> Void) {
        evdevEventCount += 1
        if !started {
            started = true
            engine.handle(.deviceAdded(translator.device, translator.deviceInfo), at: time, into: &effects)
            flush(onEffects)
        }
        translator.feed(type: type, code: code, value: value, time: time, into: &inputs)
        guard !inputs.isEmpty else { return }
        for timed in inputs {
            if let deadline = engine.nextDeadline, deadline <= timed.time {
                engine.fireTimers(at: timed.time, into: &effects)
            }
            engine.handle(timed.input, at: timed.time, into: &effects)
        }
        inputs.removeAll(keepingCapacity: true)
        flush(onEffects)
    }

    /// The recording ended: time runs on until every pending timer has fired.
    public mutating func finish(onEvent: (EngineEvent) -> Void) {
        finishEffects { Self.deliver($0, onEvent) }
    }

    public mutating func finishEffects(_ onEffects: (Effects) -> Void) {
        while let deadline = engine.nextDeadline {
            engine.fireTimers(at: deadline, into: &effects)
        }
        flush(onEffects)
    }

    private static func deliver(_ effects: Effects, _ onEvent: (EngineEvent) -> Void) {
        for event in effects.events { onEvent(event) }
    }

    /// Why a replay leaves out what the daemon's shell would do for a double press.
    public static let shellActionReason = "a replay performs no preset:, exec:, key: or click: action; a running daemon does"

    private mutating func flush(_ onEffects: (Effects) -> Void) {
        guard !effects.events.isEmpty || !effects.output.isEmpty else { return }
        // Without the daemon's shell nothing performs them: the double press says so rather than "applied".
        for request in effects.actionRequests where effects.events.indices.contains(request.eventIndex) {
            guard case .doublePress(var event) = effects.events[request.eventIndex] else { continue }
            event.outcome = .ignored(reason: Self.shellActionReason)
            effects.events[request.eventIndex] = .doublePress(event)
        }
        onEffects(effects)
        effects.removeAll()
    }
}
