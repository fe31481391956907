// SPDX-License-Identifier: MIT
import StylusTOML
import Testing

@Suite("the TOML parser")
struct TOMLParserTests {
    static func parse(_ text: String) throws(TOMLError) -> StylusTOML.TOMLTable {
        try StylusTOML.TOMLTable(parsing: Array(text.utf8))
    }

    static func error(_ text: String) -> TOMLError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test func escapesBecomeTheirCharacters() throws {
        let table = try Self.parse(#"s = "\u00e9\U0001F58A\t\"\\\b\f\r\n""#)
        #expect(table["s"] == .string("é🖊\t\"\\\u{8}\u{C}\r\n"))
    }

    @Test func integersInEveryBaseAndAtTheLimits() throws {
        let table = try Self.parse("""
            a = [0xDEAD_beef, 0o755, 0b1101, +99, -17, 1_000]
            b = [9223372036854775807, -9223372036854775808]
            """)
        #expect(table["a"] == .array([.integer(0xDEAD_BEEF), .integer(0o755), .integer(13), .integer(99), .integer(-17), .integer(1000)]))
        #expect(table["b"] == .array([.integer(.max), .integer(.min)]))
    }

    @Test func floatsWithExponentsInfinityAndNaN() throws {
        let table = try Self.parse("f = [6.626e-34, 5e+22, 1E6, -0.5, 1_0.2_5, inf, -inf, nan]")
        #expect(table["f"] == .array([.float(6.626e-34), .float(5e22), .float(1e6), .float(-0.5), .float(10.25),
                                      .float(.infinity), .float(-.infinity), .float(.nan)]))
    }

    @Test func keysCompareByteForByte() throws {
        // é precomposed and decomposed: equal as Swift strings, two keys to TOML.
        let table = try Self.parse("\"\u{E9}\" = 1\n\"e\u{301}\" = 2\n")
        #expect(table.count == 2)
    }

    @Test(arguments: [
        ("a = 1\nb = [1, 2 3]\n", 2, 11, "expected \",\" or \"]\" in the array, found \"3\""),
        ("a = 1\na = 2\n", 2, 1, "a is set twice"),
        ("[t]\nx = 1\n[t]\n", 3, 1, "table [t] is defined twice"),
        ("a = 1\n[a]\n", 2, 1, "a is already set to a value"),
        ("[x]\ny = { z = 1 }\ny.w = 2\n", 3, 1, "x.y is already set to a value"),
        ("[a]\nb.c = 1\n[a.b]\n", 3, 1, "table [a.b] is defined twice"),
        ("[a.b.c]\n[a]\nb.d = 1\n", 3, 1, "a.b is a table opened by a [header]"),
        ("a = [1]\n[[a]]\n", 2, 1, "a is already set to a value"),
        ("[[a]]\n[a]\n", 2, 1, "already an array of tables"),
        ("n = 012\n", 1, 5, "\"012\" is not a value"),
        ("n = 1__0\n", 1, 5, "is not a value"),
        ("n = 1.\n", 1, 5, "is not a value"),
        ("n = 9223372036854775808\n", 1, 5, "is out of range"),
        ("n = -0x10\n", 1, 5, "is not a value"),
        ("d = 1979-05-27\n", 1, 5, "dates and times are not supported"),
        ("t = 07:32:00\n", 1, 5, "dates and times are not supported"),
        ("s = \"open\n", 1, 5, "not closed on its line"),
        ("s = \"\"\"open\n\n", 1, 5, "not closed"),
        ("s = \"\\x\"\n", 1, 6, "\\x is not an escape"),
        ("s = \"\\uD800\"\n", 1, 6, "is not a Unicode scalar value"),
        ("s = \"\\u12\"\n", 1, 6, "takes 4 hex digits"),
        ("s = \"\"\"a\"\"\"\"\"\"\n", 1, 9, "too many quotes"),
        ("key \"x\"\n", 1, 5, "expected \"=\" after the key key"),
        ("t = { a = 1,\n b = 2 }\n", 1, 13, "ends on the line it starts on"),
        ("t = { a = 1, }\n", 1, 14, "expected a key"),
        ("a = 1 b = 2\n", 1, 7, "expected the end of the line, found \"b\""),
        ("# bell \u{7}\n", 1, 8, "a control character (U+0007) in a comment"),
        ("a = 1\r\r\n", 1, 6, "a carriage return"),
        ("[a\n", 1, 3, "expected \"]\" to end the table name, found the end of the line"),
        ("[[a]\n", 1, 4, "expected \"]]\""),
        ("[!]\n", 1, 2, "a table name follows \"[\""),
        ("x = \n", 1, 5, "expected a value"),
        ("x = é\n", 1, 5, "expected a value"),
    ] as [(String, Int, Int, String)])
    func invalidDocumentsAreNamedByLineAndColumn(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(Self.error(text), "accepted: \(text)")
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aDeepOrLongDocumentIsAnErrorAndNotAStackOverflow() throws {
        let arrays = String(repeating: "[", count: 1_000_000)
        #expect(Self.error("a = \(arrays)")?.message.contains("nest deeper than") == true)
        let dotted = (0..<100_000).map { "k\($0)" }.joined(separator: ".")
        #expect(Self.error("\(dotted) = 1")?.message.contains("nest deeper than") == true)
        #expect(Self.error("[\(dotted)]")?.message.contains("nest deeper than") == true)
        let inline = String(repeating: "{a=", count: 100_000)
        #expect(Self.error("x = \(inline)")?.message.contains("nest deeper than") == true)
        // As deep as allowed parses.
        let deepest = String(repeating: "[", count: StylusTOML.TOMLTable.maxDepth) + String(repeating: "]", count: StylusTOML.TOMLTable.maxDepth)
        #expect(Self.error("a = \(deepest)") == nil)
    }

    /// Every prefix and every single-byte change of a document: the parser
    /// answers (a table or an error on a line of the text) and never traps.
    @Test func everyDamagedDocumentGetsAnAnswer() throws {
        let text = Array(#"""
            a = "s\u00e9" # c
            [t . 'u']
            b = [1, 0x1f, 1e3, { c = """x""" }, '''y''']
            [[arr]]
            d.e = -inf
            """#.utf8)
        let lines = text.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        var documents = (0...text.count).map { Array(text[..<$0]) }
        for index in text.indices {
            for byte: UInt8 in [0x00, 0x0A, 0x0D, 0x22, 0x27, 0x2C, 0x2E, 0x3D, 0x5B, 0x5D, 0x7B, 0x7D, 0x5C, 0x23, 0xC3, 0x61] {
                var changed = text
                changed[index] = byte
                documents.append(changed)
            }
        }
        for document in documents {
            do throws(TOMLError) {
                _ = try StylusTOML.TOMLTable(parsing: document)
            } catch {
                #expect((1...lines + 1).contains(error.line) && error.column >= 1 && !error.message.isEmpty, "\(error)")
            }
        }
    }
}
