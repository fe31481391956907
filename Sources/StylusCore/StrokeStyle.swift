// SPDX-License-Identifier: MIT
/// The tool a stroke was drawn with, as the daemon names it. A pen's own tool
/// types (`brush`, `pencil`, `airbrush`, …) ink as the pen; the eraser end of a
/// pen is `eraser` whatever tool is chosen. With `text` a tap places text
/// typed on the canvas (`StrokeText`); the pen's own strokes are not recorded.
public enum DrawingTool: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case pen, highlighter, eraser, laser, line, arrow, rectangle, ellipse, text

    public init(name: String) { self = DrawingTool(rawValue: name) ?? .pen }

    /// A shape: drawn from the stroke's first point to its last.
    public var isShape: Bool {
        switch self {
        case .line, .arrow, .rectangle, .ellipse: true
        case .pen, .highlighter, .eraser, .laser, .text: false
        }
    }

    /// Drawn as one path from all its points, again whenever a point is added,
    /// rather than segment by segment: a shape moves with its last point, and a
    /// highlighter must not darken where its own segments meet.
    public var drawsWhole: Bool { isShape || self == .highlighter }
}

/// An ink colour, `#rrggbb` in what the daemon says; what people write is read by `ColorName`.
public struct StrokeColor: Equatable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB` (either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for d in digits.dropFirst() {
            let v: UInt8
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = d - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = d - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(v)
        }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
    }

    public var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// The pen's red of every stroke drawn before strokes had colours.
    // (Codable below: as its #RRGGBB text.)
    public static let red = StrokeColor(red: 0xd6, green: 0x1a, blue: 0x1c)
}

/// What an eraser stroke takes away: the ink under its path (`pixel`, the
/// default: its stroke is kept and drawn as clearing), or every stroke it
/// touches, whole (`stroke`: the eraser's own stroke is not kept).
public enum EraserMode: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    case pixel, stroke
}

/// How a stroke is drawn (docs/OVERLAY.md, "How ink is drawn", is this
/// written out; the GNOME Shell extension follows it): its tool, its colour
/// and its width in pixels of a drawing 1600 px wide (the reference of `stylusctl strokes --svg`, scaled to
/// the area the tablet maps to, so a stroke keeps its width across monitors).
public struct StrokeStyle: Equatable, Hashable, Sendable, Codable {
    public var tool: DrawingTool
    public var color: StrokeColor
    public var width: Double

    public init(tool: DrawingTool = .pen, color: StrokeColor = .red, width: Double = StrokeStyle.defaultWidth) {
        self.tool = tool
        self.color = color
        self.width = width
    }

    public static let defaultWidth = 8.0
    /// A stroke of a pen whose daemon predates styles: red pen (or its eraser end) at the default width.
    public static func legacy(tool: DrawingTool) -> StrokeStyle { StrokeStyle(tool: tool) }

    /// The eraser's path is this many times as wide as the pen's at the same pressure.
    public static let eraserWidthFactor = 3.0
    /// The highlighter: this many times the width, at a constant width, translucent.
    public static let highlighterWidthFactor = 3.0
    public static let highlighterOpacity = 0.35

    /// A segment's width in reference pixels. The pen (and the laser) follow the
    /// pressure: at the default width 8 that is the svg rule, 0.5 + 7.5 · the
    /// pair's mean pressure; the eraser is three times as wide; the highlighter
    /// and the shapes keep one width (a shape half the pen's full width).
    public func referenceWidth(pressure a: Double, _ b: Double) -> Double {
        let pressure = max(0, min(1, (a + b) / 2))
        let pressed = width * (1 + 15 * pressure) / 16
        switch tool {
        case .pen, .laser, .text: return pressed
        case .eraser: return pressed * Self.eraserWidthFactor
        case .highlighter: return width * Self.highlighterWidthFactor
        case .line, .arrow, .rectangle, .ellipse: return width / 2
        }
    }

    /// The widest a stroke of this style gets, in reference pixels.
    public var maximumReferenceWidth: Double { referenceWidth(pressure: 1, 1) }

    /// The widths `width:+` and `width:-` and the `tool` command accept, in reference pixels.
    public static let widthRange = 1.0...64.0
}

/// The style keys a config file sets (`[canvas]` tool, color, width), each
/// applied over the current style: a file that sets only the colour leaves
/// the tool and the width as they are.
public struct ConfiguredStyle: Equatable, Hashable, Sendable, Codable {
    public var tool: DrawingTool?
    public var color: StrokeColor?
    public var width: Double?

    public init(tool: DrawingTool? = nil, color: StrokeColor? = nil, width: Double? = nil) {
        self.tool = tool
        self.color = color
        self.width = width
    }

    public func applied(to style: StrokeStyle) -> StrokeStyle {
        StrokeStyle(tool: tool ?? style.tool, color: color ?? style.color, width: width ?? style.width)
    }

    /// The keys set here with another value than in `earlier` (a reload's change).
    public func changed(from earlier: ConfiguredStyle) -> ConfiguredStyle {
        ConfiguredStyle(tool: tool == earlier.tool ? nil : tool, color: color == earlier.color ? nil : color,
                        width: width == earlier.width ? nil : width)
    }
}

extension StrokeColor: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = StrokeColor(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not #RRGGBB"))
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
