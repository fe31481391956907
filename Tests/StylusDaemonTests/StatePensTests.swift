// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusDaemon

@Suite("State file: each pen's style")
struct StatePensTests {
    static func canvasWithPens() -> Canvas {
        var engine = Engine()
        var effects = Effects()
        let blue = StrokeColor(hex: "#3465a4")!
        engine.handle(.deviceAdded(DeviceID(1), DeviceInfo(name: "Wacom \"Pro\" Pen", kind: .pen)), at: 0, into: &effects)
        engine.handle(.proximityIn(DeviceID(1), Tool(type: .pen, serial: 0x1234abcd, toolID: 0x802), PenAxes()), at: 1, into: &effects)
        _ = engine.perform(.openCanvas, at: 2, into: &effects)
        _ = engine.perform(.acknowledgeTransition, at: 3, into: &effects)
        _ = engine.perform(.style(.set(tool: nil, color: blue, width: 5.5)), at: 4, into: &effects)
        engine.handle(.tipDown(DeviceID(1), PenAxes(x: 0.1, y: 0.1, pressure: 0.5)), at: 5, into: &effects)
        engine.handle(.tipUp(DeviceID(1), PenAxes(x: 0.2, y: 0.1, pressure: 0)), at: 6, into: &effects)
        engine.handle(.proximityIn(DeviceID(1), Tool(type: .eraser, serial: 0x1234abcd, toolID: 0x80a), PenAxes()), at: 7, into: &effects)
        return engine.canvas
    }

    @Test func theToolsAndEachStrokesPenSurviveASaveAndLoad() throws {
        let canvas = Self.canvasWithPens()
        #expect(canvas.pens.tools.count == 2)
        let state = PersistedState(canvas: canvas, precisionEnabled: false)
        let bytes = try #require(state.json())
        #expect(bytes == (try StateJSONTests.encoderBytes(state)), "written as JSONEncoder writes it")
        let path = "\(StateStoreTests.temporaryDirectory())/state.json"
        try StateStore(path: path).save(state)
        guard case .loaded(let loaded, _) = StateStore(path: path).load(now: 1) else {
            Issue.record("not loaded")
            return
        }
        #expect(loaded.pens.tools.map(\.id) == canvas.pens.tools.map(\.id))
        #expect(loaded.pens.tools.map(\.style) == canvas.pens.tools.map(\.style))
        #expect(loaded.pens.tools.map(\.toolID) == [0x80a, 0x802], "the tool ids last seen")
        #expect(loaded.pens.base == canvas.pens.base)
        #expect(loaded.strokes.map(\.pen) == ["Wacom \"Pro\" Pen (pen, serial 0x1234abcd)"])
        var engine = Engine()
        engine.restore(canvas: loaded, precisionEnabled: false)
        #expect(engine.canvas.style.tool == .eraser, "the tool last in use is the one shown")
    }

    @Test func aFileWithoutPensLoadsUnchanged() throws {
        let old = ##"{"canvas":"open","precision_enabled":false,"strokes":[],"style":{"color":"#3465a4","tool":"pen","width":4},"version":2}"##
        let path = StateVersionTests.writeFile(old)
        guard case .loaded(let loaded, _) = StateStore(path: path).load(now: 1) else {
            Issue.record("not loaded")
            return
        }
        #expect(loaded.pens.tools.isEmpty)
        #expect(loaded.style == StrokeStyle(tool: .pen, color: StrokeColor(hex: "#3465a4")!, width: 4))
        #expect(loaded.pens.base == loaded.style)
        let again = try #require(PersistedState(canvas: loaded, precisionEnabled: false).json())
        #expect(String(decoding: again, as: UTF8.self) == old.replacing(#""version":2"#, with: #""version":3"#),
                "and is written back as it was, in the current version")
    }

    /// A file written while the tool id was part of who a tool is may hold one pen twice: the most recent stays.
    @Test func onePenKeptTwiceUnderTwoToolIDsLoadsAsOneTool() throws {
        func pen(_ toolID: Int, _ color: String) -> String {
            ##"{"device":"Wacom Pen","previous_tool":"highlighter","serial":10,"style":{"color":"\##(color)","tool":"pen","width":4},"tool_id":\##(toolID),"type":"pen"}"##
        }
        let file = ##"{"canvas":"open","pens":[\##(pen(0x802, "#3465a4")),\##(pen(0x80a, "#d61a1c"))],"precision_enabled":false,"strokes":[],"style":{"color":"#d61a1c","tool":"pen","width":4},"version":2}"##
        guard case .loaded(let loaded, _) = StateStore(path: StateVersionTests.writeFile(file)).load(now: 1) else {
            Issue.record("not loaded")
            return
        }
        #expect(loaded.pens.tools.count == 1)
        #expect(loaded.pens.tools.first?.toolID == 0x802 && loaded.pens.tools.first?.style.color == StrokeColor(hex: "#3465a4"))
    }
}
