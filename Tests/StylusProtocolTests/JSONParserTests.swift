// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusProtocol

/// The daemon reads every request line with `JSONParser`; a client may have
/// been written against JSONDecoder's idea of JSON, so the two must agree.
@Suite("Request lines: the JSON parser")
struct JSONParserTests {
    static func foundation(_ text: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text))
    }

    static func ours(_ text: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(text)
    }

    @Test(arguments: [
        #"{"id":1,"cmd":"status"}"#,
        #"  {"id" : "a\"b\\c\/d\u00e9\ud83d\ude00\n" , "cmd":"subscribe","topics":["pen","canvas"]}  "#,
        #"{"id":-0.5e-3,"x":[true,false,null,{},[]],"y":1E+2,"z":0}"#,
        #"[1,2,3]"#, #"{"a":1,}"#, "[1 , ]", #""just a string""#, #"12"#, #"null"#, "{\"k\":\"é漢\"}",
    ])
    func whatJSONDecoderAcceptsIsReadTheSame(_ text: String) throws {
        let bytes = Array(text.utf8)
        let expected = try #require(Self.foundation(bytes), "JSONDecoder refuses \(text)")
        #expect(try JSONParser.parse(bytes) == expected)
    }

    @Test(arguments: [
        "", " ", "{", "}", "{nope", #"{"a"}"#, #"{"a":}"#, "{,}", "[,]", "[1,,]", #"{"a":1,,}"#, "[1 2]", "01", "1.", ".5", "-", "1e",
        "+1", "tru", "nul", "truex", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#,
        "\"a\tb\"", "\"a\nb\"", "1e999", "-1e999", #"{"a":1} x"#, "NaN", "Infinity", "'a'", #"{"a":1}{"#,
    ])
    func whatJSONDecoderRefusesIsRefused(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.foundation(bytes) == nil, "JSONDecoder accepts \(text)")
        #expect(Self.ours(bytes) == nil, "the parser accepts \(text)")
    }

    @Test func whereItIsStricterThanJSONDecoderOnPurpose() throws {
        #expect(throws: JSONParser.Failure(offset: 16, reason: #"the member name "cmd" given twice"#)) {
            try JSONParser.parse(Array(#"{"cmd":"status","cmd":"clear"}"#.utf8))
        }
        #expect(Self.ours([0xef, 0xbb, 0xbf] + Array("{}".utf8)) == nil, "a byte-order mark")
        #expect(Self.ours(Array("1e-400".utf8)) == nil && Self.foundation(Array("1e-400".utf8)) == nil, "underflow to zero")
        #expect(try JSONParser.parse(Array("0e-400".utf8)) == .number(0) && JSONParser.parse(Array("-0.0".utf8)) == .number(0))
        let long = String(repeating: "9", count: 400) + "e999"
        #expect(throws: JSONParser.Failure(offset: 0, reason: "the number \(String(repeating: "9", count: 32))… is out of range")) {
            try JSONParser.parse(Array(long.utf8))
        }
    }

    @Test func invalidUTF8IsRefusedInsideAndOutsideStrings() {
        for bytes: [UInt8] in [[0x22, 0xff, 0x22], [0x22, 0xc3, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x7b, 0x80, 0x7d],
                               [0x22, 0x5c, 0x6e, 0xfe, 0x22]] {
            #expect(Self.ours(bytes) == nil, "accepted \(bytes)")
        }
    }

    @Test func anErrorNamesTheByteWhereTheLineStopsBeingJSON() {
        #expect(throws: JSONParser.Failure(offset: 8, reason: "',' or '}' was expected")) { try JSONParser.parse(Array(#"{"id":1 "cmd":"x"}"#.utf8)) }
        #expect(throws: JSONParser.Failure(offset: 6, reason: "nested deeper than 2 levels")) { try JSONParser.parse(Array(#"{"a":[[1]]}"#.utf8), maxDepth: 2) }
    }

    /// Lines made of JSON's own tokens in random order, most of them not
    /// JSON: the parser says yes exactly when JSONDecoder does, with the same
    /// value. (Duplicate member names are left out: which one wins is not
    /// something a request relies on.)
    @Test func randomLinesOfJSONTokensAreJudgedAsJSONDecoderJudgesThem() {
        let tokens = ["{", "}", "[", "]", ",", ",", ":", " ", "\"a\"", "\"b\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"",
                      "1", "-2.5", "3e2", "0", "01", "true", "false", "null", "\"x\\n\"", "\"é\"", "1.", "-"]
        var generator = SplitMix(seed: 0x5717_15d)
        var accepted = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 9) + 1
            let text = (0..<count).map { _ in tokens[Int(generator.next() % UInt64(tokens.count))] }.joined()
            if text.ranges(of: "\"a\"").count > 1 || text.ranges(of: "\"b\"").count > 1 { continue }
            let bytes = Array(text.utf8)
            let theirs = Self.foundation(bytes), mine = Self.ours(bytes)
            #expect(theirs == mine, "\(text): JSONDecoder \(String(describing: theirs)), the parser \(String(describing: mine))")
            if mine != nil { accepted += 1 }
        }
        #expect(accepted > 500, "the generator hardly makes valid JSON (\(accepted)); the check says little")
    }
}

/// A small seeded generator: the same lines on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
