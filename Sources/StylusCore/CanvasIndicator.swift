// SPDX-License-Identifier: MIT
/// How an open canvas shows that it is open (`[canvas] indicator`): a thin
/// frame round each monitor in the current colour (`frame`, the default), a
/// small dot in the top right corner (`badge`), or nothing (`none`). An open
/// canvas is otherwise invisible over a desktop without ink, and it takes the
/// mouse. Never in an export or a snapshot. The daemon only reports it
/// (`status`'s canvas part); each canvas draws it (sizes: the canvas spec's `indicator`).
public enum CanvasIndicator: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case frame, badge, none
}
