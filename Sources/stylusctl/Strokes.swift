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
    @Option(help: ArgumentHelp("Write the drawing as an SVG here, as `export` does (the daemon's one SVG writer): each stroke in its tool, colour and width, as the canvas draws it; the eraser erases; on the board shown, else transparent.",
                               valueName: "FILE"), completion: .file(extensions: ["svg"])) var svg: String?
    @Option(help: ArgumentHelp("The drawing's size in pixels (with --svg; each side 1-\(ExportFormat.sideRange.upperBound)). Default: the area the canvas covers, as `export`.",
                               valueName: "WIDTHxHEIGHT"))
    var size: SVGSize?
    @OptionGroup var socket: SocketOption

    func validate() throws {
        if size != nil, svg == nil { throw ValidationError("--size goes with --svg FILE") }
        if let svg, ExportFormat(path: svg) != .svg { throw ValidationError("--svg writes an SVG: name a file ending in .svg, not \"\(svg)\"") }
    }

    func run() throws {
        guard let svg else {
            var result = JSONValue.null
            try client { () throws(StylusClientError) in result = try socket.connect().send(.strokes).raw() }
            return emit(stylusctl.json(result))
        }
        try client { () throws(StylusClientError) in
            let r = try socket.connect().send(.export(path: absolutePath(svg), width: size?.width, height: size?.height)).typed(ExportResult.self)
            emit("\(svg): \(counted(r.strokeCount, "stroke")), \(r.width)×\(r.height)")
        }
    }
}

/// `--size 1920x1080`, each side within what `export` takes.
struct SVGSize: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              ExportFormat.sideRange.contains(w), ExportFormat.sideRange.contains(h) else { return nil }
        self.init(width: w, height: h)
    }
}
