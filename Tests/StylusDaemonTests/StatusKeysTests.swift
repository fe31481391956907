// SPDX-License-Identifier: MIT
import Foundation
import StylusCore
@testable import StylusDaemon
import StylusProtocol
import Testing

@Suite("status reports the canvas's key table (canvas.keys)")
struct StatusKeysTests {
    typealias T = CommandHandlerTests

    static func keys(_ config: EngineConfig) throws -> [[String]] {
        let h = KeyCommandTests.openHandler(config)
        var topics: Set<Topic> = []
        guard case .object(let o) = try T.json(T.ask(h, #"{"id":1,"cmd":"status"}"#, topics: &topics)),
              case .object(let result)? = o["result"], case .object(let canvas)? = result["canvas"],
              case .array(let keys)? = canvas["keys"] else { throw T.Failure("no canvas.keys") }
        return keys.map { entry in
            guard case .object(let e) = entry, case .string(let key)? = e["key"], case .string(let action)? = e["action"] else { return [] }
            return [key, action]
        }
    }

    /// canvas-spec.json's `keys`, in the file's order.
    @Test func theDefaultsAreTheSpecsInItsOrder() throws {
        let keys = try Self.keys(EngineConfig())
        #expect(keys.count == 30)
        #expect(keys.first == ["p", "tool:pen"] && keys.last == ["escape", "minimize-canvas"])
        #expect(keys.contains(["ctrl+shift+z", "redo"]) && keys.contains(["plus", "width:+"]))
    }

    @Test func canvasKeysGoOverThemAndNoneUnbinds() throws {
        var config = EngineConfig()
        config.canvasKeys = ["q": .style(.set(tool: .eraser, color: nil, width: nil)), "p": .none, "e": .undo, "ctrl+alt+x": .redo]
        let keys = try Self.keys(config)
        #expect(!keys.contains { $0[0] == "p" }, "p = none is left out")
        #expect(keys.first { $0[0] == "e" } == ["e", "undo"])
        #expect(Array(keys.suffix(2)) == [["ctrl+alt+x", "redo"], ["q", "tool:eraser"]], "keys only [canvas.keys] binds come last, by name")
        #expect(keys.count == 30 + 1)
    }

    /// What the key command does with each key is what status says it does.
    @Test func theReportIsWhatTheKeyCommandActsBy() throws {
        var config = EngineConfig()
        config.canvasKeys = ["h": .undo, "ctrl+alt+x": .none]
        let h = KeyCommandTests.openHandler(config)
        for entry in try Self.keys(config) {
            let name = try CanvasKeyName.parse(entry[0]).get()
            #expect(h.canvasKeyAction(name)?.rawValue == entry[1])
        }
    }
}
