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

    /// The drawing as the canvas draws it, through the one SVG writer
    /// (CanvasModel's `SVGDrawing`, which the daemon's `export` uses too) on a
    /// white background. The points are the JSON's as sent; a daemon before
    /// styles sends neither colour nor width, its strokes are red at width 8.
    static func svg(_ strokes: [JSONValue], size: SVGSize) -> String {
        var drawing = SVGDrawing(width: size.width, height: size.height)
        for stroke in strokes {
            let points = stroke["points"]?.array.map { $0.array.compactMap(\.number) }.filter { $0.count >= 3 } ?? []
            let style = StrokeStyle(tool: DrawingTool(name: stroke["tool"]?.string ?? "pen"),
                                    color: stroke["color"]?.string.flatMap(StrokeColor.init(hex:)) ?? .red,
                                    width: stroke["width"]?.number ?? StrokeStyle.defaultWidth)
            drawing.add(style: style, points: points.map { InkPoint(x: $0[0], y: $0[1], pressure: $0[2]) })
        }
        return drawing.document(background: "white")
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
