// SPDX-License-Identifier: MIT
/// What a canvas does with the mouse, touchpad and touchscreen while open
/// (`[canvas] pointer`): draw with them (`draw`, the default: their strokes
/// reach the daemon with `draw`), or let them through to the windows below
/// where the canvas has no ink or palette (`pass`, the canvas before `draw`).
/// The daemon only reports it (`status`'s canvas part); each canvas applies it.
public enum CanvasPointer: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case draw, pass
}
