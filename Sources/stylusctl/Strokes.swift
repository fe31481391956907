// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import CanvasModel
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

struct Strokes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.strokes.summary)
    @Option(help: "Write an SVG drawing here: each stroke in its tool, colour and width, as the canvas draws it; the eraser erases.", completion: .file(extensions: ["svg"])) var svg: String?
    @Option(help: ArgumentHelp("The drawing's size in pixels, as the screen the canvas covers (the canvas maps the tablet onto the whole screen).",
                               valueName: "WIDTHxHEIGHT"))
    var size: SVGSize = .init(width: 1920, height: 1080)
    @OptionGroup var socket: SocketOption

    func run() throws {
        var result = JSONValue.null
        try client { () throws(StylusClientError) in
            // The JSON as sent: the points' decimal text is what the SVG's coordinates are computed from.
            result = try socket.connect().send(.strokes).raw()
        }
        guard let svg else { return emit(stylusctl.json(result)) }
        let document = Self.svg(result["strokes"]?.array ?? [], size: size)
        let fd = open(svg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let bytes = Array(document.utf8)
        guard fd >= 0, bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            printError("stylusctl: \(svg): \(String(cString: strerror(errno)))")
            if fd >= 0 { close(fd) }
            throw ExitCode(1)
        }
        close(fd)
        emit("\(svg): \(counted(result["strokes"]?.array.count ?? 0, "stroke")), \(size.width)×\(size.height)")
    }

    /// The drawing as the canvas draws it (docs/OVERLAY.md, "How ink is drawn"):
    /// the unit square of the tablet stretched onto `size`, each stroke in its
    /// style (StrokeStyle: its colour, its width in pixels of a drawing 1600 wide
    /// scaled with the drawing's width, the pen's shaped by pressure; a daemon
    /// before styles sends neither, its strokes are red at width 8). The pen is
    /// drawn segment by segment; the highlighter as one translucent path with flat
    /// ends (it does not darken where it crosses itself); a shape from its first
    /// point to its last (CanvasModel's ShapeOutline, as on the canvas). The
    /// eraser erases: the ink drawn before an eraser stroke is drawn inside a
    /// `<mask>` that its path cuts, so ink drawn after it stays; the white
    /// background is never erased.
    static func svg(_ strokes: [JSONValue], size: SVGSize) -> String {
        var drawing = SVGDrawing(width: Double(size.width), height: Double(size.height))
        for stroke in strokes { drawing.add(stroke) }
        return drawing.document(size: size)
    }
}

/// `stylusctl strokes --svg`'s document, stroke after stroke: ink in runs, each
/// run but the last cut by the eraser strokes that follow it.
struct SVGDrawing {
    let width: Double, height: Double
    /// Pixels per reference pixel (a drawing 1600 wide).
    var scale: Double { width / 1600 }
    /// The ink drawn since the last eraser stroke.
    private var run = ""
    /// Each eraser stroke's run (the ink before it) and its path's lines in the mask.
    private var erased: [(ink: String, eraser: String)] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static func r(_ v: Double) -> String { String((v * 10).rounded() / 10) }

    mutating func add(_ stroke: JSONValue) {
        let points = stroke["points"]?.array.map { $0.array.compactMap(\.number) }.filter { $0.count >= 3 } ?? []
        guard points.count > 1 else { return }
        let style = StrokeStyle(tool: DrawingTool(name: stroke["tool"]?.string ?? "pen"),
                                color: stroke["color"]?.string.flatMap(StrokeColor.init(hex:)) ?? .red,
                                width: stroke["width"]?.number ?? StrokeStyle.defaultWidth)
        let pixels = points.map { PixelPoint(x: $0[0] * width, y: $0[1] * height) }
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
            let w = style.referenceWidth(pressure: points[0][2], points[points.count - 1][2]) * scale
            run += "<path d=\"\(Self.path([pixels], closed: false))\" stroke=\"\(color)\" stroke-opacity=\"\(StrokeStyle.highlighterOpacity)\" stroke-width=\"\(Self.r(w))\" stroke-linecap=\"butt\"/>\n"
        case .line, .arrow, .rectangle, .ellipse:
            let w = style.referenceWidth(pressure: points[0][2], points[points.count - 1][2]) * scale
            let attributes = "stroke=\"\(color)\" stroke-width=\"\(Self.r(w))\""
            switch ShapeOutline.of(style.tool, from: pixels[0], to: pixels[pixels.count - 1], lineWidth: w) {
            case .polylines(let lines, let closed):
                run += "<path d=\"\(Self.path(lines, closed: closed))\" \(attributes)/>\n"
            case .ellipse(let c, let rx, let ry):
                run += "<ellipse cx=\"\(Self.r(c.x))\" cy=\"\(Self.r(c.y))\" rx=\"\(Self.r(rx))\" ry=\"\(Self.r(ry))\" \(attributes)/>\n"
            case nil:
                break
            }
        case .pen, .laser:
            run += "<g stroke=\"\(color)\">\n" + segments(points, style) + "</g>\n"
        }
    }

    /// A line per pair of points, each as wide as the style says at their pressure.
    private func segments(_ points: [[Double]], _ style: StrokeStyle) -> String {
        var out = ""
        for (a, b) in zip(points, points.dropFirst()) {
            let w = style.referenceWidth(pressure: a[2], b[2]) * scale
            out += "<line x1=\"\(Self.r(a[0] * width))\" y1=\"\(Self.r(a[1] * height))\" x2=\"\(Self.r(b[0] * width))\" y2=\"\(Self.r(b[1] * height))\" stroke-width=\"\(Self.r(w))\"/>\n"
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
    static let nesting = 64

    /// The runs nested inside their masks: the first run under every eraser's cut,
    /// the last under none.
    func document(size: SVGSize) -> String {
        let w = size.width, h = size.height
        let blocks = stride(from: 0, to: erased.count, by: Self.nesting).map { erased[$0..<min($0 + Self.nesting, erased.count)] }
        func mask(_ id: String, _ lines: String) -> String {
            "<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\">\n"
                + "<rect width=\"\(w)\" height=\"\(h)\" fill=\"white\"/>\n"
                + "<g stroke=\"black\" stroke-linecap=\"round\" stroke-linejoin=\"round\" fill=\"none\">\n\(lines)</g>\n</mask>\n"
        }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
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

/// `--size 1920x1080`.
struct SVGSize: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...100_000).contains(w), (1...100_000).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}
