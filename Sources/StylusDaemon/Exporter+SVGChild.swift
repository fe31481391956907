// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The SVG helper, `stylusd render-svg-child`: this program run as a child of the daemon.
extension Exporter {
    /// `stylusd render-svg-child PATH WIDTHxHEIGHT [BACKGROUND]`: the strokes (`StrokeRecords`,
    /// or the JSON of `strokes`) on standard input, the SVG written to PATH through a
    /// temporary file beside it. Prints the reason and exits 1 on failure.
    public static func svgChildMain(_ arguments: [String]) -> Int32 {
        func fail(_ message: String) -> Int32 {
            _ = writeAll(STDOUT_FILENO, Array((message + "\n").utf8))
            return 1
        }
        let size = (2...3).contains(arguments.count) ? arguments[1].split(separator: "x").compactMap { Int($0) } : []
        let board = arguments.count == 3 ? CanvasBackground(name: arguments[2]) : CanvasBackground.none
        guard size.count == 2, ExportFormat.sideRange.contains(size[0]), ExportFormat.sideRange.contains(size[1]), let board else {
            return fail("usage: stylusd \(svgChildCommand) PATH WIDTHxHEIGHT [BACKGROUND] (strokes as JSON on standard input)")
        }
        let path = arguments[0]
        guard let input = try? readToEnd(STDIN_FILENO), let strokes = StrokeRecords.decode(input) else {
            return fail("cannot write \(path): the strokes on standard input are neither stylusd's stroke records nor the JSON `strokes` answers with")
        }
        let document = svg(strokes, width: size[0], height: size[1], board: board)
        do {
            try replaceFileAtomically(path, with: Array(document.utf8), temporary: temporaryPath(for: path), mode: 0o644)
        } catch {
            return fail("cannot write \(path): \(error.errno.reason)")
        }
        return 0
    }

    /// The drawing as the export's SVG: ink on the board, or on transparent where there is none, as the PNG is.
    static func svg(_ strokes: [Stroke], width: Int, height: Int, board: CanvasBackground = .none) -> String {
        var drawing = SVGDrawing(width: width, height: height)
        for stroke in strokes {
            let points = stroke.points.map { InkPoint(x: Double($0.x), y: Double($0.y), pressure: Double($0.pressure)) }
            if let text = stroke.text, let anchor = points.first {
                drawing.add(text: text, style: stroke.style, at: anchor)
            } else {
                drawing.add(style: stroke.style, points: points)
            }
        }
        return drawing.document(board: board)
    }
}
