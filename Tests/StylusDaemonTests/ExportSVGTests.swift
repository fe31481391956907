// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import StylusProtocol
import Glibc
import Testing
@testable import StylusDaemon
import CanvasModel

@Suite("export's SVG, which stylusctl strokes --svg writes too")
struct ExportSVGTests {
    struct Size { let width: Int, height: Int }
    typealias SVGSize = Size

    /// The strokes as `strokes` answers with them, drawn by the export's writer.
    static func svg(_ strokes: [JSONValue], size: Size) -> String {
        let answer = JSONValue.object(["canvas": .string("open"), "strokes": .array(strokes)])
        guard let bytes = try? JSONEncoder().encode(answer), let decoded = StrokeRecords.decode(Array(bytes)) else { return "undecodable" }
        return Exporter.svg(decoded, width: size.width, height: size.height)
    }

    static func stroke(_ tool: String, _ points: [[Double]]) -> JSONValue {
        .object(["device": .number(1), "tool": .string(tool), "points": .array(points.map { .array($0.map(JSONValue.number)) })])
    }

    @Test func theDrawingHasTheScreensSizeSoA169ScreenIsNotStretched() throws {
        let svg = Self.svg([Self.stroke("pen", [[0.5, 0.5, 1, 0, 0, 1], [1, 1, 1, 0, 0, 2]])], size: SVGSize(width: 1920, height: 1080))
        #expect(svg.hasPrefix(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1920 1080" width="1920" height="1080">"##))
        #expect(svg.contains(##"<line x1="960.0" y1="540.0" x2="1920.0" y2="1080.0" stroke-width="9.6"/>"##),
                "full pressure is 8 at 1600 wide, scaled with the width as the canvas scales it: \(svg)")
    }

    static func styled(_ tool: String, _ color: String, _ width: Double, _ points: [[Double]]) -> JSONValue {
        .object(["device": .number(1), "tool": .string(tool), "color": .string(color), "width": .number(width),
                 "points": .array(points.map { .array($0.map(JSONValue.number)) })])
    }

    static func lines(_ svg: String, _ prefix: String) -> [Substring] { svg.split(separator: "\n").filter { $0.hasPrefix(prefix) } }

    @Test func eachStrokeHasItsColourAndWidthAndAnOlderDaemonsAreRedAtWidth8() {
        let svg = Self.svg([Self.styled("pen", "#3465a4", 16, [[0, 0, 1, 0, 0, 1], [1, 0, 0, 0, 0, 2]]),
                               Self.stroke("airbrush", [[0, 1, 1, 0, 0, 3], [1, 1, 1, 0, 0, 4]])], size: SVGSize(width: 1600, height: 100))
        let groups = Self.lines(svg, "<g stroke=")
        #expect(groups == [##"<g stroke="#3465a4">"##, ##"<g stroke="#d61a1c">"##], "\(svg)")
        let widths = Self.lines(svg, "<line").map { $0.split(separator: "stroke-width=").last ?? "" }
        // Width 16 at mean pressure 0.5: 16 · (1 + 7.5) / 16; a pen's own tool from a daemon before styles: the red pen at 8.
        #expect(widths == [#""8.5"/>"#, #""8.0"/>"#], "\(svg)")
        #expect(!svg.contains("mask"), "no eraser, no mask")
    }

    @Test func theHighlighterIsOneTranslucentFlatEndedPathThreeTimesAsWide() {
        let svg = Self.svg([Self.styled("highlighter", "#edd400", 10, [[0, 0, 0.1, 0, 0, 1], [0.5, 0, 1, 0, 0, 2], [0.5, 1, 0.3, 0, 0, 3]])],
                              size: SVGSize(width: 800, height: 100))
        #expect(Self.lines(svg, "<path") == [##"<path d="M0.0 0.0 L400.0 0.0 L400.0 100.0" stroke="#edd400" stroke-opacity="0.35" stroke-width="15.0" stroke-linecap="butt"/>"##],
                "one path, 3 × 10 at 1600 wide is 15 at 800, whatever the pressure: \(svg)")
        #expect(Self.lines(svg, "<line").isEmpty)
    }

    @Test func shapesGoFromTheFirstPointToTheLastAtHalfTheWidth() throws {
        let points: [[Double]] = [[0.1, 0.2, 1, 0, 0, 1], [0.9, 0.9, 0.2, 0, 0, 2], [0.5, 0.6, 0.5, 0, 0, 3]]
        let size = SVGSize(width: 1600, height: 1000)
        let line = Self.svg([Self.styled("line", "#000000", 8, points)], size: size)
        #expect(Self.lines(line, "<path") == [##"<path d="M160.0 200.0 L800.0 600.0" stroke="#000000" stroke-width="4.0"/>"##], "\(line)")
        let rectangle = Self.svg([Self.styled("rectangle", "#000000", 8, points)], size: size)
        #expect(Self.lines(rectangle, "<path") == [##"<path d="M160.0 200.0 L800.0 200.0 L800.0 600.0 L160.0 600.0 Z" stroke="#000000" stroke-width="4.0"/>"##])
        let ellipse = Self.svg([Self.styled("ellipse", "#4e9a06", 20, points)], size: size)
        #expect(Self.lines(ellipse, "<ellipse") == [##"<ellipse cx="480.0" cy="400.0" rx="320.0" ry="200.0" stroke="#4e9a06" stroke-width="10.0"/>"##])
        // The arrow: the shaft, then a head of min(max(12, 4 · 4), length / 2) = 16 px, its wings 0.5 rad either side of the shaft.
        let arrow = Self.svg([Self.styled("arrow", "#000000", 8, [[0, 0, 1, 0, 0, 1], [0.5, 0, 1, 0, 0, 2]])], size: size)
        let wingX = SVGDrawing.r(800 - 16 * cos(0.5)), wingY = SVGDrawing.r(16 * sin(0.5))
        #expect(Self.lines(arrow, "<path") == ["<path d=\"M0.0 0.0 L800.0 0.0 M\(wingX) -\(wingY) L800.0 0.0 L\(wingX) \(wingY)\" stroke=\"#000000\" stroke-width=\"4.0\"/>"],
                "\(arrow)")
        let short = Self.svg([Self.styled("arrow", "#000000", 8, [[0, 0, 1, 0, 0, 1], [0.01, 0, 1, 0, 0, 2]])], size: size)
        #expect(short.contains("M8.0 0.0 L16.0 0.0") == false && short.contains("L16.0 0.0 L"), "a head at most half the arrow (8 px of 16): \(short)")
    }

    @Test func theEraserCutsTheInkDrawnBeforeItAndNotTheInkAfter() {
        let pen = [[0.0, 0.5, 1, 0, 0, 1], [1, 0.5, 1, 0, 0, 2]]
        let eraser = [[0.5, 0, 1, 0, 0, 3], [0.5, 1, 1, 0, 0, 4]]
        let svg = Self.svg([Self.styled("pen", "#000000", 8, pen), Self.styled("eraser", "#d61a1c", 8, eraser),
                               Self.styled("highlighter", "#edd400", 8, pen), Self.styled("eraser", "#d61a1c", 4, eraser),
                               Self.styled("eraser", "#d61a1c", 4, eraser), Self.styled("pen", "#3465a4", 8, pen)],
                              size: SVGSize(width: 1600, height: 100))
        let body = svg.split(separator: "\n").map(String.init)
        // Two cuts (the two erasers in a row are one); the first pen under both, the highlighter under the second, the last pen under none.
        #expect(body.filter { $0.hasPrefix("<mask") }.count == 2, "\(svg)")
        guard let outer = body.firstIndex(of: ##"<g mask="url(#erase-2)">"##), let inner = body.firstIndex(of: ##"<g mask="url(#erase-1)">"##),
              let black = body.firstIndex(of: ##"<g stroke="#000000">"##), let yellow = body.firstIndex(where: { $0.contains("#edd400") }),
              let blue = body.firstIndex(of: ##"<g stroke="#3465a4">"##) else { Issue.record("\(svg)"); return }
        #expect(outer < inner && inner < black && black < yellow && yellow < blue)
        #expect(body[(black + 1)...].firstIndex(of: "</g>").map { body[$0 + 1] } == "</g>", "the black pen's group, then the first cut's")
        #expect(body[yellow + 1] == "</g>", "the highlighter, then the second cut's group closes")
        // The masks: white everywhere but the eraser's path, three times the pen's width (24, then 12 twice).
        let masks = svg.components(separatedBy: "<mask").dropFirst().map { $0.components(separatedBy: "</mask>")[0] }
        #expect(masks.first?.contains(##"<rect width="1600" height="100" fill="white"/>"##) == true)
        #expect(masks.map { $0.components(separatedBy: "<line").count - 1 } == [1, 2])
        #expect(masks.first?.contains(##"<line x1="800.0" y1="0.0" x2="800.0" y2="100.0" stroke-width="24.0"/>"##) == true, "\(svg)")
        #expect(masks.last?.contains(#"stroke-width="12.0""#) == true)
        #expect(!svg.contains("#d61a1c"), "an eraser has no ink of its own")
    }

    @Test func hundredsOfErasersNestNoDeeperThanXMLReadersAllow() {
        var strokes: [JSONValue] = []
        for k in 0..<300 {
            let y = Double(k) / 300
            strokes.append(Self.styled("pen", "#000000", 8, [[0, y, 1, 0, 0, 1], [1, y, 1, 0, 0, 2]]))
            strokes.append(Self.styled("eraser", "#000000", 8, [[Double(k) / 300, 0, 1, 0, 0, 3], [Double(k) / 300, 1, 1, 0, 0, 4]]))
        }
        let svg = Self.svg(strokes, size: SVGSize(width: 300, height: 300))
        var depth = 0, deepest = 0
        for line in svg.split(separator: "\n") {
            if line.hasPrefix("<g ") || line == "<g>" { depth += 1 }
            if line == "</g>" { depth -= 1 }
            deepest = max(deepest, depth)
        }
        #expect(depth == 0)
        #expect(deepest <= 250 && deepest >= SVGDrawing.nesting, "\(deepest) levels")
        // Every pen line's group is cut by its own eraser and every later one: 300 cuts, and a union per later block of 64.
        #expect(svg.components(separatedBy: "<mask id=\"erase-").count - 1 == 300 + 4)
        #expect(svg.components(separatedBy: "<mask id=\"erase-block-").count - 1 == 4)
        #expect(svg.components(separatedBy: "<g mask=").count - 1 == 304)
    }

    @Test func anEraserBeforeAnyInkErasesNothing() {
        let svg = Self.svg([Self.styled("eraser", "#d61a1c", 8, [[0, 0, 1, 0, 0, 1], [1, 1, 1, 0, 0, 2]]),
                               Self.styled("pen", "#000000", 8, [[0, 1, 1, 0, 0, 3], [1, 0, 1, 0, 0, 4]])], size: SVGSize(width: 100, height: 100))
        #expect(!svg.contains("mask"), "\(svg)")
        #expect(Self.lines(svg, "<line").count == 1)
    }
}
