// SPDX-License-Identifier: MIT
import Testing
import StylusCore
@testable import StylusProtocol

@Suite("draw on the wire")
struct DrawProtocolTests {
    static func decode(_ line: String) -> Result<ClientCommand, ProtocolError> { PaletteProtocolTests.decode(line) }
    static func message(_ line: String) -> String? { PaletteProtocolTests.message(line) }

    @Test func aDrawDecodesWithAndWithoutPressureAndGoesBackTheSame() throws {
        let command = try Self.decode(#"{"cmd":"draw","source":"touch","phase":"down","points":[[0.25,0.5],[0.5,0.75,0.3]],"aspect":0.5625}"#).get()
        let request = DrawRequest(source: .touch, phase: .down,
                                  points: [.init(x: 0.25, y: 0.5), .init(x: 0.5, y: 0.75, pressure: 0.3)], aspect: 0.5625)
        #expect(command == .draw(request))
        #expect(command.name == .draw)
        #expect(try ClientCommand(name: .draw, fields: command.fields) == command)
        #expect(try Self.decode(#"{"cmd":"draw","source":"pointer","phase":"cancel"}"#).get()
                == .draw(DrawRequest(source: .pointer, phase: .cancel, points: [])))
    }

    @Test func badShapesAreBadRequestsNamingTheValue() {
        #expect(Self.message(#"{"cmd":"draw","phase":"down","points":[[0,0]]}"#)?.hasPrefix(#"draw needs "source": "pointer" or "touch""#) == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pen","phase":"down","points":[[0,0]]}"#)?.hasSuffix(#", not "pen""#) == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"hover"}"#)?.contains(#"not "hover""#) == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"move","points":[[0]]}"#)?.hasPrefix("points[0] must be [x, y] or [x, y, pressure]") == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"move","points":[[0,"1"]]}"#)?.hasPrefix("points[0] must hold numbers") == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"move","points":{}}"#)?.hasPrefix(#""points" must be an array"#) == true)
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"down","points":[[0,0]],"aspect":"wide"}"#)?.hasPrefix(#""aspect" must be a number"#) == true)
        let many = Array(repeating: "[0.5,0.5]", count: DrawRequest.maxPoints + 1).joined(separator: ",")
        #expect(Self.message(#"{"cmd":"draw","source":"pointer","phase":"move","points":["# + many + "]}")?.hasSuffix("at most \(DrawRequest.maxPoints)") == true)
    }

    @Test func aStrokeSaysItsSourceInStrokes() throws {
        var canvas = Canvas(state: .open, strokes: [
            Stroke(device: DeviceID(1), style: StrokeStyle(), points: [StrokePoint(x: 0, y: 0, pressure: 1, tiltX: 0, tiltY: 0, time: 0)]),
            Stroke(device: StrokeSource.touch.device!, style: StrokeStyle(), points: [StrokePoint(x: 0, y: 0, pressure: 1, tiltX: 0, tiltY: 0, time: 0)]),
        ])
        canvas = Canvas(state: canvas.state, strokes: canvas.strokes)
        #expect(StrokesResult(canvas: canvas).strokes.map(\.source) == ["pen", "touch"])
    }
}
