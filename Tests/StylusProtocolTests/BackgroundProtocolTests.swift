// SPDX-License-Identifier: MIT
import FoundationEssentials
import Testing
import StylusCore
@testable import StylusProtocol

@Suite("background on the wire")
struct BackgroundProtocolTests {
    static func decode(_ line: String) -> Result<ClientCommand, ProtocolError> {
        Request.decode(Array(line.utf8)).map(\.command).mapError(\.error)
    }

    @Test func theCommandDecodesWithOrWithoutAValue() throws {
        #expect(try Self.decode(#"{"cmd":"background"}"#).get() == .background(nil))
        #expect(try Self.decode(#"{"cmd":"background","background":"white"}"#).get() == .background(.set(.white)))
        #expect(try Self.decode(#"{"cmd":"background","background":"next"}"#).get() == .background(.next))
        #expect(try Self.decode(##"{"cmd":"background","background":"#1E1E1E"}"##).get()
                == .background(.set(.color(StrokeColor(hex: "#1e1e1e")!))))
        // What a client sends is what the daemon reads back.
        let command = ClientCommand.background(.set(.grid))
        #expect(command.name == .background && command.fields == ["background": .string("grid")])
        #expect(ClientCommand.background(nil).fields.isEmpty)
    }

    @Test func aBadValueIsRefusedByName() {
        for (line, named) in [(#"{"cmd":"background","background":"paper"}"#, "\"paper\""),
                              (#"{"cmd":"background","background":3}"#, "3"),
                              (##"{"cmd":"background","background":"#12345"}"##, "\"#12345\"")] {
            guard case .failure(let e) = Self.decode(line) else {
                Issue.record("\(line) was accepted")
                continue
            }
            #expect(e.code == .badRequest)
            #expect(e.message == "unknown background \(named); use none, white, black, grid, a CSS colour name or #rrggbb, or next", "\(e.message)")
        }
    }

    @Test func theEventIsInTheToolTopicAndStatusCarriesTheBoard() throws {
        let event = EngineEvent.background(BackgroundEvent(background: .grid, source: .pen, time: 1_500_000))
        #expect(String(decoding: event.jsonLine(), as: UTF8.self)
                == #"{"event":"background","background":"grid","source":"pen","time_us":1500000}"# + "\n")
        #expect(Topic(event) == .tool && Topic(eventName: "background") == .tool)
        #expect(event.text == "1.500000 background grid (pen)")
        let canvas = StatusResult.CanvasInfo(state: "open", hasContent: false, strokeCount: 0, pointCount: 0, full: false, background: "white")
        let status = StatusResult(canvas: canvas, precision: .init(enabled: false, active: false),
                                  input: .init(mode: "pen", reason: nil, devices: []),
                                  config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250))
        let json = String(decoding: status.json, as: UTF8.self)
        #expect(json.contains(#""canvas":{"background":"white","full":false"#), "\(json)")
        let decoded = try JSONDecoder().decode(StatusResult.self, from: Data(status.json))
        #expect(decoded.canvas.background == "white")
    }
}
