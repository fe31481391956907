// SPDX-License-Identifier: MIT
import StylusCore

/// The filter's settings, beside the engine's (`[output]` in config.toml).
public struct FilterConfig: Equatable, Sendable {
    /// Per side button (`SideButton.rawValue`); nil takes the default,
    /// `defer`. Unbound buttons always pass at once.
    public var passthrough: [Passthrough?] = [nil, nil, nil]
    /// From `opening` until `minimized` the clone's tool is out of proximity.
    public var captureWhileCanvasOpen = true

    public init() {}

    /// How the presses of a side button whose double press is bound go to the clone.
    /// An unbound button (the engine's `ButtonDecision.bound`, which follows the pen
    /// in proximity) always passes at once, whatever this says.
    public func passthrough(for button: SideButton) -> Passthrough {
        passthrough[button.rawValue] ?? .deferred
    }

    /// A pad button is held back like a side button in `defer` when its double press is bound.
    public func passthrough(for button: ButtonID) -> Passthrough {
        switch button {
        case .side(let b): passthrough(for: b)
        case .pad: .deferred
        }
    }

    /// What `[bindings]` alone makes of a side button, with no pen of its own in proximity.
    public func passthrough(for button: SideButton, bindings: EngineConfig) -> Passthrough {
        bindings.binding(for: .side(button)) == .none ? .immediate : passthrough(for: button)
    }
}

extension EngineConfig {
    /// Whether any pad button's double press does something: only then is a pad looked at.
    public var bindsPadButtons: Bool { boundButtons.contains { if case .pad = $0.button { true } else { false } } }

    /// Whether a pad with these buttons has one whose double press does something: only then is it grabbed.
    public func bindsAButton(of pad: DeviceDescription) -> Bool {
        let count = pad.padButtonCodes.count
        return boundButtons.contains { if case .pad(let n) = $0.button { n < count } else { false } }
    }
}

extension OutputConfig {
    /// What `UinputOutput` and `CloneFilter` are configured with.
    public var filter: FilterConfig {
        var f = FilterConfig()
        f.passthrough = passthrough
        f.captureWhileCanvasOpen = captureWhileCanvasOpen
        return f
    }
}
