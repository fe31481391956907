// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
@testable import StylusDaemon
import StylusProtocol
import Testing

/// `pens` and `tool` with `"pen"`: each tool seen, and one pen's style set while another is in use.
@Suite("pens command")
struct PensCommandTests {
    /// Pen 0xa came and went, then pen 0xb came (in proximity), on the engine's clock in µs.
    static func twoPens() -> CommandHandler {
        let h = CommandHandlerTests.handler()
        h.handle(TimedPenInput(.deviceAdded(DeviceID(4), DeviceInfo(name: "Wacom Pen", kind: .pen)), at: 1_000_000))
        h.handle(TimedPenInput(.proximityIn(DeviceID(4), Tool(type: .pen, serial: 0xa, toolID: 0x802), PenAxes(x: 0.5, y: 0.5)), at: 2_000_000))
        h.handle(TimedPenInput(.proximityOut(DeviceID(4)), at: 3_000_000))
        h.handle(TimedPenInput(.proximityIn(DeviceID(4), Tool(type: .pen, serial: 0xb), PenAxes(x: 0.5, y: 0.5)), at: 4_000_000))
        return h
    }

    static func answer(_ h: CommandHandler, _ line: String, now: Int64 = 5_000_000) throws -> [String: JSONValue] {
        var topics: Set<Topic> = []
        guard case .object(let o) = try CommandHandlerTests.json(CommandHandlerTests.ask(h, line, topics: &topics, now: now)) else {
            throw CommandHandlerTests.Failure("not an object")
        }
        return o
    }

    @Test func pensListsEachToolMostRecentFirstWithItsStyleAndWhenItWasSeen() throws {
        let o = try Self.answer(Self.twoPens(), #"{"id":1,"cmd":"pens"}"#)
        guard case .object(let result)? = o["result"], case .array(let pens)? = result["pens"], pens.count == 2,
              case .object(let b) = pens[0], case .object(let a) = pens[1] else { throw CommandHandlerTests.Failure("\(o)") }
        #expect(b["name"] == .string("Wacom Pen (pen, serial 0x0000000b)"))
        #expect(b["serial"] == .string("0xb") && b["tool_id"] == nil && b["type"] == .string("pen"))
        #expect(b["last_seen_seconds_ago"] == .number(1))
        #expect(a["name"] == .string("Wacom Pen (pen, serial 0x0000000a)"), "the tool id is no part of the name")
        #expect(a["tool_id"] == .string("0x802") && a["last_seen_seconds_ago"] == .number(3))
        guard case .object(let style)? = a["style"] else { throw CommandHandlerTests.Failure("\(a)") }
        #expect(style["tool"] == .string("pen") && style["color"] == .string(StrokeColor.red.hex))
    }

    @Test func toolWithAPenSetsThatPensStyleAndLeavesTheOneInUse() throws {
        let h = Self.twoPens()
        let o = try Self.answer(h, ##"{"id":2,"cmd":"tool","color":"#3465a4","pen":"0xa"}"##)
        #expect(o["ok"] == .bool(true), "\(o)")
        let a = h.engine.pens.tool(PenToolID(device: "Wacom Pen", type: .pen, serial: 0xa))
        #expect(a?.style.color == StrokeColor(hex: "#3465a4"))
        #expect(h.engine.canvas.style.color == .red, "pen 0xb, in use, draws as before")
        let byName = try Self.answer(h, #"{"id":3,"cmd":"tool","width":9,"pen":"Wacom Pen (pen, serial 0x0000000b)"}"#)
        #expect(byName["ok"] == .bool(true) && h.engine.canvas.style.width == 9, "\(byName)")
    }

    @Test func toolForAnUnknownPenIsRefusedWithTheKnownOnesListed() throws {
        let o = try Self.answer(Self.twoPens(), ##"{"id":4,"cmd":"tool","color":"#3465a4","pen":"0xc"}"##)
        guard case .object(let error)? = o["error"], case .string(let message)? = error["message"] else { throw CommandHandlerTests.Failure("\(o)") }
        #expect(o["ok"] == .bool(false))
        #expect(message.contains("no pen \"0xc\"") && message.contains("Wacom Pen (pen, serial 0x0000000b)")
                && message.contains("Wacom Pen (pen, serial 0x0000000a)"), "\(message)")
        let bad = try Self.answer(Self.twoPens(), #"{"id":5,"cmd":"tool","pen":3}"#)
        #expect(bad["ok"] == .bool(false))
    }
}
