// SPDX-License-Identifier: MIT
import StylusCore

/// A drawing as an SVG document, as the canvas draws it (docs/OVERLAY.md,
/// "How ink is drawn"): the unit square of the tablet stretched onto the
/// drawing's size, each stroke in its style (its colour, its width in pixels
/// of a drawing 1600 wide scaled with the drawing's width, the pen's shaped by
/// pressure). The pen is drawn segment by segment; the highlighter as one
/// translucent path with flat ends (it does not darken where it crosses
/// itself); a shape from its first point to its last (`ShapeOutline`, as on
/// the canvas). The eraser erases: the ink drawn before an eraser stroke is
/// drawn inside a `<mask>` that its path cuts, so ink drawn after it stays.
///
/// One writer for `stylusctl strokes --svg` and the daemon's `export`, so the
/// two files of one drawing are the same picture.
public struct SVGDrawing: Sendable {
    public let width: Int, height: Int
    /// Pixels per reference pixel (a drawing 1600 wide).
    var scale: Double { Double(width) / InkGeometry.referenceWidth }
    /// The ink drawn since the last eraser stroke.
    private var run = ""
    /// Each eraser stroke's run (the ink before it) and its path's lines in the mask.
    private var erased: [(ink: String, eraser: String)] = []

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A coordinate to a tenth of a pixel: finer changes nothing a viewer shows, and the file stays small.
    public static func r(_ v: Double) -> String { String((v * 10).rounded() / 10) }

    /// Adds one stroke, drawn over (or, an eraser, cutting) what came before.
    public mutating func add(style: StrokeStyle, points: [InkPoint]) {
        guard points.count > 1 else { return }
        let w = Double(width), h = Double(height)
        let pixels = points.map { PixelPoint(x: $0.x * w, y: $0.y * h) }
        let color = style.color.hex
        switch style.tool {
        case .eraser:
            let lines = segments(points, style)
            if !run.isEmpty {
                erased.append((run, lines))
                run = ""
            } else if !erased.isEmpty {
                erased[erased.count - 1].eraser += lines   // eraser after eraser: one cut
            }   // an eraser before any ink erases nothing
        case .highlighter:
            let lw = style.referenceWidth(points[0], points[points.count - 1]) * scale
            run += "<path d=\"\(Self.path([pixels], closed: false))\" stroke=\"\(color)\" stroke-opacity=\"\(StrokeStyle.highlighterOpacity)\" stroke-width=\"\(Self.r(lw))\" stroke-linecap=\"butt\"/>\n"
        case .line, .arrow, .rectangle, .ellipse:
            let lw = style.referenceWidth(points[0], points[points.count - 1]) * scale
            let attributes = "stroke=\"\(color)\" stroke-width=\"\(Self.r(lw))\""
            switch ShapeOutline.of(style.tool, from: pixels[0], to: pixels[pixels.count - 1], lineWidth: lw) {
            case .polylines(let lines, let closed):
                run += "<path d=\"\(Self.path(lines, closed: closed))\" \(attributes)/>\n"
            case .ellipse(let c, let rx, let ry):
                run += "<ellipse cx=\"\(Self.r(c.x))\" cy=\"\(Self.r(c.y))\" rx=\"\(Self.r(rx))\" ry=\"\(Self.r(ry))\" \(attributes)/>\n"
            case nil:
                break
            }
        case .pen, .laser:
            run += "<g stroke=\"\(color)\">\n" + segments(points, style) + "</g>\n"
        case .text:
            break   // its words come with `add(text:style:at:)`
        }
    }

    /// Adds a text, drawn over what came before and erased by later eraser strokes
    /// as ink is: one `<tspan>` per line, on the baselines `StrokeText` places.
    public mutating func add(text: StrokeText, style: StrokeStyle, at anchor: InkPoint) {
        let x = anchor.x * Double(width), y = anchor.y * Double(height)
        let size = text.size * scale
        run += "<text font-family=\"\(StrokeText.fontFamily)\" font-size=\"\(Self.r(size))\" fill=\"\(style.color.hex)\" stroke=\"none\" xml:space=\"preserve\">"
        for (i, line) in text.lines.enumerated() {
            run += "<tspan x=\"\(Self.r(x))\" y=\"\(Self.r(y + StrokeText.baseline(line: i, size: size)))\">\(Self.escaped(line))</tspan>"
        }
        run += "</text>\n"
    }

    /// Text as XML character data (attribute-safe too).
    static func escaped<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A line per pair of points, each as wide as the style says at their pressure.
    private func segments(_ points: [InkPoint], _ style: StrokeStyle) -> String {
        let w = Double(width), h = Double(height)
        var out = ""
        for (a, b) in zip(points, points.dropFirst()) {
            let lw = style.referenceWidth(a, b) * scale
            out += "<line x1=\"\(Self.r(a.x * w))\" y1=\"\(Self.r(a.y * h))\" x2=\"\(Self.r(b.x * w))\" y2=\"\(Self.r(b.y * h))\" stroke-width=\"\(Self.r(lw))\"/>\n"
        }
        return out
    }

    static func path(_ lines: [[PixelPoint]], closed: Bool) -> String {
        lines.map { line in
            "M" + line.map { "\(r($0.x)) \(r($0.y))" }.joined(separator: " L") + (closed ? " Z" : "")
        }.joined(separator: " ")
    }

    /// Cuts nested in one another at most this deep: XML readers refuse deep
    /// documents (libxml2, under rsvg-convert, at 256 levels), so beyond it the
    /// cuts go in blocks, each block's ink under the union of every later block's cuts.
    public static let nesting = 64

    /// The runs nested inside their masks: the first run under every eraser's
    /// cut, the last under none. `background` (a colour such as "white") is
    /// painted first and never erased; nil leaves the picture transparent
    /// where there is no ink, as the canvas is.
    public func document(background: String?) -> String {
        document(underlay: background.map { "<rect width=\"100%\" height=\"100%\" fill=\"\($0)\"/>\n" } ?? "")
    }

    /// `underlay`: SVG painted first, under every stroke and never erased (a board).
    func document(underlay: String) -> String {
        let w = width, h = height
        let blocks = stride(from: 0, to: erased.count, by: Self.nesting).map { erased[$0..<min($0 + Self.nesting, erased.count)] }
        func mask(_ id: String, _ lines: String) -> String {
            "<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\">\n"
                + "<rect width=\"\(w)\" height=\"\(h)\" fill=\"white\"/>\n"
                + "<g stroke=\"black\" stroke-linecap=\"round\" stroke-linejoin=\"round\" fill=\"none\">\n\(lines)</g>\n</mask>\n"
        }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\">\n"
        out += underlay
        if !erased.isEmpty {
            out += "<defs>\n"
            for (i, cut) in erased.enumerated() { out += mask("erase-\(i + 1)", cut.eraser) }
            for (b, block) in blocks.enumerated().dropFirst() { out += mask("erase-block-\(b + 1)", block.map(\.eraser).joined()) }
            out += "</defs>\n"
        }
        out += "<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        for b in blocks.indices.dropFirst().reversed() { out += "<g mask=\"url(#erase-block-\(b + 1))\">\n" }
        for (b, block) in blocks.enumerated() {
            for i in block.indices.reversed() { out += "<g mask=\"url(#erase-\(i + 1))\">\n" }
            for cut in block { out += cut.ink + "</g>\n" }
            if b + 1 < blocks.count { out += "</g>\n" }
        }
        return out + run + "</g>\n</svg>\n"
    }
}
