// SPDX-License-Identifier: MIT
import Foundation
import StylusCore
@testable import StylusDaemon
import StylusProtocol
import Testing

@Suite("The key command")
struct KeyCommandTests {
    typealias T = CommandHandlerTests

    static func openHandler(_ config: EngineConfig = EngineConfig()) -> CommandHandler {
        let h = CommandHandler(config: config, buttonOnlyReason: nil, tracksPens: false, log: { _ in })
        h.restore(canvas: Canvas(state: .open, strokes: []), precisionEnabled: false)
        return h
    }

    static func answer(_ h: CommandHandler, _ key: String) throws -> [String: JSONValue] {
        var topics: Set<Topic> = []
        guard case .object(let o) = try T.json(T.ask(h, #"{"id":1,"cmd":"key","key":"\#(key)"}"#, topics: &topics)) else {
            throw T.Failure("not an object")
        }
        return o
    }

    static func message(_ o: [String: JSONValue]) -> String? {
        if case .object(let e)? = o["error"], case .string(let m)? = e["message"] { m } else { nil }
    }

    @Test func everyDefaultKeyDoesWhatItsActionDoes() throws {
        let h = Self.openHandler()
        #expect(try Self.answer(h, "h")["ok"] == .bool(true))
        #expect(h.engine.canvas.style.tool == .highlighter)
        _ = try Self.answer(h, "3")
        #expect(h.engine.canvas.style.color.hex == "#edd400")
        let width = h.engine.canvas.style.width
        _ = try Self.answer(h, "plus")
        #expect(h.engine.canvas.style.width > width)
        _ = try Self.answer(h, "-")
        #expect(h.engine.canvas.style.width == width)
        _ = try Self.answer(h, "Escape")
        #expect(h.engine.canvas.state == .minimizing)
    }

    @Test func aReboundKeyAnUnboundOneAndAKeyWhileMinimized() throws {
        var config = EngineConfig()
        config.canvasKeys = ["q": .style(.set(tool: .eraser, color: nil, width: nil)), "p": .none]
        let h = Self.openHandler(config)
        _ = try Self.answer(h, "q")
        #expect(h.engine.canvas.style.tool == .eraser)
        let unbound = try Self.answer(h, "p")
        #expect(unbound["ok"] == .bool(false) && Self.message(unbound) == "key p is not bound")
        #expect(h.engine.canvas.style.tool == .eraser, "nothing changed")

        let minimized = CommandHandler(config: config, buttonOnlyReason: nil, tracksPens: false, log: { _ in })
        let refused = try Self.answer(minimized, "q")
        #expect(Self.message(refused)?.contains("only while it is open") == true)
        #expect(minimized.engine.canvas.style.tool == .pen)
    }

    @Test(arguments: ["", "hyper+p", "ctrl+", "x\\u0000"])
    func aBadNameIsABadRequest(key: String) throws {
        let h = Self.openHandler()
        let o = try Self.answer(h, key)
        guard case .object(let e)? = o["error"] else { throw T.Failure("accepted \(key)") }
        #expect(e["code"] == .string("bad-request"))
        #expect(h.engine.canvas.style == Canvas(state: .open, strokes: []).style)
    }
}
