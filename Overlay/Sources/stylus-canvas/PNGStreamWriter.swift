// SPDX-License-Identifier: MIT
import CGlib
#if canImport(Glibc)
import Glibc
#endif

/// A PNG written as its rows arrive (8-bit RGBA, no filter, zlib's fastest
/// level), to a temporary file beside the target that is renamed into place
/// only when whole (a full disk or a crash never leaves half a picture under
/// the name), or into memory (`bytes`: the clipboard's and a snapshot's). Not cairo's writer: libpng's filter search and its default level
/// were most of an export's time (55 of 80 ms for a blank 1920×1080), and it
/// needs the whole picture at once. Cairo keeps its pixels premultiplied; PNG
/// wants them straight, rounded as cairo's own writer rounds them, so the
/// colours are the ones it would write.
final class PNGStreamWriter {
    let path: String?
    private let temporary: String?
    /// The PNG so far, when it goes to memory.
    private(set) var bytes: [UInt8] = []
    private let width: Int
    private var fd: Int32
    private var stream = z_stream()
    private var failure: String?
    /// The compressed bytes not yet written, flushed as one IDAT chunk when full.
    private var pending: [UInt8] = []
    private static let chunkBytes = 1 << 18

    /// The temporary file's name is the daemon's (`Exporter.temporaryPath`):
    /// the daemon removes it if it has to stop a renderer half way.
    init?(path: String, width: Int, height: Int) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder)/.\(name).stylusd-partial"
        self.temporary = temporary
        self.width = width
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        guard deflateInit_(&stream, 1, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            close(fd)
            unlink(temporary)
            return nil
        }
        start(width: width, height: height)
    }

    /// A PNG in memory; a failure to start the encoder shows at `finish`.
    init(width: Int, height: Int) {
        path = nil
        temporary = nil
        self.width = width
        fd = -1
        if deflateInit_(&stream, 1, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) != Z_OK { failure = "the encoder failed" }
        start(width: width, height: height)
    }

    private func start(width: Int, height: Int) {
        let header = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]   // 8 bits, RGBA, deflate, no filter method, no interlace
        write([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Self.chunk("IHDR", header))
    }

    deinit {
        deflateEnd(&stream)
        abandon()
    }

    /// Appends `rows` rows of `surface` (a cairo ARGB32 image as wide as the picture), from row `skippingRows`.
    func append(_ surface: OpaquePointer, skippingRows first: Int, rows: Int) -> Bool {
        guard let data = cairo_image_surface_get_data(surface) else { return false }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var row = [UInt8](repeating: 0, count: 1 + 4 * width)   // the filter byte stays 0: none
        for y in first..<first + rows {
            let pixels = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            row.withUnsafeMutableBufferPointer { out in
                var o = 1
                for x in 0..<width {
                    let argb = pixels[x]
                    let a = argb >> 24
                    if a != 0 {
                        func straight(_ c: UInt32) -> UInt8 { UInt8((c * 255 + a / 2) / a) }
                        out[o] = straight((argb >> 16) & 0xff)
                        out[o + 1] = straight((argb >> 8) & 0xff)
                        out[o + 2] = straight(argb & 0xff)
                        out[o + 3] = UInt8(a)
                    } else {
                        out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0
                    }
                    o += 4
                }
            }
            guard deflate(row, flush: Z_NO_FLUSH) else { return false }
        }
        return true
    }

    /// Ends the picture and puts it in place; the reason when it could not.
    func finish() -> String? {
        guard deflate([], flush: Z_FINISH) else { return failure ?? "the encoder failed" }
        flushChunk()
        write(Self.chunk("IEND", []))
        guard let path, let temporary else { return failure }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        fd = -1
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Stops without a picture: the temporary file goes.
    func abandon() {
        guard fd >= 0, let temporary else { return }
        close(fd)
        fd = -1
        unlink(temporary)
    }

    private func deflate(_ input: [UInt8], flush: Int32) -> Bool {
        var output = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return CGlib.deflate(&stream, flush)
                }
                let produced = output.count - Int(stream.avail_out)
                pending += output[0..<produced]
                if pending.count >= Self.chunkBytes { flushChunk() }
                if status == Z_STREAM_END { return failure == nil }
                guard status == Z_OK || status == Z_BUF_ERROR else { return false }
                // Done with this input once zlib has taken all of it and had room to spare.
                if stream.avail_in == 0, stream.avail_out != 0, flush != Z_FINISH { return failure == nil }
            }
        }
    }

    private func flushChunk() {
        guard !pending.isEmpty else { return }
        write(Self.chunk("IDAT", pending))
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        guard path != nil else {
            self.bytes += bytes
            return
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                failure = String(cString: strerror(n < 0 ? errno : EIO))
                return
            }
            written += n
        }
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let tagged = Array(type.utf8) + body
        let crc = UInt32(crc32(0, tagged, uInt(tagged.count)))
        return bigEndian(UInt32(body.count)) + tagged + bigEndian(crc)
    }

    private static func bigEndian(_ n: UInt32) -> [UInt8] { [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] }
}
