// SPDX-License-Identifier: MIT
/// What the open canvas shows under the ink: nothing (the desktop), or an
/// opaque board. Written `none`, `white`, `black`, `grid` or `#rrggbb` in
/// config.toml, the `background` command, its event, `status` and the state file.
public enum CanvasBackground: Hashable, Sendable {
    case none
    case white
    case black
    /// White paper with light lines (CanvasModel's spec says how far apart).
    case grid
    /// A board of one colour.
    case color(StrokeColor)

    /// What `background:next` goes round, in this order; a colour board goes on to `none`.
    public static let cycle: [CanvasBackground] = [.none, .white, .black, .grid]

    public var next: CanvasBackground {
        guard let here = Self.cycle.firstIndex(of: self) else { return .none }
        return Self.cycle[(here + 1) % Self.cycle.count]
    }

    /// Whether the board hides the desktop (every board but `none`).
    public var isOpaque: Bool { self != .none }

    /// The words it is written with, for help texts and errors.
    public static let spellings = "none, white, black, grid, a CSS colour name or #rrggbb"

    /// `none`, `white`, `black`, `grid`, or a colour as every colour is taken (a CSS name, #rgb, #rrggbb); nil otherwise.
    public init?(name: String) {
        switch name {
        case "none": self = .none
        case "white": self = .white
        case "black": self = .black
        case "grid": self = .grid
        default:
            guard case .success(let color) = ColorName.parse(name) else { return nil }
            self = .color(color)
        }
    }

    public var name: String {
        switch self {
        case .none: "none"
        case .white: "white"
        case .black: "black"
        case .grid: "grid"
        case .color(let c): c.hex
        }
    }
}

extension CanvasBackground: CustomStringConvertible {
    public var description: String { name }
}

extension CanvasBackground: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let background = CanvasBackground(name: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\"\(text)\" is not a background (\(Self.spellings))"))
        }
        self = background
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// A change of the board: one board, or the next in `CanvasBackground.cycle`.
public enum BackgroundRequest: Hashable, Sendable {
    case set(CanvasBackground)
    case next
    /// A button's or key's `background:white`: that board, or back to the desktop when it
    /// already shows (one key turns the whiteboard on and off, as in other annotators).
    case toggle(CanvasBackground)

    /// What an action `background:NAME` asks: `next`, `none`, or a board toggled.
    public init?(actionArgument name: String) {
        guard let request = BackgroundRequest(name: name) else { return nil }
        if case .set(let b) = request, b != .none { self = .toggle(b) } else { self = request }
    }

    /// `next` or a board's name (the `background` command sets it); nil for anything else.
    public init?(name: String) {
        if name == "next" { self = .next } else if let b = CanvasBackground(name: name) { self = .set(b) } else { return nil }
    }

    public var name: String {
        switch self {
        case .set(let b), .toggle(let b): b.name
        case .next: "next"
        }
    }
}

/// The board changed: every canvas draws it from now on.
public struct BackgroundEvent: Equatable, Sendable {
    public var background: CanvasBackground
    public var source: ChangeSource
    public var time: Microseconds

    public init(background: CanvasBackground, source: ChangeSource, time: Microseconds) {
        self.background = background
        self.source = source
        self.time = time
    }
}
