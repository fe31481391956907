// SPDX-License-Identifier: MIT
/// Checks the few things toml++ (inside TOMLKit 0.6.0) does not check itself
/// before handing text to it. toml++ is built with its assertions on, and a
/// table header whose name starts with anything but a key character, as in
/// `[!]` or `[é]`, trips one and aborts the process: the daemon would die on
/// a typo at start or on reload. A NUL byte would silently cut the file
/// short, because TOMLKit passes the text as a C string.
enum TOMLGuard {
    /// The first problem, as (line, message), or nil when toml++ may parse it.
    static func problem(in bytes: [UInt8]) -> (line: Int, message: String)? {
        if let nul = bytes.firstIndex(of: 0) {
            return (line(of: nul, in: bytes), "a NUL byte; TOML is text")
        }
        if let bad = firstInvalidUTF8(bytes) {
            return (line(of: bad, in: bytes), "not UTF-8 (byte 0x\(String(bytes[bad], radix: 16)) at offset \(bad)); TOML files are UTF-8")
        }
        return headerProblem(bytes)
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $0 + ($1 == 0x0a ? 1 : 0) }
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Walks the text as TOML does (strings, comments, brackets inside
    /// values) far enough to find each table header, and checks the
    /// character its name starts with.
    private static func headerProblem(_ bytes: [UInt8]) -> (line: Int, message: String)? {
        let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), newline = UInt8(0x0a)
        var i = 0, line = 1, valueDepth = 0
        var atLineStart = true
        func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
        func isSpace(_ b: UInt8?) -> Bool { b == 0x20 || b == 0x09 }
        func skipSpaces() { while isSpace(at(i)) { i += 1 } }
        /// Skips a string that starts at i; counts the lines a multi-line one spans.
        func skipString() {
            let delimiter = bytes[i]
            let multiLine = at(i + 1) == delimiter && at(i + 2) == delimiter
            i += multiLine ? 3 : 1
            while let b = at(i) {
                if b == newline {
                    if !multiLine { return }          // unterminated: toml++ reports it
                    line += 1
                } else if b == UInt8(ascii: "\\"), delimiter == quote {
                    if at(i + 1) == newline { line += 1 }
                    i += 2
                    continue
                } else if b == delimiter {
                    if !multiLine { i += 1; return }
                    if at(i + 1) == delimiter, at(i + 2) == delimiter {
                        i += 3
                        while at(i) == delimiter { i += 1 }   // """a""""" ends with quotes inside
                        return
                    }
                }
                i += 1
            }
        }
        while let b = at(i) {
            if atLineStart {
                atLineStart = false
                skipSpaces()
                if valueDepth == 0, at(i) == UInt8(ascii: "[") {
                    i += 1
                    skipSpaces()
                    if at(i) == UInt8(ascii: "[") { i += 1; skipSpaces() }
                    if let first = at(i), !isKeyStart(first), first != UInt8(ascii: "]") {
                        let rest = String(decoding: bytes[i...].prefix { $0 != newline && $0 != 0x0d }, as: UTF8.self)
                        let found = rest.isEmpty ? "the end of the line" : "\"\(rest.prefix(3))\""
                        return (line, "a table name follows \"[\" on the same line and starts with a letter, digit, _, - or a quote; found \(found) (tables are [bindings], [precision] and [canvas])")
                    }
                    // The rest of the header: quoted names may hold brackets.
                    while let c = at(i), c != newline, c != UInt8(ascii: "#") {
                        if c == quote || c == apostrophe { skipString() } else { i += 1 }
                    }
                    continue
                }
                continue
            }
            switch b {
            case newline:
                line += 1
                i += 1
                atLineStart = true
            case UInt8(ascii: "#"):
                while let c = at(i), c != newline { i += 1 }
            case quote, apostrophe:
                skipString()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                valueDepth += 1
                i += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                valueDepth = max(0, valueDepth - 1)
                i += 1
            default:
                i += 1
            }
        }
        return nil
    }

    private static func isKeyStart(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
             UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }
}
