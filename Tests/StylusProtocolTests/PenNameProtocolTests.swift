// SPDX-License-Identifier: MIT
@testable import StylusCore
import StylusProtocol
import Testing

/// The pen tool's name where the socket and `stylusd replay` show a sample or a stroke.
@Suite("The pen's name in samples and stroke events")
struct PenNameProtocolTests {
    static let name = #"Wacom "Pro" Pen (pen, serial 0x0000000a)"#

    @Test func aSampleCarriesItsPensNameAndNoneBeforeAPenWasSeen() {
        var sample = PenSample(device: DeviceID(1), tool: .pen, axes: PenAxes(x: 0.5, y: 0.5), tipDown: false,
                               adjustedX: 0.5, adjustedY: 0.5, scale: 1, time: 7, pen: Self.name)
        let line = String(decoding: sample.jsonLine(into: []), as: UTF8.self)
        #expect(line.hasPrefix(#"{"event":"pen","device":1,"tool":"pen","pen":"Wacom \"Pro\" Pen (pen, serial 0x0000000a)","x":0.5,"#), "\(line)")
        sample.pen = nil
        #expect(!String(decoding: sample.jsonLine(into: []), as: UTF8.self).contains(#""pen":"#))
    }

    @Test func aStrokeEventNamesThePenInJSONAndInReplaysText() {
        let event = EngineEvent.stroke(StrokeEvent(device: DeviceID(1), index: 3, points: 40, time: 2_000_000, pen: Self.name))
        let line = String(decoding: event.jsonLine(into: []), as: UTF8.self)
        #expect(line.contains(#""pen":"Wacom \"Pro\" Pen (pen, serial 0x0000000a)""#), "\(line)")
        let text = event.text
        #expect(text.hasSuffix("stroke 3 recorded, 40 points, by " + Self.name), "\(text)")
        let anonymous = EngineEvent.stroke(StrokeEvent(device: DeviceID(1), index: 3, points: 40, time: 2_000_000))
        #expect(anonymous.text.hasSuffix("stroke 3 recorded, 40 points"))
        #expect(!String(decoding: anonymous.jsonLine(into: []), as: UTF8.self).contains(#""pen":"#))
    }
}
