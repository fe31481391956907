// SPDX-License-Identifier: MIT
public import StylusCore

/// The strokes as the daemon hands them to its export helpers: each stroke's
/// style and its points' x, y and pressure as the canvas keeps them (32-bit
/// floats, little-endian), behind a header line. Not JSON: encoding a canvas
/// of 100 000 points as the `strokes` answer's JSON held the daemon's loop for
/// a quarter of a second; this is a copy. The helpers also read that JSON
/// (`decode` below), for people who pipe `stylusctl strokes` into them.
public enum StrokeRecords {
    static let header = Array("stylusd strokes 1\n".utf8)

    /// Per stroke: the tool's name's length and the name, the colour's three
    /// bytes, the width (a 64-bit float), the point count (32 bits), then x, y,
    /// pressure per point.
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
        }
        return bytes
    }

    /// The strokes from `encode`'s bytes, or from the JSON of a `strokes`
    /// answer; nil for anything else. Tilt and time are not carried: zero.
    public static func decode(_ bytes: [UInt8]) -> [Stroke]? {
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0a && $0 != 0x09 && $0 != 0x0d }) == UInt8(ascii: "{") {
            guard let result = try? ProtocolV1.decode(StrokesResult.self, from: bytes) else { return nil }
            return result.strokes.map { Stroke(device: DeviceID($0.device), style: $0.style, points: $0.points.map(\.point)) }
        }
        guard bytes.starts(with: header) else { return nil }
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
            strokes.append(Stroke(device: DeviceID(0), style: StrokeStyle(tool: DrawingTool(name: name), color: color, width: width), points: points))
        }
        return strokes
    }
}
