// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("The on-canvas palette: taps select, never ink")
struct PaletteTests {
    static let blue = StrokeColor(hex: "#3465a4")!
    /// A strip along the bottom-left: a blue swatch, the highlighter, a width step up, the board.
    static let regions = [
        PaletteRegion(x: 0.00, y: 0.90, width: 0.05, height: 0.10, selection: .style(.set(tool: nil, color: blue, width: nil))),
        PaletteRegion(x: 0.05, y: 0.90, width: 0.05, height: 0.10, selection: .style(.set(tool: .highlighter, color: nil, width: nil))),
        PaletteRegion(x: 0.10, y: 0.90, width: 0.05, height: 0.10, selection: .style(.wider)),
        PaletteRegion(x: 0.15, y: 0.90, width: 0.05, height: 0.10, selection: .board(.next)),
    ]
    static let onBlue = [(0.02, 0.95, 0.5), (0.03, 0.96, 0.6), (0.04, 0.97, 0.5)]

    /// An open canvas with the palette shown at `regions`.
    static func withPalette(config: EngineConfig = EngineConfig()) -> EngineHarness {
        var h = EngineHarness.open(config: config)
        if !h.engine.paletteShown { #expect(h.command(.palette(.show), at: 50) == .done) }
        #expect(h.command(.paletteRegions(regions), at: 51) == .done)
        h.events.removeAll()
        return h
    }

    var toolEvents: (EngineHarness) -> [ToolEvent] = { h in h.events.compactMap { if case .tool(let e) = $0 { e } else { nil } } }

    @Test func aTapOnASwatchSelectsItsColourAndDrawsNothing() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: Self.onBlue)
        #expect(h.engine.canvas.style.color == Self.blue)
        #expect(h.engine.canvas.strokes.isEmpty, "the tap became a stroke")
        #expect(!h.events.contains { if case .stroke = $0 { true } else { false } })
        let tool = toolEvents(h)
        #expect(tool.count == 1 && tool[0].source == .pen && tool[0].style.color == Self.blue && tool[0].palette)
        #expect(h.samples.allSatisfy { !$0.tipDown }, "a canvas would draw live ink for a tap whose samples say the tip is down")
        // The next stroke, off the palette, is drawn in the colour picked.
        h.stroke(at: 200, through: CanvasTests.line)
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.strokes[0].style.color == Self.blue)
    }

    @Test func theOutputsFramesSayTheTipIsOnThePaletteUntilItLifts() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: Self.onBlue)
        let tap = h.frames.filter { $0.time >= EngineHarness.us(100) }
        #expect(tap.map(\.onPalette) == [true, true, true, false], "tip-down, two motions on the palette, the lift")
        h.stroke(at: 200, through: CanvasTests.line)
        #expect(h.frames.filter { $0.time >= EngineHarness.us(200) }.allSatisfy { !$0.onPalette })
    }

    @Test func aToolButtonAndAWidthStepSelect() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: [(0.07, 0.95, 0.5)])
        h.stroke(at: 200, through: [(0.12, 0.95, 0.5)])
        #expect(h.engine.canvas.style.tool == .highlighter)
        #expect(h.engine.canvas.style.width == 12, "width:+ from 8 is the next step, 12")
        #expect(h.engine.canvas.strokes.isEmpty)
    }

    @Test func theBoardButtonGoesToTheNextBoardAndDrawsNothing() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: [(0.17, 0.95, 0.5)])
        #expect(h.engine.canvas.background == .white)
        h.stroke(at: 200, through: [(0.17, 0.95, 0.5)])
        #expect(h.engine.canvas.background == .black)
        #expect(h.engine.canvas.strokes.isEmpty, "a tap on the board button became a stroke")
        let boards = h.events.compactMap { if case .background(let e) = $0 { e } else { nil } }
        #expect(boards.map(\.background) == [.white, .black] && boards.allSatisfy { $0.source == .pen })
        #expect(PaletteRegion.selection("background:next") == .success(.board(.next)))
        #expect(Self.regions[3].selectionText == "background:next")
    }

    @Test func aTapThatSlidesOffThePaletteStillDrawsNothingUntilTheTipLifts() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: [(0.02, 0.95, 0.5), (0.3, 0.5, 0.5), (0.5, 0.4, 0.5)])
        #expect(h.engine.canvas.strokes.isEmpty)
        h.stroke(at: 200, through: CanvasTests.line)
        #expect(h.engine.canvas.strokes.count == 1, "the next contact draws again")
    }

    @Test func aStrokeStartingOutsideThePaletteDrawsEvenAcrossIt() {
        var h = Self.withPalette()
        h.stroke(at: 100, through: [(0.3, 0.95, 0.5), (0.02, 0.95, 0.5), (0.01, 0.97, 0.5)])
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.strokes[0].points.count >= 3, "every point, on the palette too")
        #expect(h.engine.canvas.style.color == .red, "crossing a swatch while drawing selects nothing")
    }

    @Test func withThePaletteHiddenATapThereDraws() {
        var h = Self.withPalette()
        #expect(h.command(.palette(.hide), at: 90) == .done)
        #expect(toolEvents(h).last?.palette == false)
        h.stroke(at: 100, through: Self.onBlue)
        #expect(h.engine.canvas.strokes.count == 1)
        #expect(h.engine.canvas.style.color == .red)
    }

    @Test func aMinimizedCanvasSelectsNothing() {
        var h = Self.withPalette()
        #expect(h.command(.minimizeCanvas, at: 90) == .done)
        h.stroke(at: 1000, through: Self.onBlue)
        #expect(h.engine.canvas.style.color == .red)
    }

    @Test func withoutRegionsATapDraws() {
        var h = Self.withPalette()
        #expect(h.command(.paletteRegions([]), at: 90) == .done)
        h.stroke(at: 100, through: Self.onBlue)
        #expect(h.engine.canvas.strokes.count == 1 && h.engine.canvas.style.color == .red)
    }

    @Test func aClearDuringATapStartsNoStroke() {
        var h = Self.withPalette()
        h.send(.tipDown(h.pen, PenAxes(x: 0.02, y: 0.95, pressure: 0.5)), at: 100)
        #expect(h.command(.clearCanvas, at: 105) == .unchanged(reason: "canvas was already empty"))
        h.send(.tipUp(h.pen, PenAxes(x: 0.02, y: 0.95, pressure: 0)), at: 110)
        #expect(h.engine.canvas.strokes.isEmpty, "a clear restarts the strokes of tips that are down, not a tap's")
        #expect(h.engine.canvas.style.color == Self.blue)
    }

    @Test func showHideToggleAndAlways() {
        var h = EngineHarness.open()
        #expect(!h.engine.paletteShown)
        #expect(h.command(.palette(.hide), at: 1) == .unchanged(reason: "the palette is already hidden"))
        #expect(h.command(.palette(.toggle), at: 2) == .done && h.engine.paletteShown)
        #expect(h.command(.palette(.show), at: 3) == .unchanged(reason: "the palette is already shown"))
        #expect(toolEvents(h).map(\.palette) == [true])
        var always = EngineConfig()
        always.showPalette = .always
        var a = EngineHarness.open(config: always)
        #expect(a.engine.paletteShown)
        #expect(a.command(.palette(.hide), at: 1) == .refused(reason: "the palette always shows ([canvas] show_palette = \"always\"); set it to \"on-request\" to hide it"))
        // A reload back to on-request hides it, and says so.
        var effects = Effects()
        a.engine.reconfigure(EngineConfig(), at: EngineHarness.us(2), into: &effects)
        #expect(!a.engine.paletteShown)
        #expect(effects.events.contains { if case .tool(let e) = $0 { !e.palette } else { false } })
    }

    @Test func thePaletteActionTogglesFromADoublePress() {
        var config = EngineConfig()
        config.sideButtonBindings[SideButton.stylus2.rawValue] = .palette
        var h = EngineHarness.open(config: config)
        h.doubleClick(.stylus2, at: 100)
        #expect(h.engine.paletteShown)
        #expect(h.doublePresses.last?.outcome == .applied)
        #expect(Action.parse("palette") == .success(.palette))
        #expect(Action.palette.rawValue == "palette")
        #expect(Action.Form.allCases.contains(.palette))
    }

    @Test func selectionsAreStyleOrBoardActionsOnly() {
        #expect(PaletteRegion.selection("color:#3465a4") == .success(.style(.set(tool: nil, color: Self.blue, width: nil))))
        #expect(PaletteRegion.selection("width:-") == .success(.style(.narrower)))
        #expect(PaletteRegion.selection("tool:ellipse") == .success(.style(.set(tool: .ellipse, color: nil, width: nil))))
        #expect(PaletteRegion.selection("undo") == .failure(ActionError("\"undo\" is not a palette selection; use tool:NAME, color:NAME, color:#RRGGBB, color:next, color:previous, width:N, width:+, width:- or background:NAME|next")))
        guard case .failure(let e) = PaletteRegion.selection("tool:brush") else {
            Issue.record("tool:brush accepted")
            return
        }
        #expect(e.message.hasPrefix("unknown tool \"brush\""))
        let r = Self.regions[0]
        #expect(r.contains(x: 0, y: 0.9) && r.contains(x: 0.05, y: 1) && !r.contains(x: 0.051, y: 0.95))
        #expect(r.selectionText == "color:#3465a4")
    }
}
