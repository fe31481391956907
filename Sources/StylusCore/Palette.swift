// SPDX-License-Identifier: MIT
/// When the canvas shows its palette (`[canvas] show_palette`): only after a
/// `palette` action or command asks (`on-request`, the default), or whenever
/// the canvas is open (`always`, and then `palette hide` is refused).
public enum PaletteVisibility: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case onRequest = "on-request"
    case always
}

/// What the `palette` command asks for.
public enum PaletteRequest: String, CaseIterable, Equatable, Sendable, Codable {
    case show, hide, toggle
}

/// One place of the canvas's palette that a pen tap selects from, in the
/// tablet's normalised coordinates (0-1, the x and y of stroke points): the
/// daemon, not the window, decides what a tip-down there does, because in
/// filter mode only the daemon sees the pen.
public struct PaletteRegion: Equatable, Hashable, Sendable {
    /// The top-left corner and size.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// What a tap applies, as a `tool:`, `color:`, `width:` or `background:` action would.
    public var selection: PaletteSelection

    public init(x: Double, y: Double, width: Double, height: Double, selection: PaletteSelection) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.selection = selection
    }

    /// Enough for 8 colours, 9 tools, 2 widths and the board on each of several monitors,
    /// while a flood of regions stays cheap for the tip-down that checks them.
    public static let maxCount = 64

    /// Edges included: a tap on a button's border selects rather than inks.
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= x + width && py >= y && py <= y + height
    }

    /// The selection a region's `select` names: any style action
    /// (`tool:pen`, `color:#3465a4`, `color:crimson`, `color:next`, `width:+`) or board action
    /// (`background:next`, `background:white`); nil and the reason for anything else.
    public static func selection(_ text: String) -> Result<PaletteSelection, ActionError> {
        switch Action.parse(text) {
        case .success(.style(let request)): .success(.style(request))
        case .success(.background(let request)): .success(.board(request))
        case .success: .failure(ActionError("\"\(text)\" is not a palette selection; use tool:NAME, color:NAME, color:#RRGGBB, color:next, color:previous, width:N, width:+, width:- or background:NAME|next"))
        case .failure(let error): .failure(error)
        }
    }

    /// The selection as `select` spells it.
    public var selectionText: String { selection.action.rawValue }
}
