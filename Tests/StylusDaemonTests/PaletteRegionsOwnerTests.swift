// SPDX-License-Identifier: MIT
@testable import StylusDaemon
import StylusCore
import StylusProtocol
import Testing

@Suite("The palette's regions live as long as the connection that sent them")
struct PaletteRegionsOwnerTests {
    static let regions = #"{"id":1,"cmd":"palette-regions","regions":[{"x":0,"y":0.9,"width":0.05,"height":0.1,"select":"width:+"}]}"#

    @Test func theSendersDisconnectClearsThemAndNoOtherClientsDoes() {
        let h = CommandHandlerTests.handler()
        var topics: Set<Topic> = []
        _ = h.answer(Array(Self.regions.utf8), topics: &topics, now: 1_000, client: 7)
        #expect(h.engine.paletteRegions.count == 1)
        h.clientLeft(8, now: 2_000)
        #expect(h.engine.paletteRegions.count == 1, "another client's end took the palette away")
        h.clientLeft(7, now: 3_000)
        #expect(h.engine.paletteRegions.isEmpty, "a tap where a closed canvas's palette was would still select")
    }

    @Test func paletteShowsInStatusAndTheToolEvent() throws {
        let h = CommandHandlerTests.handler()
        var topics: Set<Topic> = []
        let answer = try CommandHandlerTests.json(h.answer(Array(#"{"id":2,"cmd":"palette","action":"show"}"#.utf8), topics: &topics, now: 1_000))
        guard case .object(let o) = answer, case .object(let result)? = o["result"], case .object(let tool)? = result["tool"] else {
            throw CommandHandlerTests.Failure("unexpected answer \(answer)")
        }
        #expect(tool["palette"] == .bool(true) && result["changed"] == .bool(true))
        let line = h.effects.events.compactMap { if case .tool = $0 { String(decoding: $0.jsonLine(), as: UTF8.self) } else { nil } }
        #expect(line.count == 1 && line[0].contains(#""palette":true"#))
    }
}
