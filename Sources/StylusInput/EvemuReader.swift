// SPDX-License-Identifier: MIT
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// A recording that could not be read, naming where and what.
public struct RecordingError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Reads evemu-record's text format (versions 1.1 to 1.3): a header of
/// `N:`, `I:`, `P:`, `B:` and `A:` lines describing the device, then `E:`
/// lines `E: <sec>.<usec> <type hex> <code hex> <value>`, `#` comments
/// anywhere. Works on bytes; one pass, nothing per event is allocated.
public enum EvemuReader {
    /// Reads a description-only file (a `.desc`, or a recording whose events are ignored).
    public static func description(of bytes: [UInt8], file: String) throws(RecordingError) -> DeviceDescription {
        var found: DeviceDescription?
        try read(bytes, file: file, description: nil, stopAtFirstEvent: true, onStart: { found = $0 }, onEvent: { _, _, _, _ in })
        guard let found else { throw RecordingError(file: file, line: 0, message: "no device description (no N: line)") }
        return found
    }

    /// Calls `onStart` once with the device (from the header, or `description`
    /// for a headerless event file) before the first event, then `onEvent` per `E:` line.
    public static func read(
        _ bytes: [UInt8], file: String, description given: DeviceDescription?, stopAtFirstEvent: Bool = false,
        onStart: (DeviceDescription) -> Void,
        onEvent: (_ type: UInt16, _ code: UInt16, _ value: Int32, _ time: Microseconds) -> Void
    ) throws(RecordingError) {
        var header: DeviceDescription? = nil
        var started = false
        var bitOffsets: [UInt16: Int] = [:]
        var lineNumber = 0
        var failure: RecordingError?

        bytes.withUnsafeBufferPointer { buffer in
            var cursor = 0
            let end = buffer.count
            func fail(_ message: String) { failure = RecordingError(file: file, line: lineNumber, message: message) }

            while cursor < end {
                lineNumber += 1
                // memchr finds the newline with glibc's vector code: most of a
                // recording's bytes are evemu's trailing comments.
                let rest = UnsafeRawPointer(buffer.baseAddress! + cursor)
                let lineEnd = memchr(rest, 0x0a, end - cursor).map { $0 - UnsafeMutableRawPointer(mutating: buffer.baseAddress!) } ?? end
                var line = LineScanner(buffer: buffer, position: cursor, end: lineEnd)
                cursor = lineEnd + 1
                line.trimTrailingCarriageReturn()

                guard let tag = line.peek() else { continue }           // blank line
                if tag == UInt8(ascii: "#") { continue }
                guard line.count >= 2, line.byte(at: 1) == UInt8(ascii: ":") else {
                    let shown = line.text.prefix(40)
                    return fail("not an evemu line: \"\(shown)\" (expected N:, I:, P:, B:, A: or E:)")
                }
                line.advance(2)

                if tag == UInt8(ascii: "E") {
                    if !started {
                        guard let device = header ?? given else {
                            return fail("event before any device description; for a headerless event file pass --desc FILE")
                        }
                        started = true
                        if stopAtFirstEvent { return }
                        onStart(device)
                    }
                    guard let seconds = line.unsignedDecimal(), line.expect(UInt8(ascii: ".")),
                          let micros = line.fraction(digits: 6), line.atSpace() else {
                        return fail("bad timestamp: expected <seconds>.<microseconds>")
                    }
                    guard let type = line.hex(), let code = line.hex(), let value = line.signedDecimal() else {
                        return fail("bad event: expected <type hex> <code hex> <value>")
                    }
                    guard type <= 0x1f, code <= 0x2ff, value >= Int64(Int32.min), value <= Int64(Int32.max) else {
                        return fail("event out of range: type \(type), code \(code), value \(value)")
                    }
                    guard line.atEndOrComment() else { return fail("unexpected text after the event value") }
                    guard seconds < UInt64(Int64.max / 1_000_000 - 1) else { return fail("timestamp too large") }
                    onEvent(UInt16(type), UInt16(code), Int32(value), Int64(seconds) * 1_000_000 + Int64(micros))
                    continue
                }

                if started { return fail("device description line after the first event") }
                switch tag {
                case UInt8(ascii: "N"):
                    let name = line.rest().trimmingASCIISpaces()
                    if header != nil, !bitOffsets.isEmpty { return fail("second device description in one file") }
                    header = DeviceDescription(name: name)
                case UInt8(ascii: "I"):
                    guard header != nil else { return fail("I: before N:") }
                    guard let bus = line.hex(), let vendor = line.hex(), let product = line.hex(), let version = line.hex(),
                          bus <= 0xffff, vendor <= 0xffff, product <= 0xffff, version <= 0xffff, line.atEndOrComment() else {
                        return fail("bad I: line: expected four 16-bit hex numbers (bus vendor product version)")
                    }
                    header!.bustype = UInt16(bus); header!.vendor = UInt16(vendor)
                    header!.product = UInt16(product); header!.version = UInt16(version)
                case UInt8(ascii: "P"):
                    guard header != nil else { return fail("P: before N:") }
                    while let byte = line.hex() {
                        guard byte <= 0xff else { return fail("bad P: line: \(byte) is not a byte") }
                        header!.properties.append(UInt8(byte))
                    }
                    guard line.atEndOrComment() else { return fail("bad P: line: expected hex bytes") }
                case UInt8(ascii: "B"):
                    guard header != nil else { return fail("B: before N:") }
                    guard let type = line.hex(), type <= 0x1f else { return fail("bad B: line: expected an event type") }
                    var bits = header!.eventBits[UInt16(type)] ?? []
                    var offset = bitOffsets[UInt16(type)] ?? 0
                    while let byte = line.hex() {
                        guard byte <= 0xff else { return fail("bad B: line: \(byte) is not a byte") }
                        if bits.count <= offset { bits.append(0) }
                        bits[offset] |= UInt8(byte)
                        offset += 1
                    }
                    guard line.atEndOrComment() else { return fail("bad B: line: expected hex bytes") }
                    bitOffsets[UInt16(type)] = offset
                    header!.eventBits[UInt16(type)] = bits
                case UInt8(ascii: "A"):
                    guard header != nil else { return fail("A: before N:") }
                    guard let code = line.hex(), code < 0x40 else { return fail("bad A: line: expected an axis code below 0x40") }
                    var numbers: [Int64] = []
                    while let n = line.signedDecimal() { numbers.append(n) }
                    guard line.atEndOrComment(), (4...5).contains(numbers.count),
                          numbers.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }) else {
                        return fail("bad A: line: expected <code> <min> <max> <fuzz> <flat> [<resolution>]")
                    }
                    guard numbers[0] <= numbers[1] else { return fail("bad A: line: minimum \(numbers[0]) above maximum \(numbers[1])") }
                    header!.absInfo[UInt16(code)] = AbsInfo(
                        minimum: Int32(numbers[0]), maximum: Int32(numbers[1]), fuzz: Int32(numbers[2]), flat: Int32(numbers[3]),
                        resolution: numbers.count == 5 ? Int32(numbers[4]) : 0)
                case UInt8(ascii: "L"), UInt8(ascii: "S"):
                    continue   // LED and switch state lines of newer evemu versions: not needed here
                default:
                    return fail("unknown line type \(Character(Unicode.Scalar(tag))):")
                }
            }
        }
        if let failure { throw failure }
        if !started && !stopAtFirstEvent {
            guard let device = header ?? given else {
                throw RecordingError(file: file, line: 0, message: "no device description and no events")
            }
            onStart(device)
        } else if stopAtFirstEvent, let header {
            onStart(header)
        }
    }
}

/// A cursor over one line's bytes.
private struct LineScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var position: Int
    var end: Int

    var count: Int { end - position }
    func peek() -> UInt8? { position < end ? buffer[position] : nil }
    func byte(at offset: Int) -> UInt8 { buffer[position + offset] }
    mutating func advance(_ n: Int) { position += n }
    mutating func trimTrailingCarriageReturn() { if end > position && buffer[end - 1] == 0x0d { end -= 1 } }

    var text: String { String(decoding: UnsafeBufferPointer(rebasing: buffer[position..<end]), as: UTF8.self) }
    mutating func rest() -> String { defer { position = end }; return text }

    mutating func skipSpaces() {
        while position < end, buffer[position] == 0x20 || buffer[position] == 0x09 { position += 1 }
    }

    func atSpace() -> Bool { position < end && (buffer[position] == 0x20 || buffer[position] == 0x09) }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard position < end, buffer[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return position == end || buffer[position] == UInt8(ascii: "#")
    }

    mutating func unsignedDecimal() -> UInt64? {
        skipSpaces()
        var value: UInt64 = 0
        let start = position
        while position < end, case let d = buffer[position] &- 0x30, d < 10 {
            guard value < UInt64.max / 20 else { return nil }
            value = value * 10 + UInt64(d)
            position += 1
        }
        return position > start ? value : nil
    }

    mutating func signedDecimal() -> Int64? {
        skipSpaces()
        let negative = expect(UInt8(ascii: "-"))
        guard let magnitude = unsignedDecimal(), magnitude <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// Up to `digits` fractional digits, scaled as if padded to `digits`.
    mutating func fraction(digits: Int) -> Int? {
        var value = 0, count = 0
        while position < end, case let d = buffer[position] &- 0x30, d < 10 {
            guard count < digits else { return nil }
            value = value * 10 + Int(d)
            count += 1
            position += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<digits { value *= 10 }
        return value
    }

    mutating func hex() -> UInt64? {
        skipSpaces()
        var value: UInt64 = 0
        let start = position
        while position < end {
            let c = buffer[position]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x61...0x66: d = c - 0x61 + 10
            case 0x41...0x46: d = c - 0x41 + 10
            default:
                return position > start ? value : nil
            }
            guard value < UInt64.max >> 8 else { return nil }
            value = value << 4 | UInt64(d)
            position += 1
        }
        return position > start ? value : nil
    }
}

extension String {
    func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }
}
