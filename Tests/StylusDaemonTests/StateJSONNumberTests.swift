// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol
import Testing
@testable import StylusDaemon

/// The state file writes its numbers by the rule events and `status` follow
/// (`JSONNumberTests` in StylusProtocolTests pins the rule itself).
@Suite("State file numbers by the one rule")
struct StateJSONNumberTests {
    static func number<F>(_ value: F, _ append: (F, inout [UInt8]) -> Bool) -> String {
        var bytes: [UInt8] = []
        _ = append(value, &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func widthsAndPointsAreWrittenAsEventsAndStatusWriteThem() throws {
        let widths: [Double] = [1, 12, 64, 0.123, 2.5e-7, 1e16, -0.0, 0.30000000000000004]
        let floats: [Float] = [0, 1, -64, 0.1, 1e-9, 3.4028235e38, -0.0]
        for width in widths {
            let style = StrokeStyle(tool: .pen, color: .red, width: width)
            let points = floats.map { StrokePoint(x: $0, y: $0, pressure: $0, tiltX: $0, tiltY: $0, time: 1) }
            let canvas = Canvas(state: .open, strokes: [Stroke(device: DeviceID(1), style: style, points: points)], style: style)
            let json = String(decoding: try #require(PersistedState(canvas: canvas, precisionEnabled: false).json()), as: UTF8.self)
            let text = Self.number(width) { JSONNumber.append($0, to: &$1) }
            #expect(json.contains(#""width":\#(text),"#), "\(width) in \(json)")   // the stroke's
            #expect(json.contains(#""width":\#(text)}"#), "\(width) in \(json)")   // the style's
            let column = floats.map { Self.number($0) { JSONNumber.append($0, to: &$1) } }.joined(separator: ",")
            for key in ["x", "y", "pressure", "tilt_x", "tilt_y"] {
                #expect(json.contains(#""\#(key)":[\#(column)]"#), "\(key) in \(json)")
            }
        }
    }
}
