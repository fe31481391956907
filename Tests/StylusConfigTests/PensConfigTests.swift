// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusConfig
import StylusConfigParser

@Suite("config.toml's [pens.NAME]")
struct PensConfigTests {
    @Test func eachPenIsReadByItsSerialToolIdOrDeviceAndType() throws {
        let c = try ConfigFileTests.load("""
            [pens.blue]
            serial = "0x1234ABCD"
            color = "#3465a4"
            width = 4

            [pens.marker]
            tool_id = "0x802"
            tool = "highlighter"

            [pens.cheap]
            device = "Huion Pen"
            type = "pen"
            """)
        #expect(c.pens.map(\.name) == ["blue", "cheap", "marker"])
        #expect(c.pens[0] == PenConfig(name: "blue", serial: 0x1234abcd, style: ConfiguredStyle(color: StrokeColor(hex: "#3465a4")!, width: 4)))
        #expect(c.pens[1] == PenConfig(name: "cheap", device: "Huion Pen", type: .pen))
        #expect(c.pens[2] == PenConfig(name: "marker", toolID: 0x802, style: ConfiguredStyle(tool: .highlighter)))
        let pen = PenToolID(device: "Wacom", type: .pen, serial: 0x1234abcd)
        #expect(c.penConfig(for: pen, toolID: 0x802)?.name == "blue", "the first by name")
        #expect(c.penConfig(for: PenToolID(device: "Wacom", type: .pen, serial: 0x5), toolID: 0x802)?.name == "marker", "by the tool id last seen")
    }

    @Test func aPensCurveAndBindingsAreReadAsTheDaemonsAre() throws {
        let c = try ConfigFileTests.load("""
            [bindings]
            BTN_STYLUS = "toggle-canvas"

            [pens.blue]
            serial = "0xa"
            curve = [0, 60, 40, 100]

            [pens.blue.bindings]
            BTN_STYLUS = "undo"
            BTN_STYLUS2 = "color:next"
            """)
        #expect(c.pens.first?.curve == PressureCurve(x1: 0, y1: 0.6, x2: 0.4, y2: 1))
        #expect(c.pens.first?.bindings == ["BTN_STYLUS": .undo, "BTN_STYLUS2": .style(.nextColor)])
        #expect(c.binding(for: .side(.stylus)) == .toggleCanvas, "[bindings] stays for the other pens")
    }

    @Test(arguments: [
        ("[pens.a]\nserial = \"0x1\"\nink = 3\n", 3, "pens.a.ink", "unknown key"),
        ("[pens.a]\nserial = 0\n", 2, "pens.a.serial", "other than 0"),
        ("[pens.a]\nserial = \"0xzz\"\n", 2, "pens.a.serial", "found \"0xzz\""),
        ("[pens.a]\ntool_id = true\n", 2, "pens.a.tool_id", "expected a tool id \"0x…\" other than 0 (0 means the pen reports none), found bool"),
        ("[pens.a]\ncolor = \"#3465a4\"\n", 1, "pens.a", "names no pen"),
        ("[pens.a]\nserial = \"0x1\"\ncolor = \"blue-ish\"\n", 3, "pens.a.color", "#RRGGBB"),
        ("[pens.a]\nserial = \"0x1\"\nwidth = 100\n", 3, "pens.a.width", "1 to 64"),
        ("[pens.a]\nserial = \"0x1\"\ntool = \"chisel\"\n", 3, "pens.a.tool", "unknown tool \"chisel\""),
        ("[pens.a]\ndevice = \"X\"\ntype = \"quill\"\n", 3, "pens.a.type", "unknown type \"quill\""),
        ("[pens.a]\nserial = \"0x1\"\n[pens.b]\nserial = \"0x01\"\n", 4, "pens.b.serial", "already named by [pens.a]"),
        ("pens = 3\n", 1, "pens", "expected tables"),
        ("[pens.a]\nserial = \"0x1\"\ncurve = [0, 0, 100]\n", 3, "pens.a.curve", "expected four numbers 0-100"),
        ("[pens.a]\nserial = \"0x1\"\ncurve = [0, 0, 100, 120]\n", 3, "pens.a.curve", "expected four numbers 0-100"),
        ("[pens.a]\nserial = \"0x1\"\ncolr = \"red\"\n", 3, "pens.a.colr", "did you mean \"color\""),
        ("[pens.a]\nserial = \"0x1\"\nbindings = 3\n", 3, "pens.a.bindings", "expected a table [pens.a.bindings]"),
        ("[pens.a]\nserial = \"0x1\"\n[pens.a.bindings]\npad-1 = \"undo\"\n", 4, "pens.a.bindings.pad-1", "a pad button is the tablet's"),
        ("[pens.a]\nserial = \"0x1\"\n[pens.a.bindings]\nBTN_LEFT = \"undo\"\n", 4, "pens.a.bindings.BTN_LEFT", "unknown button"),
        ("[pens.a]\nserial = \"0x1\"\n[pens.a.bindings]\nBTN_STYLUS = 3\n", 4, "pens.a.bindings.BTN_STYLUS", "expected an action"),
        ("[pens.a]\nserial = \"0x1\"\n[pens.a.bindings]\nBTN_STYLUS = \"fly\"\n", 4, "pens.a.bindings.BTN_STYLUS", "fly"),
    ] as [(String, Int, String, String)])
    func aBadValueIsRefusedWithItsLineAndKey(text: String, line: Int, key: String, message: String) throws {
        let error = try #require(ConfigFileTests.error(text))
        let found = error.all.first { $0.key == key }
        #expect(found?.line == line, "\(error)")
        #expect(found?.message.contains(message) == true, "\(error)")
    }

    @Test func aPensTableSetsWhereThatPenBeginsAndAReloadKeepsAStyleChosenSince() throws {
        let blue = StrokeColor(hex: "#3465a4")!, green = StrokeColor(hex: "#4e9a06")!
        var config = try ConfigFileTests.load("[pens.blue]\nserial = \"0xa\"\ncolor = \"#3465a4\"\n")
        var engine = Engine(config: config)
        var effects = Effects()
        engine.handle(.deviceAdded(DeviceID(1), DeviceInfo(name: "Wacom", kind: .pen)), at: 0, into: &effects)
        engine.handle(.proximityIn(DeviceID(1), Tool(type: .pen, serial: 0xa), PenAxes()), at: 1, into: &effects)
        #expect(engine.canvas.style.color == blue)
        #expect(engine.pens.tools[0].name == "blue")
        engine.handle(.proximityIn(DeviceID(1), Tool(type: .eraser, serial: 0xa), PenAxes()), at: 2, into: &effects)
        #expect(engine.pens.tools[0].name == "blue eraser")
        #expect(engine.canvas.style.tool == .eraser && engine.canvas.style.color == blue)
        engine.handle(.proximityIn(DeviceID(1), Tool(type: .pen, serial: 0xa), PenAxes()), at: 3, into: &effects)
        _ = engine.perform(.style(.set(tool: nil, color: nil, width: 20)), at: 4, into: &effects)
        // A reload that changes only the colour: the width chosen since stays.
        config = try ConfigFileTests.load("[pens.blue]\nserial = \"0xa\"\ncolor = \"#4e9a06\"\n")
        engine.reconfigure(config, at: 5, into: &effects)
        #expect(engine.canvas.style.color == green && engine.canvas.style.width == 20)
        // The same file again: nothing changes.
        _ = engine.perform(.style(.set(tool: nil, color: blue, width: nil)), at: 6, into: &effects)
        engine.reconfigure(config, at: 7, into: &effects)
        #expect(engine.canvas.style.color == blue)
        #expect(engine.perform(.penStyle(.set(tool: nil, color: nil, width: 2), pen: "nobody"), at: 8, into: &effects)
                == .refused(reason: "no pen \"nobody\" seen; known: \"blue\", \"blue eraser\""))
        #expect(engine.perform(.penStyle(.set(tool: nil, color: nil, width: 2), pen: "blue eraser"), at: 8, into: &effects) == .done)
        #expect(engine.pens.tools[1].style.width == 2 && engine.canvas.style.width == 20)
    }
}
