// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Each pen its own style")
struct PenToolTests {
    static let blue = StrokeColor(hex: "#3465a4")!
    static let red = StrokeColor.red

    @Test func twoPensAndAnEraserEndAreThreeToolsMostRecentFirst() {
        var h = EngineHarness()
        h.enter(serial: 0xa, at: 0)
        h.leave(at: 10)
        h.enter(.eraser, serial: 0xa, at: 20)
        h.leave(at: 30)
        h.enter(serial: 0xb, at: 40)
        let tools = h.engine.pens.tools
        #expect(tools.map(\.id.serial) == [0xb, 0xa, 0xa])
        #expect(tools.map(\.id.type) == [.pen, .eraser, .pen])
        #expect(tools[1].style.tool == .eraser, "the eraser end starts as the eraser")
        #expect(tools[0].id.device == "test pen")
    }

    @Test func aPenWithoutASerialIsKnownByDeviceAndType() {
        var h = EngineHarness()
        h.enter(at: 0)
        h.leave(at: 10)
        h.enter(at: 20)
        #expect(h.engine.pens.tools.count == 1)
        #expect(h.engine.pens.tools[0].id == PenToolID(device: "test pen", type: .pen))
        #expect(h.engine.pens.tools[0].name == "test pen (pen)")
    }

    @Test func blueChosenWithPenADoesNotColourPenB() {
        var h = EngineHarness.open()
        h.leave(at: 2)
        h.enter(serial: 0xa, at: 10)
        #expect(h.command(.style(.set(tool: nil, color: Self.blue, width: nil)), at: 11) == .done)
        h.stroke(at: 20, through: [(0.1, 0.1, 0.5), (0.2, 0.2, 0.5)])
        h.leave(at: 40)
        h.enter(serial: 0xb, at: 50)
        #expect(h.engine.canvas.style.color == Self.red)
        h.stroke(at: 60, through: [(0.3, 0.3, 0.5), (0.4, 0.4, 0.5)])
        h.leave(at: 80)
        h.enter(.eraser, serial: 0xa, at: 90)
        h.stroke(at: 100, through: [(0.3, 0.3, 0.5), (0.4, 0.4, 0.5)])
        let strokes = h.engine.canvas.strokes
        #expect(strokes.map(\.style.color) == [Self.blue, Self.red, Self.red])
        #expect(strokes.map(\.style.tool) == [.pen, .pen, .eraser])
        #expect(strokes.map(\.pen) == ["test pen (pen, serial 0x0000000a)", "test pen (pen, serial 0x0000000b)",
                                       "test pen (eraser, serial 0x0000000a)"])
        h.leave(at: 120)
        h.enter(serial: 0xa, at: 130)
        #expect(h.engine.canvas.style.color == Self.blue, "pen A comes back blue")
    }

    @Test func aStyleChosenWithNoPenInProximityGoesToTheLastSeen() {
        var h = EngineHarness()
        h.enter(serial: 0xa, at: 0)
        h.leave(at: 10)
        h.enter(serial: 0xb, at: 20)
        h.leave(at: 30)
        h.command(.style(.set(tool: .highlighter, color: nil, width: nil)), at: 40)
        #expect(h.engine.pens.tool(PenToolID(device: "test pen", type: .pen, serial: 0xb))?.style.tool == .highlighter)
        #expect(h.engine.pens.tool(PenToolID(device: "test pen", type: .pen, serial: 0xa))?.style.tool == .pen)
    }

    @Test func aNewToolStartsFromTheStyleChosenBeforeAnyToolWasSeen() {
        var h = EngineHarness()
        h.command(.style(.set(tool: nil, color: Self.blue, width: 3)), at: 0)
        h.enter(serial: 0xa, at: 10)
        #expect(h.engine.canvas.style == StrokeStyle(tool: .pen, color: Self.blue, width: 3))
        #expect(h.engine.pens.base.color == Self.blue)
    }

    @Test func theToolEventNamesThePenAndComesWhenTheStyleShown() {
        var h = EngineHarness()
        h.enter(serial: 0xa, at: 0)
        h.command(.style(.set(tool: nil, color: Self.blue, width: nil)), at: 1)
        h.leave(at: 2)
        h.events.removeAll()
        h.enter(.eraser, serial: 0xa, at: 10)
        let tools = h.events.compactMap { if case .tool(let e) = $0 { e } else { nil } }
        #expect(tools.count == 1)
        #expect(tools.first?.style.tool == .eraser)
        #expect(tools.first?.pen == "test pen (eraser, serial 0x0000000a)")
    }

    @Test func aThousandSerialsKeepTheTableBoundedOldestDropped() {
        var h = EngineHarness()
        for n in 1...1000 {
            h.enter(serial: UInt64(n), at: Double(n * 2))
            h.leave(at: Double(n * 2 + 1))
        }
        let tools = h.engine.pens.tools
        #expect(tools.count == ToolTable.capacity)
        #expect(tools.first?.id.serial == 1000)
        #expect(tools.last?.id.serial == UInt64(1000 - ToolTable.capacity + 1))
    }

    @Test func aSerialChangingWithinOneProximityIsReadAtProximityIn() {
        var f = EvdevTranslatorTests.Feeder(EvdevTranslatorTests.penDescription())
        f.frame(1, [(EV.msc, MSC.serial, 0x1234), (EV.abs, ABS.misc, 0x802), (EV.key, BTN.toolPen, 1)])
        f.frame(2, [(EV.msc, MSC.serial, 0x9999), (EV.abs, ABS.x, 50)])
        f.frame(3, [(EV.key, BTN.toolPen, 0)])
        f.frame(4, [(EV.msc, MSC.serial, 0), (EV.abs, ABS.misc, 0), (EV.key, BTN.toolRubber, 1)])
        let out = f.out
        let tools = out.compactMap { if case .proximityIn(_, let tool, _) = $0.input { tool } else { nil } }
        #expect(tools == [Tool(type: .pen, serial: 0x1234, toolID: 0x802), Tool(type: .eraser)])
        #expect(out.filter { if case .proximityOut = $0.input { true } else { false } }.count == 1)
    }

    @Test func aSerialOfZeroIsNoSerial() {
        #expect(PenToolID(device: "d", tool: Tool(type: .pen, serial: 0)) == PenToolID(device: "d", type: .pen))
        #expect(PenToolID(device: "d", type: .pen, serial: 0x1234abcd).derivedName == "d (pen, serial 0x1234abcd)")
    }

    @Test func aRestartKeepsEachPensStyleAndTheCanvasKeysApplyOverThem() {
        var h = EngineHarness()
        h.enter(serial: 0xa, at: 0)
        h.command(.style(.set(tool: nil, color: Self.blue, width: nil)), at: 1)
        h.leave(at: 2)
        h.enter(.eraser, serial: 0xa, at: 3)
        var config = EngineConfig()
        config.style = ConfiguredStyle(tool: .highlighter, color: nil, width: 12)
        var engine = Engine(config: config)
        engine.restore(canvas: h.engine.canvas, precisionEnabled: false)
        #expect(engine.canvas.style.tool == .eraser, "the eraser end keeps erasing")
        #expect(engine.canvas.style.width == 12)
        let pen = engine.pens.tool(PenToolID(device: "test pen", type: .pen, serial: 0xa))
        #expect(pen?.style == StrokeStyle(tool: .highlighter, color: Self.blue, width: 12))
    }
}
