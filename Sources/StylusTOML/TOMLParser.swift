// SPDX-License-Identifier: MIT

/// Why a document is not TOML, and where: line and column (in characters) count from 1.
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

extension TOMLTable {
    /// Tables, arrays and inline tables nest at most this deep: the tree is
    /// built and compared recursively, and a file of a million `[` must be
    /// an error, not a stack overflow.
    public static let maxDepth = 100

    /// Parses a TOML 1.0 document. Dates and times are refused (by line), as
    /// are NUL bytes and bytes that are not UTF-8; any other input gives a
    /// table or an error, never a crash.
    public init(parsing bytes: [UInt8]) throws(TOMLError) {
        var parser = TOMLParser(bytes)
        self = try parser.document()
    }
}

/// A table while the document is read: TOML lets a table be opened by a
/// header, by a longer header's path, or by a dotted key, and which one
/// decides what may still be added to it.
private final class TableBuilder {
    enum Origin {
        /// Made as part of a longer header's path: `[a]` may still define it.
        case implicit
        /// Defined by its own `[header]` (or the document's root).
        case header
        /// Made by a dotted key (`a.b = 1`): more dotted keys may add to it, no header may.
        case dotted
    }

    var origin: Origin
    let depth: Int
    var entries: [TOMLTable.Key: Entry] = [:]

    init(origin: Origin, depth: Int) {
        self.origin = origin
        self.depth = depth
    }

    enum Entry {
        case value(TOMLValue)
        case table(TableBuilder)
        case tables(TableArrayBuilder)
    }

    var table: TOMLTable {
        var table = TOMLTable()
        for (key, entry) in entries {
            switch entry {
            case .value(let value): table[key.text] = value
            case .table(let sub): table[key.text] = .table(sub.table)
            case .tables(let array): table[key.text] = .array(array.elements.map { .table($0.table) })
            }
        }
        return table
    }
}

/// An array of tables (`[[name]]`), kept by reference so that each header appends in place.
private final class TableArrayBuilder {
    var elements: [TableBuilder] = []
}

private struct TOMLParser {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), tab = UInt8(ascii: "\t"), space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\"), hash = UInt8(ascii: "#")

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }
    func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    // MARK: errors

    func error(_ message: String, at offset: Int? = nil) -> TOMLError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<offset where bytes[i] == Self.newline {
            line += 1
            lineStart = i + 1
        }
        let column = 1 + bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TOMLError(line: line, column: column, message: message)
    }

    /// What stands at `offset`, for "expected …, found …".
    func found(at offset: Int? = nil) -> String {
        let offset = offset ?? position
        guard let byte = at(offset) else { return "the end of the file" }
        if byte == Self.newline || (byte == Self.carriageReturn && at(offset + 1) == Self.newline) { return "the end of the line" }
        if byte == Self.carriageReturn { return "a carriage return (U+000D) without a newline after it" }
        if byte < 0x20 || byte == 0x7F { return "a control character (U+00\(hex(byte)))" }
        var end = offset + 1
        while let next = at(end), next & 0xC0 == 0x80 { end += 1 }
        return "\"\(String(decoding: bytes[offset..<end], as: UTF8.self))\""
    }

    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    // MARK: the document

    mutating func document() throws(TOMLError) -> TOMLTable {
        try checkEncoding()
        let root = TableBuilder(origin: .header, depth: 0)
        var table = root
        var tablePath: [String] = []
        while true {
            skipSpaces()
            guard let byte = current else { break }
            switch byte {
            case Self.hash, Self.newline, Self.carriageReturn:
                try endOfLine()
            case UInt8(ascii: "["):
                (table, tablePath) = try header(root: root)
                try endOfLine()
            default:
                try keyValue(into: table, path: tablePath)
                try endOfLine()
            }
        }
        return root.table
    }

    /// NUL would have cut the file short for a C parser; bytes that are not
    /// UTF-8 cannot be a TOML document. Both named by line before anything else.
    func checkEncoding() throws(TOMLError) {
        if let nul = bytes.firstIndex(of: 0) {
            throw error("a NUL byte; TOML is text", at: nul)
        }
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return
            case .error: throw error("not UTF-8 (byte 0x\(String(bytes[offset], radix: 16)) at offset \(offset)); TOML files are UTF-8", at: offset)
            }
        }
    }

    mutating func skipSpaces() {
        while current == Self.space || current == Self.tab { position += 1 }
    }

    /// A comment, if any, then the end of the line (or of the file).
    mutating func endOfLine() throws(TOMLError) {
        skipSpaces()
        if current == Self.hash { try comment() }
        switch current {
        case nil: return
        case Self.newline: position += 1
        case Self.carriageReturn where at(position + 1) == Self.newline: position += 2
        default: throw error("expected the end of the line, found \(found())")
        }
    }

    mutating func comment() throws(TOMLError) {
        position += 1
        while let byte = current, byte != Self.newline {
            if byte == Self.carriageReturn, at(position + 1) == Self.newline { return }
            if isControl(byte) { throw error("\(found()) in a comment") }
            position += 1
        }
    }

    /// Characters TOML allows in no comment or string (a tab is allowed).
    func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != Self.tab) || byte == 0x7F }

    /// Spaces, newlines and comments, as between an array's values.
    mutating func skipBlank() throws(TOMLError) {
        while let byte = current {
            switch byte {
            case Self.space, Self.tab, Self.newline: position += 1
            case Self.carriageReturn where at(position + 1) == Self.newline: position += 2
            case Self.hash: try comment()
            default: return
            }
        }
    }

    // MARK: keys and tables

    static func isBareKeyByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// A key, dotted or not: its parts.
    mutating func key() throws(TOMLError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let byte = current else { throw error("expected a key, found \(found())") }
            if byte == Self.quote {
                if at(position + 1) == Self.quote, at(position + 2) == Self.quote { throw error("a key cannot be a multi-line string") }
                parts.append(try basicString())
            } else if byte == Self.apostrophe {
                if at(position + 1) == Self.apostrophe, at(position + 2) == Self.apostrophe { throw error("a key cannot be a multi-line string") }
                parts.append(try literalString())
            } else if Self.isBareKeyByte(byte) {
                let start = position
                while let b = current, Self.isBareKeyByte(b) { position += 1 }
                parts.append(String(decoding: bytes[start..<position], as: UTF8.self))
            } else {
                throw error("expected a key (letters, digits, _ and -, or a quoted string), found \(found())")
            }
            skipSpaces()
            guard current == UInt8(ascii: ".") else { return parts }
            position += 1
        }
    }

    static func dotted(_ path: [String]) -> String {
        path.map { key in
            !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte) ? key : "\"\(key)\""
        }.joined(separator: ".")
    }

    /// `[a.b]` or `[[a.b]]`: the table the lines after it fill, and its path.
    mutating func header(root: TableBuilder) throws(TOMLError) -> (TableBuilder, [String]) {
        let start = position
        position += 1
        let isArray = current == UInt8(ascii: "[")
        if isArray { position += 1 }
        skipSpaces()
        if let first = current, !Self.isBareKeyByte(first), first != Self.quote, first != Self.apostrophe {
            let rest = bytes[position...].prefix { $0 != Self.newline && $0 != Self.carriageReturn }
            let shown = rest.isEmpty ? "the end of the line" : "\"\(String(decoding: rest, as: UTF8.self).prefix(3))\""
            throw error("a table name follows \"[\" on the same line and starts with a letter, digit, _, - or a quote; found \(shown)")
        }
        let path = try key()
        guard current == UInt8(ascii: "]"), !isArray || at(position + 1) == UInt8(ascii: "]") else {
            throw error("expected \(isArray ? "\"]]\"" : "\"]\"") to end the table name, found \(found())")
        }
        position += isArray ? 2 : 1

        var table = root
        for (index, part) in path.enumerated() {
            let isLast = index == path.count - 1
            let key = TOMLTable.Key(part)
            // Only an error needs the name: a file of many keys should not pay for it.
            var name: String { Self.dotted(Array(path[...index])) }
            switch table.entries[key] {
            case nil:
                guard table.depth < TOMLTable.maxDepth else { throw error("tables nest deeper than \(TOMLTable.maxDepth)", at: start) }
                let made = TableBuilder(origin: isLast ? .header : .implicit, depth: table.depth + 1)
                if isLast && isArray {
                    let array = TableArrayBuilder()
                    array.elements.append(made)
                    table.entries[key] = .tables(array)
                } else {
                    table.entries[key] = .table(made)
                }
                table = made
            case .table(let existing):
                if isLast {
                    if isArray { throw error("[[\(name)]]: \(name) is already a table, not an array of tables", at: start) }
                    guard existing.origin == .implicit else { throw error("table [\(name)] is defined twice", at: start) }
                    existing.origin = .header
                }
                // Not last: any table may hold sub-tables, one made by dotted keys too ([a] b.c = 1, then [a.b.d]).
                table = existing
            case .tables(let array):
                if isLast {
                    guard isArray else { throw error("[\(name)]: \(name) is already an array of tables ([[\(name)]])", at: start) }
                    let made = TableBuilder(origin: .header, depth: table.depth + 1)
                    array.elements.append(made)
                    table = made
                } else {
                    table = array.elements[array.elements.count - 1]
                }
            case .value:
                throw error("\(name) is already set to a value; it cannot be a table too", at: start)
            }
        }
        return (table, path)
    }

    /// `key = value`, the key dotted or not, added to `table` (at `tablePath`, for messages).
    mutating func keyValue(into table: TableBuilder, path tablePath: [String]) throws(TOMLError) {
        let start = position
        let path = try key()
        guard current == UInt8(ascii: "=") else {
            throw error("expected \"=\" after the key \(Self.dotted(path)), found \(found())")
        }
        position += 1
        skipSpaces()
        let value = try value(depth: table.depth + path.count)
        var target = table
        for (index, part) in path.enumerated() {
            let key = TOMLTable.Key(part)
            var name: String { Self.dotted(tablePath + path[...index]) }
            if index == path.count - 1 {
                guard target.entries[key] == nil else { throw error("\(name) is set twice", at: start) }
                target.entries[key] = .value(value)
                return
            }
            switch target.entries[key] {
            case nil:
                guard target.depth < TOMLTable.maxDepth else { throw error("tables nest deeper than \(TOMLTable.maxDepth)", at: start) }
                let made = TableBuilder(origin: .dotted, depth: target.depth + 1)
                target.entries[key] = .table(made)
                target = made
            case .table(let existing) where existing.origin == .dotted:
                target = existing
            case .table:
                throw error("\(name) is a table opened by a [header]; dotted keys cannot add to it", at: start)
            case .tables:
                throw error("\(name) is an array of tables; dotted keys cannot add to it", at: start)
            case .value:
                throw error("\(name) is already set to a value; it cannot be a table too", at: start)
            }
        }
    }

    // MARK: values

    mutating func value(depth: Int) throws(TOMLError) -> TOMLValue {
        guard depth <= TOMLTable.maxDepth else { throw error("values nest deeper than \(TOMLTable.maxDepth)") }
        guard let byte = current else { throw error("expected a value, found \(found())") }
        switch byte {
        case Self.quote:
            if at(position + 1) == Self.quote, at(position + 2) == Self.quote { return .string(try multiLineString(Self.quote)) }
            return .string(try basicString())
        case Self.apostrophe:
            if at(position + 1) == Self.apostrophe, at(position + 2) == Self.apostrophe { return .string(try multiLineString(Self.apostrophe)) }
            return .string(try literalString())
        case UInt8(ascii: "["):
            return try array(depth: depth)
        case UInt8(ascii: "{"):
            return try inlineTable(depth: depth)
        default:
            return try scalar()
        }
    }

    mutating func array(depth: Int) throws(TOMLError) -> TOMLValue {
        position += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlank()
            if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
            elements.append(try value(depth: depth + 1))
            try skipBlank()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw error("expected \",\" or \"]\" in the array, found \(found())")
            }
        }
    }

    /// `{ a = 1, b.c = 2 }`: on one line, no comma after the last pair, and closed to later additions.
    mutating func inlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
        position += 1
        let table = TableBuilder(origin: .dotted, depth: depth)
        skipSpaces()
        if current == UInt8(ascii: "}") { position += 1; return .table(table.table) }
        while true {
            skipSpaces()
            if current == Self.newline || current == Self.carriageReturn { throw error("an inline table ({ … }) ends on the line it starts on") }
            try keyValue(into: table, path: [])
            skipSpaces()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .table(table.table)
            case Self.newline, Self.carriageReturn: throw error("an inline table ({ … }) ends on the line it starts on")
            default: throw error("expected \",\" or \"}\" in the inline table, found \(found())")
            }
        }
    }

    /// true, false, a number, inf or nan (signed or not); a date is refused.
    mutating func scalar() throws(TOMLError) -> TOMLValue {
        let start = position
        while let b = current, Self.isBareKeyByte(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":") {
            position += 1
        }
        let token = Array(bytes[start..<position])
        guard !token.isEmpty else { throw error("expected a value (a string, number, true, false, array or inline table), found \(found())") }
        if token == Array("true".utf8) { return .boolean(true) }
        if token == Array("false".utf8) { return .boolean(false) }
        switch Self.number(token) {
        case .value(let value): return value
        case .outOfRange: throw error("\(String(decoding: token, as: UTF8.self)) is out of range (integers are 64-bit: -9223372036854775808 to 9223372036854775807)", at: start)
        case .invalid: break
        }
        if Self.looksLikeDateOrTime(token) {
            throw error("dates and times are not supported; no setting takes one", at: start)
        }
        throw error("\"\(String(decoding: token, as: UTF8.self))\" is not a value (a string needs quotes; numbers are as 42, -1_000, 0x1f, 3.14, 1e-3, inf, nan)", at: start)
    }

    static func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }

    static func looksLikeDateOrTime(_ token: [UInt8]) -> Bool {
        token.count >= 5 && token[0...1].allSatisfy(isDigit)
            && ((token[2] == UInt8(ascii: ":")) || (token[2...3].allSatisfy(isDigit) && token[4] == UInt8(ascii: "-")))
    }

    /// Digits of `radix` with single underscores between them; nil if there are none or an underscore is misplaced.
    static func digits(_ part: ArraySlice<UInt8>, radix: Int) -> [Int]? {
        guard let first = part.first, let last = part.last, first != UInt8(ascii: "_"), last != UInt8(ascii: "_") else { return nil }
        var result: [Int] = []
        var previous: UInt8 = 0
        for b in part {
            if b == UInt8(ascii: "_") {
                guard previous != UInt8(ascii: "_") else { return nil }
            } else {
                let digit: Int
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(b - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(b - UInt8(ascii: "A")) + 10
                default: return nil
                }
                guard digit < radix else { return nil }
                result.append(digit)
            }
            previous = b
        }
        return result
    }

    /// The digits' value, negated when `negative`; nil when it does not fit 64 bits.
    static func integer(_ digits: [Int], radix: Int, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: Int64(radix))
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
            if overflowA || overflowB { return nil }
            value = next
        }
        return value
    }

    enum NumberReading {
        case value(TOMLValue)
        case outOfRange
        case invalid
    }

    /// An integer or a float as TOML spells them.
    static func number(_ token: [UInt8]) -> NumberReading {
        var body = token[...]
        var negative = false, signed = false
        if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            signed = true
            body = body.dropFirst()
        }
        if body.elementsEqual("inf".utf8) { return .value(.float(negative ? -.infinity : .infinity)) }
        if body.elementsEqual("nan".utf8) { return .value(.float(negative ? -.nan : .nan)) }
        if !signed, body.count > 2, body.first == UInt8(ascii: "0") {
            let radix: Int? = switch body[body.startIndex + 1] {
            case UInt8(ascii: "x"): 16
            case UInt8(ascii: "o"): 8
            case UInt8(ascii: "b"): 2
            default: nil
            }
            if let radix {
                guard let digits = digits(body.dropFirst(2), radix: radix) else { return .invalid }
                return integer(digits, radix: radix, negative: false).map { .value(.integer($0)) } ?? .outOfRange
            }
        }
        // Decimal: an integer part, then a fraction, an exponent, both or neither.
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let dotAt = mantissa.firstIndex(of: UInt8(ascii: "."))
        let integerPart = mantissa[..<(dotAt ?? mantissa.endIndex)]
        guard let integerDigits = digits(integerPart, radix: 10) else { return .invalid }
        guard integerDigits.count == 1 || integerDigits.first != 0 else { return .invalid }   // no leading zeros
        var text = negative ? "-" : ""
        text += integerDigits.map(String.init).joined()
        if let dotAt {
            guard let fraction = digits(mantissa[(dotAt + 1)...], radix: 10) else { return .invalid }
            text += "." + fraction.map(String.init).joined()
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            var exponentSign = ""
            if let sign = exponent.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentSign = sign == UInt8(ascii: "-") ? "-" : ""
                exponent = exponent.dropFirst()
            }
            guard let exponentDigits = digits(exponent, radix: 10) else { return .invalid }
            text += "e" + exponentSign + exponentDigits.map(String.init).joined()
        }
        if dotAt == nil, exponentAt == nil {
            return integer(integerDigits, radix: 10, negative: negative).map { .value(.integer($0)) } ?? .outOfRange
        }
        return Double(text).map { .value(.float($0)) } ?? .invalid
    }

    // MARK: strings

    /// `"…"` on one line, with escapes.
    mutating func basicString() throws(TOMLError) -> String {
        let start = position
        position += 1
        var text: [UInt8] = []
        while true {
            guard let byte = current, byte != Self.newline, byte != Self.carriageReturn else {
                throw error("a string opened with \" is not closed on its line", at: start)
            }
            if byte == Self.quote { position += 1; return String(decoding: text, as: UTF8.self) }
            if byte == Self.backslash {
                try escape(into: &text)
                continue
            }
            if isControl(byte) { throw error("\(found()) in a string; write it as an escape (\\t, \\n, \\u0000)") }
            text.append(byte)
            position += 1
        }
    }

    /// `'…'` on one line, as written.
    mutating func literalString() throws(TOMLError) -> String {
        let start = position
        position += 1
        let from = position
        while true {
            guard let byte = current, byte != Self.newline, byte != Self.carriageReturn else {
                throw error("a string opened with ' is not closed on its line", at: start)
            }
            if byte == Self.apostrophe {
                position += 1
                return String(decoding: bytes[from..<(position - 1)], as: UTF8.self)
            }
            if isControl(byte) { throw error("\(found()) in a string") }
            position += 1
        }
    }

    /// `"""…"""` (escapes, and `\` at a line's end joining lines) or
    /// `'''…'''` (as written): newlines kept, the one right after the opening dropped.
    mutating func multiLineString(_ quote: UInt8) throws(TOMLError) -> String {
        let start = position
        let delimiter = String(repeating: Character(Unicode.Scalar(quote)), count: 3)
        position += 3
        skipNewlineAfterOpening()
        var text: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a string opened with \(delimiter) is not closed", at: start) }
            if byte == quote {
                switch closingQuotes(quote, into: &text) {
                case true?: return String(decoding: text, as: UTF8.self)
                case false?: throw error("too many quotes (\(Character(Unicode.Scalar(quote)))) end the string")
                case nil: continue
                }
            }
            if byte == Self.backslash, quote == Self.quote {
                var after = position + 1
                while at(after) == Self.space || at(after) == Self.tab { after += 1 }
                if at(after) == Self.newline || (at(after) == Self.carriageReturn && at(after + 1) == Self.newline) {
                    position = after
                    while let b = current, b == Self.space || b == Self.tab || b == Self.newline
                            || (b == Self.carriageReturn && at(position + 1) == Self.newline) {
                        position += 1
                    }
                    continue
                }
                try escape(into: &text)
                continue
            }
            try multiLineCharacter(byte, into: &text)
        }
    }

    mutating func skipNewlineAfterOpening() {
        if current == Self.newline { position += 1 } else if current == Self.carriageReturn, at(position + 1) == Self.newline { position += 2 }
    }

    /// A byte of a multi-line string's text: a newline (CRLF kept as LF) or any but a control character.
    mutating func multiLineCharacter(_ byte: UInt8, into text: inout [UInt8]) throws(TOMLError) {
        if byte == Self.carriageReturn, at(position + 1) == Self.newline {
            text.append(Self.newline)
            position += 2
            return
        }
        if byte != Self.newline, isControl(byte) { throw error("\(found()) in a string") }
        text.append(byte)
        position += 1
    }

    /// At a run of `quote`s in a multi-line string: nil when fewer than three
    /// (they are text, now in `text`); true when they close it (up to two of
    /// them belonging to the text); false when there are more than five.
    mutating func closingQuotes(_ quote: UInt8, into text: inout [UInt8]) -> Bool? {
        var count = 0
        while at(position + count) == quote { count += 1 }
        if count < 3 {
            text += repeatElement(quote, count: count)
            position += count
            return nil
        }
        guard count <= 5 else { return false }
        text += repeatElement(quote, count: count - 3)
        position += count
        return true
    }

    /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, at the backslash.
    mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
        let start = position
        position += 1
        guard let letter = current else { throw error("a string ends in the middle of an escape", at: start) }
        position += 1
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case Self.quote: text.append(Self.quote)
        case Self.backslash: text.append(Self.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = letter == UInt8(ascii: "u") ? 4 : 8
            guard position + count <= bytes.count,
                  let digits = Self.digits(bytes[position..<(position + count)], radix: 16), digits.count == count else {
                throw error("\\\(Character(Unicode.Scalar(letter))) takes \(count) hex digits", at: start)
            }
            let value = digits.reduce(UInt32(0)) { $0 << 4 | UInt32($1) }
            guard let scalar = Unicode.Scalar(value) else {
                throw error("\\\(Character(Unicode.Scalar(letter)))\(String(decoding: bytes[position..<(position + count)], as: UTF8.self)) is not a Unicode scalar value", at: start)
            }
            position += count
            text += Array(String(Character(scalar)).utf8)
        default:
            throw error("\\\(String(decoding: [letter], as: UTF8.self)) is not an escape; use \\b, \\t, \\n, \\f, \\r, \\\", \\\\, \\uXXXX or \\UXXXXXXXX", at: start)
        }
    }
}
