// SPDX-License-Identifier: MIT
/// A change of the style the next stroke gets: from the `tool` command
/// (any of tool, colour, width) or from an action bound to a button.
public enum StyleRequest: Hashable, Sendable {
    case set(tool: DrawingTool?, color: StrokeColor?, width: Double?)
    /// Back to the tool before the last change (`tool:previous`), so one
    /// binding switches between two tools, e.g. pen and eraser.
    case previousTool
    case nextColor
    case previousColor
    /// The palette's colour at this place, from 1 (`color:3`, the canvas's key 3), so
    /// keys and buttons follow a palette `[canvas] palette` changes.
    case paletteColor(Int)
    case wider
    case narrower

    /// The most colours a palette holds (`[canvas] palette`).
    public static let paletteLimit = 16

    /// The widths `width:+` and `width:-` step through, in reference pixels.
    public static let widthSteps: [Double] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]

    /// The palette `color:next` and `color:previous` go round, until config.toml sets one.
    public static let defaultPalette: [StrokeColor] = [
        "#d61a1c", "#f57900", "#edd400", "#4e9a06", "#3465a4", "#75507b", "#000000", "#ffffff",
    ].map { StrokeColor(hex: $0)! }

    /// The style after this request, or why nothing changes.
    func applied(to style: StrokeStyle, previousTool: DrawingTool, palette: [StrokeColor]) -> Result<StrokeStyle, Unchanged> {
        var next = style
        switch self {
        case .set(let tool, let color, let width):
            if let tool { next.tool = tool }
            if let color { next.color = color }
            if let width { next.width = width }
        case .previousTool:
            next.tool = previousTool
        case .nextColor, .previousColor:
            guard !palette.isEmpty else { return .failure(Unchanged("the palette is empty")) }
            let here = palette.firstIndex(of: style.color)
            let step = self == .nextColor ? 1 : -1
            let index = here.map { ($0 + step + palette.count) % palette.count } ?? (step > 0 ? 0 : palette.count - 1)
            next.color = palette[index]
        case .paletteColor(let place):
            guard palette.indices.contains(place - 1) else {
                return .failure(Unchanged("the palette has \(palette.count) colours; there is no colour \(place)"))
            }
            next.color = palette[place - 1]
        case .wider:
            guard let width = Self.widthSteps.first(where: { $0 > style.width }) else {
                return .failure(Unchanged("the width is already \(Self.describe(style.width)), the widest"))
            }
            next.width = width
        case .narrower:
            guard let width = Self.widthSteps.last(where: { $0 < style.width }) else {
                return .failure(Unchanged("the width is already \(Self.describe(style.width)), the narrowest"))
            }
            next.width = width
        }
        return next == style ? .failure(Unchanged("the style already is \(next.tool.rawValue), \(next.color.hex), width \(Self.describe(next.width))")) : .success(next)
    }

    /// Why a request changes nothing.
    struct Unchanged: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// A width as people write it: 12, not 12.0 (any size: a config file's value is not checked yet).
    public static func describe(_ width: Double) -> String {
        width == width.rounded() && abs(width) < 1e15 ? String(Int(width)) : String(width)
    }
}

/// The style changed, or the palette came or went: what every canvas draws
/// the next stroke with, and whether it shows the palette.
public struct ToolEvent: Equatable, Sendable {
    public var style: StrokeStyle
    public var palette: Bool
    /// The colours `color:next` goes round and the palette shows (`[canvas] palette`).
    public var colors: [StrokeColor]
    public var source: ChangeSource
    public var time: Microseconds
    /// The name of the tool whose style this is (in proximity, or the last seen); nil before any.
    public var pen: String? = nil
}
