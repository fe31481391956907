// SPDX-License-Identifier: MIT
/// The buttons `click:` takes, with their evdev codes.
public enum PointerButton: String, CaseIterable, Sendable {
    case left, middle, right

    /// BTN_LEFT, BTN_MIDDLE, BTN_RIGHT.
    public var code: UInt16 {
        switch self {
        case .left: 0x110
        case .middle: 0x112
        case .right: 0x111
        }
    }
}
