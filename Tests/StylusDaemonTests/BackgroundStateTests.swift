// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusDaemon

@Suite("The board in the state file")
struct BackgroundStateTests {
    @Test func theBoardIsSavedAndReadBack() throws {
        for board in [CanvasBackground.white, .black, .grid, .color(StrokeColor(hex: "#008080")!)] {
            let state = PersistedState(canvas: Canvas(state: .open, strokes: [], background: board), precisionEnabled: false)
            let bytes = try #require(state.json())
            #expect(bytes == (try StateJSONTests.encoderBytes(state)), "written by hand as JSONEncoder writes it")
            let read = try JSONDecoder().decode(PersistedState.self, from: Data(bytes))
            #expect(try read.restored().0.background == board)
        }
    }

    @Test func aFileWithoutABoardLoadsAsNone() throws {
        let state = PersistedState(canvas: Canvas(), precisionEnabled: false)
        #expect(state.background == nil, "no board: the file is what it was before boards")
        let old = #"{"canvas":"open","precision_enabled":false,"strokes":[],"version":2}"#
        let read = try JSONDecoder().decode(PersistedState.self, from: Data(old.utf8))
        #expect(try read.restored().0.background == CanvasBackground.none)
    }

    @Test func anUnknownBoardIsNamed() throws {
        let bad = #"{"background":"paper","canvas":"open","precision_enabled":false,"strokes":[],"version":2}"#
        let read = try JSONDecoder().decode(PersistedState.self, from: Data(bad.utf8))
        #expect(throws: StateError.self) { try read.restored() }
        do { _ = try read.restored() } catch { #expect("\(error)".contains("unknown background \"paper\"")) }
    }

    @Test func anExportOfABoardDrawsItInTheSVG() {
        let svg = Exporter.svg([], width: 800, height: 450, board: .grid)
        #expect(svg.contains(##"<rect width="100%" height="100%" fill="#ffffff"/>"##))
        #expect(svg.contains("M20.0 0 V450.0"), "a grid line every 40 reference pixels: 20 px at 800 wide")
        #expect(!Exporter.svg([], width: 800, height: 450).contains("<rect"), "no board: transparent, as before")
    }
}
