// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore

@Suite("Boards: the background under the ink")
struct BackgroundTests {
    static let teal = StrokeColor(hex: "#008080")!

    func backgroundEvents(_ h: EngineHarness) -> [BackgroundEvent] {
        h.events.compactMap { if case .background(let e) = $0 { e } else { nil } }
    }

    @Test func theCommandSetsTheBoardTellsTheCanvasesAndIsSaved() {
        var h = EngineHarness.open()
        #expect(h.engine.canvas.background == .none, "a canvas starts without a board")
        let saves = h.persistRequests
        #expect(h.command(.background(.set(.white)), at: 10) == .done)
        #expect(h.engine.canvas.background == .white)
        #expect(backgroundEvents(h).map(\.background) == [.white] && backgroundEvents(h)[0].source == .command)
        #expect(h.persistRequests == saves + 1, "the state file keeps the board")
        #expect(h.command(.background(.set(.white)), at: 11) == .unchanged(reason: "the background already is white"))
        #expect(backgroundEvents(h).count == 1, "no event for a board that stays")
        #expect(h.command(.background(.set(.color(Self.teal))), at: 12) == .done)
        #expect(h.engine.canvas.background == .color(Self.teal))
    }

    @Test func nextGoesRoundNoneWhiteBlackGrid() {
        var h = EngineHarness()
        var seen: [CanvasBackground] = []
        for n in 0..<5 {
            #expect(h.command(.background(.next), at: Double(n)) == .done)
            seen.append(h.engine.canvas.background)
        }
        #expect(seen == [.white, .black, .grid, .none, .white])
        #expect(CanvasBackground.color(Self.teal).next == .none, "a colour board goes on to none")
    }

    @Test func theBoardStaysThroughClearDiscardAndMinimize() {
        var h = EngineHarness.open()
        h.command(.background(.set(.grid)), at: 5)
        h.stroke(at: 10, through: CanvasTests.line)
        h.command(.clearCanvas, at: 100)
        h.command(.discard, at: 200)
        h.advance(to: 1000)
        #expect(h.engine.canvas.background == .grid, "the board is not ink: clearing the drawing keeps it")
    }

    @Test func theActionIsReadWrittenAndPerformedByADoublePress() throws {
        for (text, request) in [("background:white", BackgroundRequest.toggle(.white)), ("background:none", .set(.none)),
                                ("background:black", .toggle(.black)), ("background:grid", .toggle(.grid)),
                                ("background:next", .next), ("background:#008080", .toggle(.color(Self.teal)))] {
            #expect(try Action.parse(text).get() == .background(request), "\(text)")
            #expect(Action.background(request).rawValue == text)
            #expect(Action.background(request).form == .background)
            #expect(!Action.background(request).isPerformedByShell)
        }
        #expect(Action.parse("background:#00808").failure?.message.contains("unknown background \"#00808\"") == true)
        #expect(Action.parse("background:paper").failure?.message.contains("background:next") == true)
        #expect(Action.parse("background").failure != nil, "background needs its argument")

        var config = EngineConfig()
        config.sideButtonBindings[1] = .background(.next)
        var h = EngineHarness.open(config: config)
        h.click(.stylus2, at: 100)
        h.click(.stylus2, at: 300)
        #expect(h.engine.canvas.background == .white)
        #expect(backgroundEvents(h).first?.source == .pen)
    }

    @Test func aKeyOrButtonForABoardTurnsItOnAndOffWhileTheCommandSets() {
        var h = EngineHarness.open(config: EngineConfig())
        #expect(h.command(.background(.toggle(.white)), at: 10) == .done)
        #expect(h.engine.canvas.background == .white)
        #expect(h.command(.background(.toggle(.black)), at: 11) == .done)
        #expect(h.engine.canvas.background == .black)
        #expect(h.command(.background(.toggle(.black)), at: 12) == .done)
        #expect(h.engine.canvas.background == CanvasBackground.none)
        #expect(h.command(.background(.set(.grid)), at: 13) == .done)
        #expect(h.command(.background(.set(.grid)), at: 14) == .unchanged(reason: "the background already is grid"))
        #expect(h.engine.canvas.background == .grid)
    }

    @Test func theConfigSetsTheStartOverTheSavedBoardAndAReloadOnlyWhenItChanged() {
        var config = EngineConfig()
        config.background = .black
        var engine = Engine(config: config)
        #expect(engine.canvas.background == .black, "the file's board is where a daemon starts")
        engine.restore(canvas: Canvas(state: .minimized, strokes: [], background: .grid), precisionEnabled: false)
        #expect(engine.canvas.background == .black, "at each start the file's board over the saved one, as for the style")
        var unset = Engine()
        unset.restore(canvas: Canvas(state: .minimized, strokes: [], background: .grid), precisionEnabled: false)
        #expect(unset.canvas.background == .grid, "without the key the saved board comes back")

        var h = EngineHarness(config: config)
        h.command(.background(.set(.white)), at: 1)
        var same = config
        same.doublePressIntervalMS = 400
        h.engine.reconfigure(same, at: EngineHarness.us(2), into: &h.effects)
        #expect(h.engine.canvas.background == .white, "a reload that leaves the key alone keeps the board the user chose")
        var changed = config
        changed.background = .grid
        h.effects.removeAll()
        h.engine.reconfigure(changed, at: EngineHarness.us(3), into: &h.effects)
        #expect(h.engine.canvas.background == .grid, "a reload that changes the key applies it")
        #expect(h.effects.events.contains { if case .background(let e) = $0 { e.background == .grid } else { false } })
        #expect(h.effects.stateChanged)
    }

    @Test func namesReadBackAsTheyAreWritten() {
        for b in [CanvasBackground.none, .white, .black, .grid, .color(Self.teal)] {
            #expect(CanvasBackground(name: b.name) == b)
        }
        #expect(CanvasBackground(name: "#ABCDEF") == .color(StrokeColor(hex: "#abcdef")!))
        // A colour board is named as every colour is: a CSS name, #rgb; written back as #rrggbb.
        #expect(CanvasBackground(name: "DarkSlateGray") == .color(StrokeColor(hex: "#2f4f4f")!))
        #expect(CanvasBackground(name: "#fa0")?.name == "#ffaa00")
        #expect(CanvasBackground(name: "paper") == nil)
        #expect(CanvasBackground(name: "next") == nil && BackgroundRequest(name: "next") == .next)
        #expect(CanvasBackground(name: "") == nil && CanvasBackground(name: "#12345") == nil)
    }
}

private extension Result {
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
}
