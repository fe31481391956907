// SPDX-License-Identifier: MIT
public import StylusCore

/// A strict JSON (RFC 8259) parser into `JSONValue`, for the daemon's
/// request lines.
///
/// Why not JSONDecoder: `JSONValue`'s Decodable conformance tries each type
/// in turn, and every wrong guess throws an error with a formatted context,
/// several per value; in the emulated test guest that was most of the
/// daemon's work per request under a flood (docs/SECURITY.md). This parser
/// reads the bytes once. It accepts what JSONDecoder accepted before it and
/// nothing more: valid UTF-8 only, no control characters in strings, no
/// lone surrogates, numbers a Double holds (no overflow, no underflow to
/// zero), one value and only whitespace around it; like JSONDecoder, one
/// trailing comma in an object or array. Stricter on purpose: a member
/// name given twice is refused (JSONDecoder kept the first, so
/// `{"cmd":"status","cmd":"clear"}` meant whichever a decoder chose), and
/// so is a byte-order mark. The tests check it against JSONDecoder on
/// random lines.
public struct JSONParser {
    public struct Failure: Error, Equatable, Sendable {
        /// Byte offset of the first byte that does not fit.
        public var offset: Int
        public var reason: String
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    private let maxDepth: Int

    /// Parses one whole value; `maxDepth` bounds the nesting of arrays and objects.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw parser.failure("content after the value") }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func failure(_ reason: String) -> Failure { Failure(offset: i, reason: reason) }

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let b = current else { throw failure("a value was expected") }
        switch b {
        case 0x7b: return try object()
        case 0x5b: return try array()
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6e: try literal("null"); return .null
        case 0x2d, 0x30...0x39: return .number(try number())
        default: throw failure("a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for b in word.utf8 {
            guard current == b else { throw failure("a value was expected") }
            i += 1
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        guard try open(closedBy: 0x7d) else { return .object(fields) }
        repeat {
            guard current == 0x22 else { throw failure("a member name (a string) was expected") }
            let keyStart = i
            let key = try string()
            guard fields[key] == nil else { i = keyStart; throw failure("the member name \"\(key.prefix(32))\" given twice") }
            skipWhitespace()
            guard current == 0x3a else { throw failure("':' was expected") }
            i += 1
            skipWhitespace()
            fields[key] = try value()
        } while try !closes(with: 0x7d, "',' or '}' was expected")
        return .object(fields)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        var elements: [JSONValue] = []
        guard try open(closedBy: 0x5d) else { return .array(elements) }
        repeat {
            elements.append(try value())
        } while try !closes(with: 0x5d, "',' or ']' was expected")
        return .array(elements)
    }

    /// At `[` or `{`: steps in; false when the container is empty (and closed already).
    private mutating func open(closedBy close: UInt8) throws(Failure) -> Bool {
        depth += 1
        guard depth <= maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
        i += 1
        skipWhitespace()
        guard current == close else { return true }
        i += 1
        depth -= 1
        return false
    }

    /// After an element: true when `close` ends the container (after a
    /// comma too, as JSONDecoder allows), false when another element follows.
    private mutating func closes(with close: UInt8, _ expected: String) throws(Failure) -> Bool {
        skipWhitespace()
        if current == 0x2c {
            i += 1
            skipWhitespace()
            guard current == close else { return false }
        } else if current != close {
            throw failure(expected)
        }
        i += 1
        depth -= 1
        return true
    }

    private mutating func number() throws(Failure) -> Double {
        let start = i
        if current == 0x2d { i += 1 }
        guard let first = current, (0x30...0x39).contains(first) else { throw failure("a digit was expected") }
        i += 1
        if first != 0x30 { skipDigits() }
        if current == 0x2e {
            i += 1
            guard digits() else { throw failure("a digit was expected after '.'") }
        }
        if current == 0x65 || current == 0x45 {
            i += 1
            if current == 0x2b || current == 0x2d { i += 1 }
            guard digits() else { throw failure("a digit was expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        guard let n = Double(text), n.isFinite, n != 0 || !mantissa.contains(where: { ("1"..."9").contains($0) }) else {
            i = start
            throw failure("the number \(text.prefix(32))\(text.count > 32 ? "…" : "") is out of range")
        }
        return n
    }

    private mutating func skipDigits() {
        while let b = current, (0x30...0x39).contains(b) { i += 1 }
    }

    /// At least one digit, skipped.
    private mutating func digits() -> Bool {
        let start = i
        skipDigits()
        return i > start
    }

    private mutating func string() throws(Failure) -> String {
        i += 1
        let start = i
        // The common case: no escape, ASCII or valid UTF-8, one copy.
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                guard let s = String(validating: bytes[start..<i], as: UTF8.self) else { i = start; throw failure("not UTF-8") }
                i += 1
                return s
            }
            if b == 0x5c { break }
            if b < 0x20 { throw failure("a control character in a string") }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while true {
            guard let b = current else { throw failure("an unterminated string") }
            switch b {
            case 0x22:
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw failure("not UTF-8") }
                return s
            case 0x5c:
                i += 1
                guard let e = current else { throw failure("an unterminated string") }
                i += 1
                switch e {
                case 0x22, 0x5c, 0x2f: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0c)
                case 0x6e: out.append(0x0a)
                case 0x72: out.append(0x0d)
                case 0x74: out.append(0x09)
                case 0x75: appendUTF8(try escapedScalar(), to: &out)
                default: i -= 1; throw failure("an unknown escape")
                }
            case 0x00..<0x20:
                throw failure("a control character in a string")
            default:
                out.append(b)
                i += 1
            }
        }
    }

    /// After `\u`: four hex digits, and for a high surrogate the `\uDC00`-`\uDFFF` that must follow.
    private mutating func escapedScalar() throws(Failure) -> Unicode.Scalar {
        let unit = try hex4()
        switch unit {
        case 0xd800...0xdbff:
            guard bytes.count - i >= 6, bytes[i] == 0x5c, bytes[i + 1] == 0x75 else { throw failure("a lone surrogate") }
            i += 2
            let low = try hex4()
            guard (0xdc00...0xdfff).contains(low) else { throw failure("a lone surrogate") }
            return Unicode.Scalar(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))!
        case 0xdc00...0xdfff:
            throw failure("a lone surrogate")
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - i >= 4 else { throw failure("four hex digits were expected") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw failure("four hex digits were expected")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: UTF8.encode(scalar)!)
    }
}
