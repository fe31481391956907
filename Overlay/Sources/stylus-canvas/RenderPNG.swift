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
        let png: [UInt8]
        switch drawingPNG(strokes, width: width, height: height, board: board) {
        case .success(let bytes): png = bytes
        case .failure(let failure): return fail(failure.message)
        }
        if let reason = replaceFile(path, with: png) { return fail("cannot write \(path): \(reason)") }
        return 0
    }

    /// The strokes on `board` at that size as a PNG, drawn as `export` draws them (the canvas copies
    /// its drawing to the clipboard with this too, so a paste is the exported file); or why not.
    static func drawingPNG(_ strokes: [InkStroke], width: Int32, height: Int32, board: InkBoard) -> Result<[UInt8], ShareFailure> {
        // The finished layer is the picture: transparent but for the strokes, nothing else drawn over it.
        let ink = InkLayers(geometry: InkGeometry(width: Double(width), height: Double(height)))
        ink.keepsCheckpoint = false
        _ = ink.ensure(width: width, height: height, scale: 1)
        defer { ink.release() }
        ink.redrawFinished(strokes)
        guard var picture = ink.finished else { return .failure("cannot draw a \(width)×\(height) picture: out of memory") }
        var onBoard: OpaquePointer?
        defer { if let onBoard { cairo_surface_destroy(onBoard) } }
        if board != .none {
            // The board under the finished layer, as a frame composes them.
            ink.setBoard(board)
            onBoard = ink.makeLayer()
            let cr = cairo_create(onBoard)!
            ink.compose(onto: cr, alpha: 1, hover: [InkPoint]())
            cairo_destroy(cr)
            picture = onBoard!
        }
        cairo_surface_flush(picture)
        guard cairo_surface_status(picture) == CAIRO_STATUS_SUCCESS else {
            return .failure("cannot draw a \(width)×\(height) picture: \(String(cString: cairo_status_to_string(cairo_surface_status(picture))))")
        }
        guard let png = encode(picture) else { return .failure("cannot encode a \(width)×\(height) PNG: out of memory") }
        return .success(png)
    }

    /// `WIDTHxHEIGHT`, each side within what `export` accepts.
    static func sides(_ size: String) -> (Int32, Int32)? {
        let sides = size.lowercased().split(separator: "x").compactMap { Int32($0) }
        guard sides.count == 2, sides.allSatisfy({ ExportFormat.sideRange.contains(Int($0)) }) else { return nil }
        return (sides[0], sides[1])
    }

    /// The picture as a PNG (8-bit RGBA, no filter, zlib's fastest level). Not
    /// cairo's writer: libpng's filter search and its default level were most
    /// of an export's time (55 of 80 ms for a blank 1920×1080). Cairo keeps
    /// its pixels premultiplied; PNG wants them straight, rounded as cairo's
    /// own writer rounds them, so the colours are the ones it would write.
    static func encode(_ picture: OpaquePointer?) -> [UInt8]? {
        let width = Int(cairo_image_surface_get_width(picture)), height = Int(cairo_image_surface_get_height(picture))
        let stride = Int(cairo_image_surface_get_stride(picture))
        guard let data = cairo_image_surface_get_data(picture) else { return nil }
        var raw = [UInt8](repeating: 0, count: height * (1 + 4 * width))
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * (1 + 4 * width) + 1   // the row's filter byte stays 0: none
                for x in 0..<width {
                    let argb = row[x]
                    let a = argb >> 24
                    if a != 0 {
                        func straight(_ c: UInt32) -> UInt8 { UInt8((c * 255 + a / 2) / a) }
                        out[o] = straight((argb >> 16) & 0xff)
                        out[o + 1] = straight((argb >> 8) & 0xff)
                        out[o + 2] = straight(argb & 0xff)
                        out[o + 3] = UInt8(a)
                    }
                    o += 4
                }
            }
        }
        var packedLength = compressBound(uLong(raw.count))
        var packed = [UInt8](repeating: 0, count: Int(packedLength))
        guard compress2(&packed, &packedLength, raw, uLong(raw.count), 1) == Z_OK else { return nil }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let tagged = Array(type.utf8) + body
            let crc = UInt32(crc32(0, tagged, uInt(tagged.count)))
            return bigEndian(UInt32(body.count)) + tagged + bigEndian(crc)
        }
        func bigEndian(_ n: UInt32) -> [UInt8] { [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]   // 8 bits, RGBA, deflate, no filter method, no interlace
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header)
            + chunk("IDAT", Array(packed[0..<Int(packedLength)])) + chunk("IEND", [])
    }

    /// The strokes on standard input as the canvas draws them; nil when they are neither format.
    static func standardInputStrokes() -> [InkStroke]? {
        StrokeRecords.decode(readStandardInput())?.map { stroke in
            InkStroke(device: stroke.device.rawValue, style: stroke.style, points: stroke.points.map {
                InkPoint(x: Double($0.x), y: Double($0.y), pressure: Double($0.pressure))
            })
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
