// SPDX-License-Identifier: MIT
@testable import StylusCore
import Testing
@testable import StylusProtocol

/// `export`, `submit` and `discard` as clients send them, and what a bad
/// export request is told before the daemon touches a file.
@Suite("export, submit and discard requests")
struct ExportProtocolTests {

    @Test func anExportRequestRoundTrips() throws {
        for command in [ClientCommand.export(path: "/tmp/a.png", width: nil, height: nil), .export(path: "/tmp/B.SVG", width: 800, height: 600),
                        .submit, .discard] {
            let line = Request(id: .number(4), command: command).line
            #expect(try Request.decode(Array(line.dropLast())).get().command == command)
        }
        #expect(ExportFormat(path: "/x/y.PNG") == .png && ExportFormat(path: "/x.y/z") == nil && ExportFormat(path: "/x/y.jpg") == nil)
    }

    @Test(arguments: [
        (#"{"id":1,"cmd":"export"}"#, #"export needs "path""#),
        (#"{"id":1,"cmd":"export","path":"a.png"}"#, #"must be absolute"#),
        (#"{"id":1,"cmd":"export","path":"/tmp/a.jpg"}"#, #"cannot tell the format of "/tmp/a.jpg": export writes a file ending in .png or .svg"#),
        (#"{"id":1,"cmd":"export","path":"/tmp/a.png","width":0,"height":10}"#, #""width" must be a whole number of pixels from 1 to 8192, not 0"#),
        (#"{"id":1,"cmd":"export","path":"/tmp/a.png","width":10,"height":10000}"#, #""height" must be a whole number of pixels from 1 to 8192, not 10000"#),
        (#"{"id":1,"cmd":"export","path":"/tmp/a.png","width":10.5,"height":10}"#, #"not 10.5"#),
        (#"{"id":1,"cmd":"export","path":"/tmp/a.png","width":100}"#, #"takes "width" and "height" together"#),
    ] as [(String, String)])
    func aBadExportNamesTheValueAndTheRange(line: String, message: String) {
        guard case .failure(let f) = ProtocolTests.decode(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(f.error.code == .badRequest)
        #expect(f.error.message.contains(message), "\(f.error.message)")
    }

    @Test func theHelpersGetEveryStrokesStyleAndPointsBackAndTheJSONToo() throws {
        let strokes = [
            Stroke(device: DeviceID(3), style: StrokeStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 12.5),
                   points: [StrokePoint(x: 0.1, y: 0.2, pressure: 0.3, tiltX: 5, tiltY: 6, time: 7),
                            StrokePoint(x: 1, y: 0, pressure: 1, tiltX: 0, tiltY: 0, time: 8)]),
            Stroke(device: DeviceID(3), style: StrokeStyle(tool: .eraser), points: []),
        ]
        let read = try #require(StrokeRecords.decode(StrokeRecords.encode(strokes)))
        #expect(read.map(\.style) == strokes.map(\.style))
        #expect(read.map { $0.points.map { [$0.x, $0.y, $0.pressure] } } == strokes.map { $0.points.map { [$0.x, $0.y, $0.pressure] } },
                "the very bits of every point")
        #expect(StrokeRecords.decode(Array(StrokeRecords.encode(strokes).dropLast(4))) == nil, "a cut record is refused, not read short")
        let json = Response.EncodedResult(StrokesResult(canvas: Canvas(state: .open, strokes: strokes))).bytes
        #expect(StrokeRecords.decode(json)?.map(\.style) == strokes.map(\.style))
        #expect(StrokeRecords.decode(Array("nonsense".utf8)) == nil)
    }

    @Test func aDrawingsEndIsOnItsCanvasEvent() {
        var event = CanvasEvent(state: .minimizing, source: .command, cause: .submit, hasContent: true, strokeCount: 2, time: 5)
        event.result = .submitted
        event.path = "/home/u/Pictures/stylusd/a \"b\".png"
        let line = String(decoding: EngineEvent.canvas(event).jsonLine(), as: UTF8.self)
        #expect(line.contains(#""result":"submitted","path":"/home/u/Pictures/stylusd/a \"b\".png""#), "\(line)")
        let plain = String(decoding: EngineEvent.canvas(CanvasEvent(state: .open, source: .pen, cause: .ack, hasContent: false, strokeCount: 0, time: 9)).jsonLine(), as: UTF8.self)
        #expect(!plain.contains("result") && !plain.contains("path"), "no result where no drawing ends")
    }
}
