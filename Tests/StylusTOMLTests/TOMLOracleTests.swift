// SPDX-License-Identifier: MIT
import StylusTOML
import Testing
import TOMLKit
#if canImport(Glibc)
import Glibc
#endif

// TOMLKit (toml++) is linked here only, as the oracle: the shipped programs
// parse with StylusTOML because TOMLKit pulls all of Foundation and ICU's data
// into a static binary (the parser child was 55 MiB with it). Only documents
// known to be valid go to TOMLKit: toml++ aborts the process on some typos.

/// StylusTOML's tree for what TOMLKit parsed; nil for a date or time, which StylusTOML refuses.
func oracleTree(_ table: TOMLKit.TOMLTable) -> StylusTOML.TOMLTable? {
    var tree = StylusTOML.TOMLTable()
    for key in table.keys {
        guard let value = table[key], let converted = oracleValue(value) else { return nil }
        tree[key] = converted
    }
    return tree
}

func oracleValue(_ value: any TOMLValueConvertible) -> StylusTOML.TOMLValue? {
    switch value.type {
    case .string: value.string.map(StylusTOML.TOMLValue.string)
    case .int: value.int.map { .integer(Int64($0)) }
    case .double: value.double.map(StylusTOML.TOMLValue.float)
    case .bool: value.bool.map(StylusTOML.TOMLValue.boolean)
    case .array:
        value.array.flatMap { array in
            let elements = array.compactMap(oracleValue)
            return elements.count == array.count ? .array(elements) : nil
        }
    case .table: value.table.flatMap(oracleTree).map(StylusTOML.TOMLValue.table)
    default: nil
    }
}

/// Paths from this file to the repository's files.
enum Repository {
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func read(_ path: String) throws -> String {
        let file = try #require(fopen("\(root)/\(path)", "r"), "cannot open \(root)/\(path)")
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ```toml blocks of a Markdown file.
    static func tomlBlocks(_ path: String) throws -> [String] {
        let parts = try read(path).split(separator: "```", omittingEmptySubsequences: false)
        return parts.filter { $0.hasPrefix("toml\n") }.map { String($0.dropFirst(5)) }
    }
}

/// Valid TOML documents from a seed, using every part of TOML 1.0 but dates:
/// each table name and key is new, so only the syntax varies.
struct DocumentGenerator {
    var state: UInt64
    var counter = 0

    init(seed: UInt64) { state = seed }

    /// SplitMix64: the same documents on every run and machine.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    mutating func name() -> String {
        counter += 1
        return switch below(5) {
        case 0: "\"quoted \(counter) é.\\t\""
        case 1: "'literal \(counter) \\'"
        case 2: "\(counter)"
        default: "k\(counter)-x_y"
        }
    }

    mutating func key() -> String {
        below(4) == 0 ? "\(name()) . \(name())" : name()
    }

    mutating func space() -> String { pick(["", " ", "  ", "\t"]) }

    mutating func string() -> String {
        let pieces = ["plain", "é ü ✍", "\\\"", "\\\\", "\\t", "\\n", "\\b\\f\\r", "\\u00e9", "\\U0001F58A", "#not a comment", "'", " "]
        switch below(4) {
        case 0: return "\"" + (0..<below(4)).map { _ in pick(pieces) }.joined() + "\""
        case 1: return "'C:\\path\\ \"as is\" #\(counter)'"
        case 2:
            let body = (0..<below(4)).map { _ in pick(pieces + ["\n", "\"\"x", "line \\\n   joined"]) }.joined()
            return "\"\"\"" + pick(["", "\n"]) + body + pick(["", "\"", "\"\""]) + "\"\"\""
        default:
            return "'''" + pick(["", "\n"]) + pick(["raw \\n kept", "two\nlines", "it's", "''x"]) + pick(["", "'", "''"]) + "'''"
        }
    }

    mutating func number() -> String {
        switch below(12) {
        case 0: return pick(["0", "+0", "-0", "42", "-17", "+99", "1_000_000", "9223372036854775807", "-9223372036854775808"])
        case 1: return pick(["0xDEAD_beef", "0x0", "0xff", "0o755", "0o0", "0b1101_0110", "0b0"])
        case 2: return pick(["inf", "+inf", "-inf", "nan", "+nan", "-nan"])
        case 3: return pick(["1e6", "1E+6", "-2e-3", "6.626e-34", "5e+22", "1_000.000_1", "-0.0", "+0.0", "3.14159", "0.1", "1e0"])
        default:
            return "\(below(2) == 0 ? "-" : "")\(below(100_000))\(below(2) == 0 ? ".\(below(1000))" : "")\(below(3) == 0 ? "e\(below(40) - 20)" : "")"
        }
    }

    mutating func value(depth: Int) -> String {
        switch below(depth > 2 ? 4 : 7) {
        case 0: return string()
        case 1, 2: return number()
        case 3: return pick(["true", "false"])
        case 4:
            let elements = (0..<below(4)).map { _ in value(depth: depth + 1) }
            let separator = pick([",", ", ", " ,\n  ", ", # note\n"])
            return "[" + space() + elements.joined(separator: separator) + (elements.isEmpty ? "" : pick(["", ",", ",\n"])) + "]"
        default:
            let pairs = (0..<below(4)).map { _ in "\(key())\(space())=\(space())\(value(depth: depth + 1))" }
            return "{" + space() + pairs.joined(separator: "," + space()) + space() + "}"
        }
    }

    mutating func pairs() -> String {
        (0..<below(5)).map { _ in
            "\(space())\(key())\(space())=\(space())\(value(depth: 0))\(space())\(pick(["", "# comment ✓", "#"]))\n"
        }.joined()
    }

    mutating func document() -> String {
        var text = pick(["", "# a document\n", "\n\n"]) + pairs()
        var arrays: [String] = []
        for _ in 0..<below(6) {
            switch below(3) {
            case 0:
                text += "[\(space())\(key())\(space())]\(space())\(pick(["", "# header"]))\n" + pairs()
            case 1 where !arrays.isEmpty:
                text += "[[\(pick(arrays))]]\n" + pairs()
            default:
                let array = name()
                arrays.append(array)
                text += "[[\(array)]]\n" + pairs() + "[[\(array)]]\n" + pairs()
                text += "[\(array).\(name())]\n" + pairs()   // a table inside the array's last element
            }
        }
        return below(2) == 0 ? text : text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }
}

@Suite("StylusTOML against TOMLKit")
struct TOMLOracleTests {
    static func expectSameTree(_ text: String, _ comment: String) throws {
        let expected = try #require(oracleTree(try TOMLKit.TOMLTable(string: text)), "TOMLKit read a date: \(comment)")
        let parsed = Result { () throws(TOMLError) -> StylusTOML.TOMLTable in try StylusTOML.TOMLTable(parsing: Array(text.utf8)) }
        let same = parsed == .success(expected)
        #expect(same, "\(comment): \(parsed) for\n\(text)")
    }

    @Test func theDocumentedConfigurationsGiveTOMLKitsTree() throws {
        let documents = try Repository.tomlBlocks("README.md") + [Repository.read("examples/config.toml")]
        #expect(documents.count >= 2)
        for (index, text) in documents.enumerated() { try Self.expectSameTree(text, "document \(index)") }
    }

    @Test func everyPartOfTheSyntaxGivesTOMLKitsTree() throws {
        let text = #"""
            # comment
            bare_key-1 = "basic \"quoted\" \\ \b\t\n\f\r \u00E9 \U0001F58A"
            "quoted key" = 'literal \n stays'
            'literal key' = """
            first line
              second, "quoted" ""
            joined \
                here"""
            "" = '''
            raw \n
            it's '' here'''
            a.b . c = 1
            a.d = { e = 2, f.g = [1, 2.5, "x", [true, false], { h = 0x0 }] }
            ints = [0, +1, -1, 1_000, 0xDEADBEEF, 0xdead_beef, 0o17, 0b1010, 9223372036854775807, -9223372036854775808]
            floats = [0.0, -0.0, 3.1415, -1e-3, 2E+10, 6.02_2e2_3, inf, -inf, nan, 1_0.0_1]
            empty = []
            mixed = [ 1, "two", 3.0, # comment inside an array
              [], {}, ]
            [table]
            key = "value"
            [table.sub . "quoted sub"]
            x = 1
            [a.z]   # a sub-table of a table made by dotted keys
            y = 2
            [[fruit]]
            name = "apple"
            [fruit.physical]
            color = "red"
            [[fruit.variety]]
            name = "red delicious"
            [[fruit]]
            name = "banana"
            [implicit.parent.child]
            q = 1
            [implicit]
            r = 2
            """#
        try Self.expectSameTree(text, "the syntax sampler")
    }

    @Test func generatedDocumentsGiveTOMLKitsTree() throws {
        var generator = DocumentGenerator(seed: 28)
        for index in 0..<2000 {
            try Self.expectSameTree(generator.document(), "generated document \(index)")
        }
    }
}
