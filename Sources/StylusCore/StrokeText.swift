// SPDX-License-Identifier: MIT
/// What a text stroke (`"tool":"text"`) says and how big it is drawn. Its
/// anchor is the stroke's one point: the top left of its first line, in the
/// space pen strokes are recorded in. Every renderer draws it with cairo's
/// toy text API in one font (`fontFamily`, normal slant and weight), so the
/// canvases and the PNG export give the same pixels; the numbers below are
/// canvas-spec.json's `text` (docs/OVERLAY.md, "The canvas spec").
public struct StrokeText: Equatable, Hashable, Sendable {
    /// The lines, joined by "\n".
    public var string: String
    /// The font's size (cairo's, the em) in reference pixels of a drawing 1600 wide.
    public var size: Double

    public init(string: String, size: Double) {
        self.string = string
        self.size = size
    }

    public static let fontFamily = "DejaVu Sans"
    /// A text drawn at the current style gets `widthFactor` × its width, within `sizeRange`.
    public static let widthFactor = 3.0
    public static let sizeRange = 8.0...192.0
    /// The most characters (Unicode scalars, the newlines counted) and lines one text holds.
    public static let maxLength = 1000
    public static let maxLines = 50
    /// The first line's baseline lies `baselineShare` × size below the anchor, and each
    /// next one `lineHeightShare` × size lower: fixed shares, so no renderer's font metrics move it.
    public static let baselineShare = 0.8
    public static let lineHeightShare = 1.25
    /// The box a text covers for the stroke eraser, estimated without a font:
    /// `advanceShare` × size per character of its longest line, `lineHeightShare` × size per line.
    public static let advanceShare = 0.6

    /// The size a text at a style of this width gets: clamp(widthFactor × width, sizeRange).
    public static func size(forWidth width: Double) -> Double {
        min(max(width * widthFactor, sizeRange.lowerBound), sizeRange.upperBound)
    }

    public var lines: [Substring] { string.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The baseline of line `index` below the anchor, in the anchor's units (reference pixels).
    public static func baseline(line index: Int, size: Double) -> Double {
        size * (baselineShare + lineHeightShare * Double(index))
    }

    /// The estimated box from the anchor: its width and height in reference pixels.
    public var extent: (width: Double, height: Double) {
        let lines = self.lines
        let longest = lines.map { $0.unicodeScalars.count }.max() ?? 0
        return (Double(longest) * size * Self.advanceShare, Double(lines.count) * size * Self.lineHeightShare)
    }

    /// Why this string cannot be a text, or nil: empty, too long, too many lines, or a
    /// control character other than the newline (a tab, a carriage return, an escape, DEL …).
    public static func problem(with string: String) -> String? {
        if string.isEmpty { return "\"text\" is empty" }
        let scalars = string.unicodeScalars
        if scalars.count > maxLength { return "\"text\" has \(scalars.count) characters; at most \(maxLength)" }
        var lines = 1
        for (i, s) in scalars.enumerated() {
            if s == "\n" {
                lines += 1
                continue
            }
            if s.value < 0x20 || (0x7f...0x9f).contains(s.value) {
                return "\"text\" holds the control character U+\(hex4(s.value)) at \(i); only the newline is allowed"
            }
        }
        if lines > maxLines { return "\"text\" has \(lines) lines; at most \(maxLines)" }
        if string.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == " " }) { return "\"text\" is only blanks" }
        return nil
    }

    private static func hex4(_ v: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).reversed().map { digits[Int(v >> (4 * UInt32($0)) & 15)] })
    }
}
