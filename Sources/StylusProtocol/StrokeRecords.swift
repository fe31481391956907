// SPDX-License-Identifier: MIT
public import StylusCore

/// The strokes as the daemon hands them to its export helpers: each stroke's
/// style and its points' x, y and pressure as the canvas keeps them (32-bit
/// floats, little-endian), behind a header line. Not JSON: encoding a canvas
/// of 100 000 points as the `strokes` answer's JSON held the daemon's loop for
/// a quarter of a second; this is a copy. The helpers also read that JSON
/// (`decode` below), for people who pipe `stylusctl strokes` into them.
public enum StrokeRecords {
    static let header = Array("stylusd strokes 2\n".utf8)
    /// Written before texts: the same without a text's words.
    static let headerV1 = Array("stylusd strokes 1\n".utf8)

    /// Per stroke: the tool's name's length and the name, the colour's three
    /// bytes, the width (a 64-bit float), the point count (32 bits), then x, y,
    /// pressure per point; a `text` stroke then its size (a 64-bit float), its
    /// words' length in bytes (32 bits) and its words in UTF-8.
    public static func encode(_ strokes: [Stroke]) -> [UInt8] {
        var bytes = header
        bytes.reserveCapacity(header.count + strokes.reduce(0) { $0 + 32 + 12 * $1.points.count })
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for stroke in strokes {
            let tool = Array(stroke.style.tool.rawValue.utf8)
            bytes.append(UInt8(tool.count))
            bytes += tool
            let c = stroke.style.color
            bytes += [c.red, c.green, c.blue]
            append(stroke.style.width.bitPattern)
            append(UInt32(stroke.points.count))
            for p in stroke.points {
                append(p.x.bitPattern)
                append(p.y.bitPattern)
                append(p.pressure.bitPattern)
            }
            if stroke.style.tool == .text {
                let text = stroke.text ?? StrokeText(string: "", size: StrokeText.size(forWidth: stroke.style.width))
                append(text.size.bitPattern)
                let words = Array(text.string.utf8)
                append(UInt32(words.count))
                bytes += words
            }
        }
        return bytes
    }

    /// The strokes from `encode`'s bytes, or from the JSON of a `strokes`
    /// answer; nil for anything else. Tilt and time are not carried: zero.
    public static func decode(_ bytes: [UInt8]) -> [Stroke]? {
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0a && $0 != 0x09 && $0 != 0x0d }) == UInt8(ascii: "{") {
            guard let result = try? ProtocolV1.decode(StrokesResult.self, from: bytes) else { return nil }
            return result.strokes.map {
                var stroke = Stroke(device: DeviceID($0.device), style: $0.style, points: $0.points.map(\.point))
                stroke.text = $0.strokeText
                return stroke
            }
        }
        let withTexts = bytes.starts(with: header)
        guard withTexts || bytes.starts(with: headerV1) else { return nil }
        var at = header.count
        func take<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard at + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[at..<at + MemoryLayout<T>.size]) }
            at += MemoryLayout<T>.size
            return T(littleEndian: value)
        }
        var strokes: [Stroke] = []
        while at < bytes.count {
            guard let nameLength = take(UInt8.self), at + Int(nameLength) + 3 <= bytes.count else { return nil }
            let name = String(decoding: bytes[at..<at + Int(nameLength)], as: UTF8.self)
            at += Int(nameLength)
            let color = StrokeColor(red: bytes[at], green: bytes[at + 1], blue: bytes[at + 2])
            at += 3
            guard let width = take(UInt64.self).map(Double.init(bitPattern:)), let count = take(UInt32.self),
                  Int(count) <= (bytes.count - at) / 12 else { return nil }
            var points: [StrokePoint] = []
            points.reserveCapacity(Int(count))
            for _ in 0..<count {
                let x = Float(bitPattern: take(UInt32.self)!), y = Float(bitPattern: take(UInt32.self)!)
                let pressure = Float(bitPattern: take(UInt32.self)!)
                points.append(StrokePoint(x: x, y: y, pressure: pressure, tiltX: 0, tiltY: 0, time: 0))
            }
            var stroke = Stroke(device: DeviceID(0), style: StrokeStyle(tool: DrawingTool(name: name), color: color, width: width), points: points)
            if withTexts, stroke.style.tool == .text {
                guard let size = take(UInt64.self).map(Double.init(bitPattern:)), let length = take(UInt32.self),
                      Int(length) <= bytes.count - at else { return nil }
                stroke.text = StrokeText(string: String(decoding: bytes[at..<at + Int(length)], as: UTF8.self), size: size)
                at += Int(length)
            }
            strokes.append(stroke)
        }
        return strokes
    }
}
