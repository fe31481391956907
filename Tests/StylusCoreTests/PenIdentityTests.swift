// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

/// Who a tool is: (device, type, serial) with a serial, (device, type)
/// without; the tool id is what was last seen of it, never part of who it is.
@Suite("Pen tool identity")
struct PenIdentityTests {
    static let blue = StrokeColor(hex: "#3465a4")!

    /// As on the Cintiq 22HDT recording: the pen's first proximity-in carries
    /// the eraser's tool id (0x10080a), the kernel's ABS_MISC a frame late.
    @Test func aStaleToolIDAtProximityInLeavesOnePenOneTool() {
        var h = EngineHarness()
        h.enter(serial: 0x28886c4b, toolID: 0x10080a, at: 0)
        h.command(.style(.set(tool: nil, color: Self.blue, width: nil)), at: 1)
        h.leave(at: 10)
        h.enter(serial: 0x28886c4b, toolID: 0x100802, at: 20)
        let tools = h.engine.pens.tools
        #expect(tools.count == 1)
        #expect(tools.first?.toolID == 0x100802, "the last tool id seen")
        #expect(h.engine.canvas.style.color == Self.blue, "the same pen keeps its style")
        #expect(tools.first?.name == "test pen (pen, serial 0x28886c4b)", "a name of its identity alone")
    }

    @Test func theEraserEndOfOneSerialIsASecondToolWhateverItsToolID() {
        var h = EngineHarness()
        for (i, (type, toolID)) in [(ToolType.pen, UInt64(0x100804)), (.eraser, 0x10080c), (.pen, 0x100804), (.eraser, 0x100804)].enumerated() {
            h.enter(type, serial: 0x9b800030, toolID: toolID, at: Double(i * 20))
            h.leave(at: Double(i * 20 + 10))
        }
        #expect(h.engine.pens.tools.map(\.id.type) == [.eraser, .pen])
        #expect(h.engine.pens.tools.map(\.toolID) == [0x100804, 0x100804])
    }

    @Test func withoutASerialTheToolIDDoesNotSplitAPen() {
        var h = EngineHarness()
        h.enter(toolID: 0x802, at: 0)
        h.leave(at: 10)
        h.enter(toolID: 0x822, at: 20)
        h.leave(at: 30)
        h.enter(at: 40)
        #expect(h.engine.pens.tools.count == 1)
        #expect(h.engine.pens.tools.first?.toolID == 0x822, "0 is no tool id: the last one reported stays")
    }

    @Test func aToolIDSeenLaterNamesThePenByTheTableOfThatToolID() {
        var config = EngineConfig()
        config.pens = [PenConfig(name: "marker", toolID: 0x100802, style: ConfiguredStyle(tool: .highlighter))]
        var h = EngineHarness(config: config)
        h.enter(serial: 0xa, toolID: 0x10080a, at: 0)
        #expect(h.engine.pens.tools.first?.name == "test pen (pen, serial 0x0000000a)")
        h.leave(at: 10)
        h.enter(serial: 0xa, toolID: 0x100802, at: 20)
        #expect(h.engine.pens.tools.first?.name == "marker")
        #expect(h.engine.pens.tools.count == 1)
    }

    /// Any order of proximity-ins of serials with changing tool ids: one tool per (type, serial).
    /// Each step is a type (bit 0), a serial (0..<4, 0 none) and a tool id (0..<5, 0 none).
    @Test func oneToolPerTypeAndSerialWhateverTheToolIDs() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...39).array(of: 1...60)) { steps in
            var h = EngineHarness()
            var seen = Set<PenToolID>()
            var lastToolID: [PenToolID: UInt64] = [:]
            for (n, step) in steps.enumerated() {
                let type: ToolType = step % 2 == 0 ? .pen : .eraser
                let serial = UInt64(step / 2 % 4), toolID = UInt64(step / 8)
                h.enter(type, serial: serial, toolID: toolID, at: Double(n * 10))
                h.leave(at: Double(n * 10 + 5))
                let id = PenToolID(device: "test pen", type: type, serial: serial)
                seen.insert(id)
                if toolID != 0 { lastToolID[id] = toolID }
            }
            #expect(h.engine.pens.tools.count == seen.count, "\(steps)")
            #expect(Set(h.engine.pens.tools.map(\.id)) == seen, "\(steps)")
            #expect(h.engine.pens.tools.allSatisfy { $0.toolID == lastToolID[$0.id, default: 0] }, "\(steps)")
        }
    }
}
