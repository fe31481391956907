// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

/// What `[pens.NAME]` does in the engine: where a pen's style starts, its
/// pressure curve, its buttons, and what a reload changes.
@Suite("[pens.NAME] in the engine")
struct PenConfigEngineTests {
    static let blue = StrokeColor(hex: "#3465a4")!
    static let green = StrokeColor(hex: "#4e9a06")!
    /// Light pressure reads heavier: (0.5, 0.5) lands well above 0.5.
    static let soft = PressureCurve(x1: 0, y1: 0.6, x2: 0.4, y2: 1)

    static func config(_ pens: [PenConfig]) -> EngineConfig {
        var config = EngineConfig()
        config.pens = pens
        return config
    }

    @Test func aPensTableSetsWhereItsStyleStartsAndNamesBothEnds() {
        var h = EngineHarness(config: Self.config([PenConfig(name: "blue", serial: 0xa, style: ConfiguredStyle(tool: .highlighter, color: Self.blue))]))
        h.enter(serial: 0xa, at: 0)
        #expect(h.engine.canvas.style.color == Self.blue && h.engine.canvas.style.tool == .highlighter)
        #expect(h.engine.pens.tools.first?.name == "blue")
        h.leave(at: 10)
        h.enter(.eraser, serial: 0xa, at: 20)
        #expect(h.engine.canvas.style.tool == .eraser, "the eraser end keeps erasing")
        #expect(h.engine.pens.tools.first?.name == "blue eraser")
        h.leave(at: 30)
        h.enter(serial: 0xb, at: 40)
        #expect(h.engine.canvas.style == StrokeStyle(), "another pen starts from [canvas]")
    }

    @Test func aReloadKeepsAStyleChosenSinceUnlessTheFileChangedThatKey() {
        let first = Self.config([PenConfig(name: "blue", serial: 0xa, style: ConfiguredStyle(color: Self.blue, width: 4))])
        var h = EngineHarness(config: first)
        h.enter(serial: 0xa, at: 0)
        h.command(.style(.set(tool: nil, color: Self.green, width: nil)), at: 1)
        var effects = Effects()
        // The width changes in the file, the colour does not: the green chosen stays.
        var second = first
        second.pens[0].style.width = 9
        h.engine.reconfigure(second, at: EngineHarness.us(2), into: &effects)
        #expect(h.engine.canvas.style.color == Self.green && h.engine.canvas.style.width == 9)
        #expect(effects.stateChanged)
        // Now the colour changes in the file: it wins over the green.
        var third = second
        third.pens[0].style.color = .red
        h.engine.reconfigure(third, at: EngineHarness.us(3), into: &effects)
        #expect(h.engine.canvas.style.color == .red)
        // A table renamed: the pen is called by its new name, in samples too.
        third.pens[0].name = "red"
        h.engine.reconfigure(third, at: EngineHarness.us(4), into: &effects)
        #expect(h.engine.pens.tools.first?.name == "red")
        h.engine.publishesSamples = true
        h.send(.motion(h.pen, PenAxes(x: 0.4, y: 0.4)), at: 5)
        #expect(h.samples.last?.pen == "red")
    }

    @Test func aPensCurveShapesItsInkAndSamplesAndLeavesOtherPensAsReported() {
        var h = EngineHarness.open(config: Self.config([PenConfig(name: "soft", serial: 0xa, curve: Self.soft)]))
        h.engine.publishesSamples = true
        h.leave(at: 2)
        h.enter(serial: 0xa, at: 10)
        h.stroke(at: 20, through: [(0.1, 0.1, 0.25), (0.2, 0.2, 0.5)])
        h.leave(at: 40)
        h.enter(serial: 0xb, at: 50)
        h.stroke(at: 60, through: [(0.1, 0.1, 0.25), (0.2, 0.2, 0.5)])
        let strokes = h.engine.canvas.strokes
        #expect(strokes.count == 2)
        let shaped = PressureTable(Self.soft)
        #expect(strokes[0].points.first?.pressure == Float(shaped.value(at: 0.25)))
        #expect(shaped.value(at: 0.25) > 0.4, "a light touch draws wider with this curve")
        #expect(strokes[1].points.first?.pressure == 0.25, "pen 0xb has no curve")
        let soft = h.samples.filter { $0.pen == "soft" && $0.tipDown }
        #expect(!soft.isEmpty && soft.allSatisfy { $0.axes.pressure >= shaped.value(at: 0.25) - 1e-9 }, "live ink as recorded")
        #expect(h.samples.filter { $0.tipDown }.count > soft.count)
    }

    @Test func aLinearCurveChangesNoPressure() {
        let table = PressureTable(.linear)
        for p in stride(from: 0.0, through: 1.0, by: 0.125) { #expect(abs(table.value(at: p) - p) < 1e-3) }
    }

    @Test func aPensCurveShapesThePressurePrecisionModeReads() {
        var config = Self.config([PenConfig(name: "soft", serial: 0xa, curve: Self.soft)])
        config.precision.fullSpeedPressure = 0.6
        var h = EngineHarness(config: config)
        h.command(.precision(.enable), at: 0)
        h.enter(serial: 0xa, at: 1)
        h.send(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0.3)), at: 2)
        let scaleA = h.engine.devices[0].scale
        h.send(.tipUp(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0)), at: 3)
        h.leave(at: 4)
        h.enter(serial: 0xb, at: 5)
        h.send(.tipDown(h.pen, PenAxes(x: 0.5, y: 0.5, pressure: 0.3)), at: 6)
        let scaleB = h.engine.devices[0].scale
        #expect(scaleA > scaleB, "the soft pen reads 0.3 heavier, so it moves faster")
        #expect(h.engine.devices[0].precisionActive)
    }

    @Test func aPensBindingsOverrideBindingsForThatPenOnly() {
        var config = Self.config([PenConfig(name: "undoer", serial: 0xa, bindings: ["BTN_STYLUS": .undo])])
        config.bind(.side(.stylus), to: .togglePrecision)
        var h = EngineHarness(config: config)
        h.enter(serial: 0xa, at: 0)
        h.doubleClick(at: 10)
        h.leave(at: 1000)
        h.enter(serial: 0xb, at: 1100)
        h.doubleClick(at: 1200)
        h.doubleClick(.stylus2, at: 2000)
        #expect(h.doublePresses.map(\.action) == [.undo, .togglePrecision, config.binding(for: .side(.stylus2))])
    }

    @Test func aStrokeEventNamesThePenAndADrawStrokeTakesTheLastSeenPensStyle() {
        var h = EngineHarness.open()
        h.leave(at: 2)
        h.enter(serial: 0xa, at: 10)
        h.command(.style(.set(tool: .highlighter, color: Self.blue, width: nil)), at: 11)
        h.stroke(at: 20, through: [(0.1, 0.1, 0.5), (0.2, 0.2, 0.5)])
        h.leave(at: 40)
        let strokeEvents = h.events.compactMap { if case .stroke(let e) = $0 { e } else { nil } }
        #expect(strokeEvents.last?.pen == "test pen (pen, serial 0x0000000a)")
        h.command(.draw(DrawRequest(source: .pointer, phase: .down, points: [DrawRequest.Point(x: 0.5, y: 0.5)])), at: 50)
        h.command(.draw(DrawRequest(source: .pointer, phase: .up, points: [DrawRequest.Point(x: 0.6, y: 0.5)])), at: 60)
        let drawn = h.engine.canvas.strokes.last
        #expect(drawn?.source == .pointer)
        #expect(drawn?.style.color == Self.blue && drawn?.style.tool == .highlighter, "the pen seen last")
        #expect(drawn?.pen == nil, "no pen drew it")
    }
}
