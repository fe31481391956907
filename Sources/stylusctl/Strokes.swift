// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
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
    @Option(help: "Write an SVG drawing here; each segment is as wide as its pressure.", completion: .file(extensions: ["svg"])) var svg: String?
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

    /// How a tool's strokes look. Unlike the canvas, which erases under an
    /// eraser's path (docs/OVERLAY.md), the SVG draws an eraser's strokes as a
    /// pale translucent band (blue, on the drawing's white), so that none of
    /// the ink is lost from the file; an airbrush's are a translucent grey,
    /// told apart from the black ink of every other tool.
    static func style(tool: String) -> String {
        switch tool {
        case "eraser": " stroke=\"#8fb8de\" stroke-opacity=\"0.6\""
        case "airbrush": " stroke=\"#555\" stroke-opacity=\"0.5\""
        default: ""
        }
    }

    /// The unit square of the tablet stretched onto `size`, as the canvas
    /// shows it on a screen of that size; widths 0.5–8 by pressure at 1600
    /// wide, scaled with the width as the canvas scales them.
    static func svg(_ strokes: [JSONValue], size: SVGSize) -> String {
        let width = Double(size.width), height = Double(size.height), scale = width / 1600
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size.width) \(size.height)\" width=\"\(size.width)\" height=\"\(size.height)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g stroke=\"black\" stroke-linecap=\"round\" fill=\"none\">\n"
        func r(_ v: Double) -> String { String((v * 10).rounded() / 10) }
        for stroke in strokes {
            let points = stroke["points"]?.array.map { $0.array.compactMap(\.number) } ?? []
            let style = Self.style(tool: stroke["tool"]?.string ?? "pen")
            for (a, b) in zip(points, points.dropFirst()) where a.count >= 3 && b.count >= 3 {
                let w = (0.5 + 7.5 * max(0, min(1, (a[2] + b[2]) / 2))) * scale
                out += "<line x1=\"\(r(a[0] * width))\" y1=\"\(r(a[1] * height))\" x2=\"\(r(b[0] * width))\" y2=\"\(r(b[1] * height))\" stroke-width=\"\(r(w))\"\(style)/>\n"
            }
        }
        return out + "</g>\n</svg>\n"
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
