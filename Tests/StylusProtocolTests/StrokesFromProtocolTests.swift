// SPDX-License-Identifier: MIT
import Testing
import StylusCore
@testable import StylusProtocol

@Suite("strokes from an index on the wire")
struct StrokesFromProtocolTests {
    @Test func fromDecodesAndGoesBackTheSame() throws {
        let command = try PaletteProtocolTests.decode(#"{"cmd":"strokes","from":12}"#).get()
        #expect(command == .strokesFrom(12))
        #expect(command.name == .strokes)
        #expect(try ClientCommand(name: .strokes, fields: command.fields) == command)
        #expect(try PaletteProtocolTests.decode(#"{"cmd":"strokes"}"#).get() == .strokes)
    }

    @Test func aFromThatIsNoIndexIsABadRequestNamingIt() {
        for bad in ["-1", "1.5", "\"3\"", "1e300"] {
            #expect(PaletteProtocolTests.message(#"{"cmd":"strokes","from":\#(bad)}"#)?.hasPrefix(#""from" is a stroke's index"#) == true, "\(bad)")
        }
    }

    /// The answer lists the strokes from the index on, and how many the drawing has.
    @Test func theAnswerFromAnIndexListsTheRestAndTheCount() throws {
        let point = StrokePoint(x: 0.1, y: 0.1, pressure: 1, tiltX: 0, tiltY: 0, time: 1)
        let canvas = Canvas(state: .open, strokes: (1...3).map { Stroke(device: DeviceID($0), style: StrokeStyle(), points: [point]) })
        let tail = StrokesResult(canvas: canvas, from: 1)
        #expect(tail.from == 1 && tail.count == 3 && tail.strokes.map(\.device) == [2, 3])
        let past = StrokesResult(canvas: canvas, from: 7)
        #expect(past.strokes.isEmpty && past.count == 3)
        #expect(StrokesResult(canvas: canvas).from == nil && StrokesResult(canvas: canvas).strokes.count == 3)
    }
}
