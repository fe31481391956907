// SPDX-License-Identifier: MIT
import StylusCore

/// A recording through the engine and a `CloneFilter`: the evdev frames a
/// virtual pen would get in filter mode (`stylusd replay --output-frames`),
/// decided by the same code, in the same order, as the daemon's filter.
public struct CloneReplay {
    public private(set) var replay: EngineReplay
    public private(set) var filter: CloneFilter
    private var frame: [EvdevEvent] = []
    private var dropping = false
    private var out: [EvdevEvent] = []
    private var effectBuffer: [OutputEffect] = []

    public init(description: DeviceDescription, config: EngineConfig, filterConfig: FilterConfig = FilterConfig(),
                device: DeviceID = DeviceID(1)) {
        replay = EngineReplay(description: description, config: config, device: device, withholdsPresses: true)
        filter = CloneFilter(device: device, description: description, filter: filterConfig)
        frame.reserveCapacity(32)
    }

    /// Feeds one event of the real node; `onFrames` gets the clone's events
    /// (each frame ends with its SYN_REPORT) and `onEvent` the engine's events.
    public mutating func feed(type: UInt16, code: UInt16, value: Int32, time: Microseconds,
                              onEvent: (EngineEvent) -> Void = { _ in }, onFrames: ([EvdevEvent]) -> Void) {
        let isReport = type == EV.syn && code == SYN.report
        if isReport {
            // A withheld press's deadline comes before a later frame, even one that gives the engine nothing.
            var buffer = takeBuffer()
            replay.fireTimers(through: time) { Self.collect($0, onEvent, into: &buffer) }
            applyBuffer(buffer)
        }
        var buffer = takeBuffer()
        replay.feedEffects(type: type, code: code, value: value, time: time) { Self.collect($0, onEvent, into: &buffer) }
        applyBuffer(buffer)
        if dropping {
            // Like the translator: what follows SYN_DROPPED up to the next report is lost.
            if isReport { dropping = false; frame.removeAll(keepingCapacity: true) }
        } else if type == EV.syn && code == SYN.dropped {
            dropping = true
        } else if isReport {
            filter.rawFrame(frame, at: time, into: &out)
            frame.removeAll(keepingCapacity: true)
        } else {
            frame.append(EvdevEvent(type: type, code: code, value: value, time: time))
        }
        if !out.isEmpty {
            onFrames(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// The recording ended: pending timers fire (a held press is written).
    public mutating func finish(onEvent: (EngineEvent) -> Void = { _ in }, onFrames: ([EvdevEvent]) -> Void) {
        var buffer = takeBuffer()
        replay.finishEffects { Self.collect($0, onEvent, into: &buffer) }
        applyBuffer(buffer)
        if !out.isEmpty {
            onFrames(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    // The effects are gathered in a buffer moved out of `self` (no copy, no
    // allocation once it has grown), so the closure never touches `self`.
    private mutating func takeBuffer() -> [OutputEffect] {
        var buffer: [OutputEffect] = []
        swap(&buffer, &effectBuffer)
        return buffer
    }

    private static func collect(_ effects: Effects, _ onEvent: (EngineEvent) -> Void, into buffer: inout [OutputEffect]) {
        for event in effects.events { onEvent(event) }
        buffer.append(contentsOf: effects.output)
    }

    private mutating func applyBuffer(_ buffer: [OutputEffect]) {
        var buffer = buffer
        for effect in buffer { filter.apply(effect, into: &out) }
        buffer.removeAll(keepingCapacity: true)
        swap(&buffer, &effectBuffer)
    }
}
