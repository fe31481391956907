// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `stylus-canvas --render-png PATH --size WIDTHxHEIGHT [--background BOARD]`: the daemon's PNG
/// export. The strokes (`StrokeRecords` from the daemon, or the JSON
/// `strokes` answers with) come on standard input; they are drawn by `InkLayers`, the renderer the canvas shows them
/// with, onto a transparent picture of that size, which goes to PATH through
/// a temporary file beside it (a full disk or a crash never leaves half a
/// picture under that name). Cairo and zlib only: no display. On
/// failure the reason is the one line on standard output (the daemon answers
/// with it) and the exit status is 1.
@MainActor
enum RenderPNG {
    static func run(path: String, size: String, background: String? = nil) -> Int32 {
        func fail(_ message: String) -> Int32 {
            let line = Array((message + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            return 1
        }
        guard let (width, height) = sides(size) else {
            return fail("--size takes WIDTHxHEIGHT, each \(ExportFormat.sideRange.lowerBound)-\(ExportFormat.sideRange.upperBound), not \"\(size)\"")
        }
        guard let board = background.map(InkBoard.init(name:)) ?? InkBoard.none else {
            return fail("--background takes \(InkBoard.spellings), not \"\(background ?? "")\"")
        }
        guard let strokes = standardInputStrokes() else {
            return fail("cannot write \(path): the strokes on standard input are neither stylusd's stroke records nor the JSON `strokes` answers with")
        }
        // In bands of rows, each drawn and encoded before the next: an 8192 × 8192 picture (256 MiB
        // of pixels) never exists whole, so memory stays near one band's layers whatever the size.
        guard let writer = PNGStreamWriter(path: path, width: Int(width), height: Int(height)) else {
            return fail("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if let failure = drawBands(strokes, width: width, height: height, board: board, into: writer) {
            writer.abandon()
            return fail(failure.message)
        }
        if let reason = writer.finish() { return fail("cannot write \(path): \(reason)") }
        return 0
    }

    /// The strokes on `board` at that size as a PNG, drawn as `export` draws them (the canvas copies
    /// its drawing to the clipboard with this too, so a paste is the exported file); or why not.
    static func drawingPNG(_ strokes: [InkStroke], width: Int32, height: Int32, board: InkBoard) -> Result<[UInt8], ShareFailure> {
        let writer = PNGStreamWriter(width: Int(width), height: Int(height))
        if let failure = drawBands(strokes, width: width, height: height, board: board, into: writer) { return .failure(failure) }
        guard writer.finish() == nil else { return .failure("cannot encode a \(width)×\(height) PNG: out of memory") }
        return .success(writer.bytes)
    }

    /// Draws the picture band by band into `writer`; why it could not, or nil.
    private static func drawBands(_ strokes: [InkStroke], width: Int32, height: Int32, board: InkBoard, into writer: PNGStreamWriter) -> ShareFailure? {
        let rows = bandRows(width: Int(width))
        var top = 0
        while top < Int(height) {
            let bottom = min(top + rows, Int(height))
            guard let band = drawBand(strokes, board: board, width: width, height: height, top: top, rows: bottom - top) else {
                return "cannot draw a \(width)×\(height) picture: out of memory"
            }
            let written = writer.append(band, skippingRows: margin, rows: bottom - top)
            cairo_surface_destroy(band)
            guard written else { return "cannot encode a \(width)×\(height) PNG: out of memory" }
            top = bottom
        }
        return nil
    }

    /// Rows a band holds: about 16 MiB of pixels, never fewer than 64 rows.
    static func bandRows(width: Int) -> Int { max(64, (16 << 20) / (4 * max(width, 1))) }

    /// Rows drawn above and below a band and not encoded: a grid line or a stroke's
    /// antialiased edge that crosses the band's border is drawn whole on both sides.
    static let margin = 8

    /// Rows `top..<top+rows` of the picture (with `margin` rows above and, but at the end, below), as the finished
    /// layer over the board: the picture's geometry moved up by `top`, so every stroke lands where
    /// it would on the whole picture.
    private static func drawBand(_ strokes: [InkStroke], board: InkBoard, width: Int32, height: Int32, top: Int, rows: Int) -> OpaquePointer? {
        let ink = InkLayers(geometry: InkGeometry(width: Double(width), height: Double(height), originY: Double(top - margin)))
        ink.keepsCheckpoint = false
        // No margin below the picture's last row: the board's lines are the ones a picture of that height has.
        let below = min(margin, Int(height) - top - rows)
        _ = ink.ensure(width: width, height: Int32(margin + rows + below), scale: 1)
        defer { ink.release() }
        ink.redrawFinished(strokes)
        guard let finished = ink.finished else { return nil }
        // The board under the finished layer, as a frame composes them; without one the layer is the picture.
        ink.setBoard(board)
        guard let picture = ink.makeLayer() else { return nil }
        let cr = cairo_create(picture)!
        ink.compose(onto: cr, alpha: 1, hover: [InkPoint]())
        cairo_destroy(cr)
        cairo_surface_flush(picture)
        guard cairo_surface_status(picture) == CAIRO_STATUS_SUCCESS, cairo_surface_status(finished) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(picture)
            return nil
        }
        return picture
    }

    /// `WIDTHxHEIGHT`, each side within what `export` accepts.
    static func sides(_ size: String) -> (Int32, Int32)? {
        let sides = size.lowercased().split(separator: "x").compactMap { Int32($0) }
        guard sides.count == 2, sides.allSatisfy({ ExportFormat.sideRange.contains(Int($0)) }) else { return nil }
        return (sides[0], sides[1])
    }

    /// A cairo ARGB32 image (a snapshot of the screen) as a PNG, encoded as exports are (`PNGStreamWriter`).
    static func encode(_ picture: OpaquePointer?) -> [UInt8]? {
        guard let picture else { return nil }
        let width = Int(cairo_image_surface_get_width(picture)), height = Int(cairo_image_surface_get_height(picture))
        let writer = PNGStreamWriter(width: width, height: height)
        guard writer.append(picture, skippingRows: 0, rows: height), writer.finish() == nil else { return nil }
        return writer.bytes
    }

    /// The strokes on standard input as the canvas draws them; nil when they are neither format.
    static func standardInputStrokes() -> [InkStroke]? {
        StrokeRecords.decode(readStandardInput())?.map { stroke in
            InkStroke(device: stroke.device.rawValue, style: stroke.style, points: stroke.points.map {
                InkPoint(x: Double($0.x), y: Double($0.y), pressure: Double($0.pressure))
            }, text: stroke.text)
        }
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// The temporary file's name is the daemon's (`Exporter.temporaryPath`):
    /// the daemon removes it if it has to stop a renderer half way.
    static func replaceFile(_ path: String, with bytes: [UInt8]) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder)/.\(name).stylusd-partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                failure = String(cString: strerror(n < 0 ? errno : EIO))
                break
            }
            written += n
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            return failure
        }
        return nil
    }
}
