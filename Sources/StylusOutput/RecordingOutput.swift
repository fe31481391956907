// SPDX-License-Identifier: MIT
import StylusCore

/// Keeps every call it gets, in order: a test double, and what a replay
/// hands an output (`stylusd replay` can print it).
public final class RecordingOutput: PenOutput {
    public enum Call: Equatable, Sendable {
        case deviceAdded(OutputDevice)
        case deviceRemoved(DeviceID)
        case effect(OutputEffect)
        case flush
        case close
    }

    public let mode: OutputMode
    public var statusReason: String { "\(mode.rawValue): recording what an output is handed" }
    public private(set) var calls: [Call] = []

    public init(mode: OutputMode = .observe) {
        self.mode = mode
    }

    public func deviceAdded(_ device: OutputDevice) { calls.append(.deviceAdded(device)) }
    public func deviceRemoved(_ id: DeviceID) { calls.append(.deviceRemoved(id)) }
    public func apply(_ effects: Effects) {
        for effect in effects.output { calls.append(.effect(effect)) }
    }
    public func flush() { calls.append(.flush) }
    public func close() { calls.append(.close) }

    /// Only what came through `apply`.
    public var effects: [OutputEffect] {
        calls.compactMap { if case .effect(let e) = $0 { e } else { nil } }
    }

    public var frames: [PenFrame] {
        effects.compactMap { if case .frame(let f) = $0 { f } else { nil } }
    }

    public var buttons: [ButtonDecision] {
        effects.compactMap { if case .button(let b) = $0 { b } else { nil } }
    }

    public func removeAll() { calls.removeAll() }
}
