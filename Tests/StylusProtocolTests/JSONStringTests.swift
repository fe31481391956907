// SPDX-License-Identifier: MIT
import FoundationEssentials
@testable import StylusCore
import Testing
@testable import StylusProtocol

/// Every hand-written line escapes strings through `JSONString`; clients
/// decode them with JSONDecoder and compare them with JSONEncoder's lines.
@Suite("the one JSON string escaper, as JSONEncoder")
struct JSONStringTests {
    static let awkward: [String] = [
        "",
        "plain",
        "a \"quoted\" \\ back/slash",
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self),
        "\u{7f} é ✓ 🖊 \u{2028}\u{2029}",
        "Wacom \"One\" /dev\\pen\n\t\u{1}\u{8}\u{c}\r",
    ]

    static func quoted(_ value: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONString.appendQuoted(value, to: &bytes)
        return bytes
    }

    @Test(arguments: awkward)
    func escapesAsJSONEncoderDoes(_ value: String) throws {
        #expect(Self.quoted(value) == Array(try ProtocolV1.encoder.encode(value)))
    }

    @Test(arguments: awkward)
    func readsBackWithJSONDecoder(_ value: String) throws {
        #expect(try JSONDecoder().decode(String.self, from: Data(Self.quoted(value))) == value)
    }

    @Test func backspaceAndFormFeedByLetter() {
        #expect(String(decoding: Self.quoted("\u{8}\u{c}\u{1}"), as: UTF8.self) == #""\b\f\u0001""#)
    }

    @Test func anEventLineWithControlCharactersReadsBack() throws {
        let name = "pen\u{8}\u{c}\"/\\"
        let line = EngineEvent.device(DeviceEvent(change: .added, device: DeviceID(1), info: DeviceInfo(name: name, kind: .pen), endedStroke: false, time: 1)).jsonLine()
        guard case .event(let event)? = ServerLine.decode(line) else { throw Failure() }
        #expect(event.string("name") == name)
    }

    struct Failure: Error {}
}
