// SPDX-License-Identifier: MIT
import FoundationEssentials
@testable import StylusCore
import Testing
@testable import StylusProtocol

/// The one number rule (`JSONNumber`): every hand-written line, and
/// JSONEncoder for the other responses, writes a number the same way.
@Suite("One number rule")
struct JSONNumberTests {
    static func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        JSONNumber.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ value: Float) -> String {
        var bytes: [UInt8] = []
        JSONNumber.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whole, fractional, tiny, huge, negative zero.
    static let pinned: [(Double, String)] = [
        (1, "1"), (-64, "-64"), (0, "0"), (12, "12"), (0.123, "0.123"), (-0.5, "-0.5"),
        (0.1 + 0.2, "0.30000000000000004"), (0.6164023372287145, "0.6164023372287145"),
        (1e15, "1000000000000000"), (1e16, "1e+16"), (1.2345678901234568e17, "1.2345678901234568e+17"),
        (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (0.0001, "0.0001"), (1e-5, "1e-05"), (2.5e-7, "2.5e-07"), (.leastNonzeroMagnitude, "5e-324"),
        (-0.0, "-0"),
    ]

    @Test func aDoubleIsItsShortestTextWithoutATrailingPointZero() {
        for (value, expected) in Self.pinned {
            #expect(Self.text(value) == expected, "\(value)")
        }
    }

    @Test func aFloatIsItsOwnShortestText() {
        let pinned: [(Float, String)] = [(0.1, "0.1"), (1, "1"), (-64, "-64"), (16_777_216, "16777216"), (1e-9, "1e-09"),
                                         (.greatestFiniteMagnitude, "3.4028235e+38"), (-0.0, "-0")]
        for (value, expected) in pinned {
            #expect(Self.text(value) == expected, "\(value)")
        }
    }

    @Test func aNonFiniteValueIsNullAndReportedAsSuch() {
        for value in [Double.infinity, -.infinity, .nan] {
            var bytes = Array("[".utf8)
            #expect(!JSONNumber.append(value, to: &bytes))
            #expect(String(decoding: bytes, as: UTF8.self) == "[null")
        }
        for value in [Float.infinity, -.infinity, .nan] {
            var bytes: [UInt8] = []
            #expect(!JSONNumber.append(value, to: &bytes))
            #expect(String(decoding: bytes, as: UTF8.self) == "null")
        }
        var bytes: [UInt8] = []
        #expect(JSONNumber.append(1.0, to: &bytes))
    }

    @Test func everyFiniteValueReadsBackBitForBitAndAsJSONEncoderWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        let encoder = JSONEncoder()
        for _ in 0..<2000 {
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            let float = Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &generator))
            let whole = Double(Int.random(in: -100_000...100_000, using: &generator))
            for value in [double, whole] where value.isFinite {
                #expect(Double(Self.text(value))?.bitPattern == value.bitPattern, "\(value)")
                #expect("[\(Self.text(value))]" == String(decoding: try encoder.encode([value]), as: UTF8.self))
            }
            if float.isFinite {
                #expect(Float(Self.text(float))?.bitPattern == float.bitPattern, "\(float)")
                #expect("[\(Self.text(float))]" == String(decoding: try encoder.encode([float]), as: UTF8.self))
            }
        }
    }

    /// A pen sample's, a `tool` event's and `status`'s numbers, and the
    /// writer's own, are each `JSONNumber`'s text (the state file's:
    /// `StateJSONNumberTests` in StylusDaemonTests).
    @Test func eventsAndStatusWriteTheSameTextForTheSameNumber() {
        let values = Self.pinned.map(\.0) + [.infinity, .nan]
        for value in values {
            let expected = Self.text(value)
            var w = JSONWriter()
            w.double(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == expected)

            let sample = PenSample(device: DeviceID(1), tool: .pen,
                                   axes: PenAxes(x: value, y: value, pressure: value, tiltX: value, tiltY: value),
                                   tipDown: true, adjustedX: value, adjustedY: value, scale: value, time: 1)
            let pen = String(decoding: sample.jsonLine(into: []), as: UTF8.self)
            for key in ["x", "y", "pressure", "tilt_x", "tilt_y", "adjusted_x", "adjusted_y", "scale"] {
                #expect(pen.contains(#","\#(key)":\#(expected),"#), "\(key) \(value) in \(pen)")
            }

            let style = StrokeStyle(tool: .pen, color: .red, width: value)
            let tool = EngineEvent.tool(ToolEvent(style: style, palette: false, colors: [], source: .command, time: 1))
            #expect(String(decoding: tool.jsonLine(), as: UTF8.self).contains(#""width":\#(expected),"#))

            let status = StatusResult(canvas: .init(state: "open", hasContent: false, strokeCount: 0, pointCount: 0, full: false),
                                      precision: .init(enabled: false, active: false),
                                      input: .init(mode: "pen", reason: nil, devices: [.init(device: 1, name: "p", kind: "pen", widthMM: value)]),
                                      config: .init(intervalMS: 500, debounceMS: 0, transitionMS: 250, fullSpeedPressure: value),
                                      tool: .init(style))
            let json = String(decoding: status.json, as: UTF8.self)
            for member in [#""full_speed_pressure":\#(expected),"#, #""width_mm":\#(expected)}"#, #""width":\#(expected)}"#] {
                #expect(json.contains(member), "\(member) in \(json)")
            }
        }
    }
}
