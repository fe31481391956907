// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusProtocol

/// `StatusResult.json` is written by hand for speed; clients must not see a
/// byte of difference from what JSONEncoder wrote before it.
@Suite("status written by hand, byte for byte as JSONEncoder")
struct StatusJSONTests {
    static func encoded(_ status: StatusResult) -> String {
        String(decoding: try! ProtocolV1.encoder.encode(status), as: UTF8.self)
    }

    static let full = StatusResult(
        canvas: .init(state: "minimizing", hasContent: true, strokeCount: 12, pointCount: 4096, full: true),
        precision: .init(enabled: true, active: true),
        input: .init(mode: "pen", reason: nil, devices: [
            .init(device: 3, name: "Wacom \"One\" /dev\\pen\n\t\u{1}\u{8}\u{c}\r é✓🖊", kind: "pen", widthMM: 216.5, heightMM: 135,
                  direct: true, bus: "usb", vendor: 1386),
            .init(device: 4, name: "pad", kind: "pad"),
        ]),
        config: .init(intervalMS: 333, debounceMS: 0, transitionMS: 5000, fullSpeedPressure: 0.6, preset: "fast",
                      bindings: [.init(button: "BTN_STYLUS", action: "toggle-canvas"),
                                 .init(button: "pad-2", action: "key:LEFTCTRL+Z", unavailable: "no virtual keyboard: /dev/uinput: permission denied")]),
        output: .init(mode: "filter", requested: "auto", reason: "filter: /dev/uinput is writable", waiting: ["/dev/input/event5", "/dev/input/event7"],
                      capturesPen: true),
        overlay: .init(backend: "layer-shell", outputs: 2),
        changed: true, reason: "why \"not\"")

    static let bare = StatusResult(
        canvas: .init(state: "open", hasContent: false, strokeCount: 0, pointCount: 0, full: false),
        precision: .init(enabled: false, active: false),
        input: .init(mode: "button-only", reason: "no pen", devices: []),
        config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250))

    @Test func aCachedResultIsAnsweredWithTheRequestIdAsJSONEncoderWritesIt() throws {
        let ids: [JSONValue] = [.null, .bool(true), .bool(false), .number(7), .number(-3.5), .number(1e300), .number(0.1),
                                .number(-0.0), .number(123456789012), .string(""), .string("a\"b\\c/d\n\u{1}é🖊"),
                                .array([.number(1), .string("x")]), .object(["b": .number(1), "a": .null])]
        let result = Response.EncodedResult(status: Self.bare)
        for id in ids {
            let expected = Array(try ProtocolV1.encoder.encode(Response.Success(id: id, result: Self.bare))) + [0x0a]
            #expect(String(decoding: Response.success(id: id, encodedResult: result), as: UTF8.self)
                    == String(decoding: expected, as: UTF8.self), "id \(id)")
        }
    }

    @Test func everyFieldSetOrAbsentIsWrittenAsJSONEncoderWritesIt() {
        for status in [Self.full, Self.bare] {
            #expect(String(decoding: status.json, as: UTF8.self) == Self.encoded(status))
        }
        var noBindings = Self.full
        noBindings.config.bindings = []
        noBindings.output?.waiting = []
        noBindings.output?.capturesPen = nil
        noBindings.changed = false
        #expect(String(decoding: noBindings.json, as: UTF8.self) == Self.encoded(noBindings))
    }

    @Test func doublesAndControlCharactersMatchOverManyValues() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var status = Self.full
            let pressure: Double = switch Int.random(in: 0..<4, using: &generator) {
            case 0: Double(Int.random(in: 0...3, using: &generator))                // whole numbers: "1", not "1.0"
            case 1: (Double.random(in: 0...1, using: &generator) * 100).rounded() / 100
            case 2: Double.random(in: 1e-9...1e-3, using: &generator)                // exponent notation
            default: Double.random(in: 1e15...1e22, using: &generator)
            }
            status.config.fullSpeedPressure = pressure
            status.input.devices[0].widthMM = (Double.random(in: 0...400, using: &generator) * 10).rounded() / 10
            status.input.devices[0].name = String(String.UnicodeScalarView((0..<8).map { _ in
                Unicode.Scalar(UInt8.random(in: 0...0x7f, using: &generator))
            }))
            status.reason = String(String.UnicodeScalarView([Unicode.Scalar(0x2028)!, Unicode.Scalar(0x7f), Unicode.Scalar(0x1f)]))
            #expect(String(decoding: status.json, as: UTF8.self) == Self.encoded(status), "pressure \(pressure)")
        }
    }

    @Test func theDaemonsAnswerCarriesTheHandWrittenBytes() {
        let answer = Response.success(id: .number(7), encodedResult: .init(status: Self.full))
        #expect(answer == Response.success(id: .number(7), Self.full))
    }
}
