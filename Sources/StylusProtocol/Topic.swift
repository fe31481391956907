// SPDX-License-Identifier: MIT
public import StylusCore

/// Every subscription a client can ask for, listed once.
public enum Topic: String, CaseIterable, Codable, Sendable {
    case canvas
    case doublePress = "double-press"
    case precision
    case device
    case pen
    /// Every press and release of a side or pad button, with its gap to the
    /// button's previous press: what `stylusctl monitor` and `calibrate` read.
    case button
    /// The daemon's output: which mode runs (observe, filter) and why. Not an
    /// engine event: sent when the mode or the requested mode changes.
    case output
    /// The style the next stroke gets, and the board under the ink (`background` events): sent when they change.
    case tool

    /// What `subscribe` without `topics` means: every topic but the raw
    /// streams (per-sample pen data, every button press), asked for by name.
    public static let defaults: [Topic] = allCases.filter { $0 != .pen && $0 != .button }

    /// Which subscription an engine event belongs to.
    public init(_ event: EngineEvent) {
        switch event {
        case .canvas, .stroke, .canvasFull: self = .canvas
        case .doublePress: self = .doublePress
        case .precision: self = .precision
        case .device: self = .device
        case .proximity: self = .pen
        case .button: self = .button
        case .tool, .background: self = .tool
        }
    }

    /// Which topic an event line belongs to, by its `event` name.
    public init?(eventName: String) {
        switch eventName {
        case "canvas", "stroke", "canvas-full": self = .canvas
        case "double-press": self = .doublePress
        case "precision": self = .precision
        case "device": self = .device
        case "proximity", "pen", "dropped": self = .pen
        case "output": self = .output
        case "button": self = .button
        case "tool", "background": self = .tool
        default: return nil
        }
    }
}
