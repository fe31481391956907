// SPDX-License-Identifier: MIT
/// What a tap on a palette region applies: a change of style (a colour, a tool,
/// a width step) or of the board under the ink, so the board's button is a
/// region like any other and the daemon, which alone hears the pen, applies it.
public enum PaletteSelection: Hashable, Sendable {
    case style(StyleRequest)
    case board(BackgroundRequest)

    /// The action it is written as in `select` (`tool:pen`, `background:next`).
    public var action: Action {
        switch self {
        case .style(let request): .style(request)
        case .board(let request): .background(request)
        }
    }
}
