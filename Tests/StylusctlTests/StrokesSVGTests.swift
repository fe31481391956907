// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import stylusctl

@Suite("stylusctl strokes --svg")
struct StrokesSVGTests {
    static func stroke(_ tool: String, _ points: [[Double]]) -> JSONValue {
        .object(["device": .number(1), "tool": .string(tool), "points": .array(points.map { .array($0.map(JSONValue.number)) })])
    }

    @Test func theDrawingHasTheScreensSizeSoA169ScreenIsNotStretched() throws {
        let svg = Strokes.svg([Self.stroke("pen", [[0.5, 0.5, 1, 0, 0, 1], [1, 1, 1, 0, 0, 2]])], size: SVGSize(width: 1920, height: 1080))
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1920 1080" width="1920" height="1080">"#))
        #expect(svg.contains(#"<line x1="960.0" y1="540.0" x2="1920.0" y2="1080.0" stroke-width="9.6"/>"#),
                "full pressure is 8 at 1600 wide, scaled with the width as the canvas scales it: \(svg)")
    }

    @Test func eraserAndAirbrushStrokesAreToldApartFromInkAsOnTheCanvas() {
        let svg = Strokes.svg([Self.stroke("pen", [[0, 0, 0.5, 0, 0, 1], [1, 0, 0.5, 0, 0, 2]]),
                               Self.stroke("eraser", [[0.5, 0, 1, 0, 0, 3], [0.6, 0, 1, 0, 0, 4]]),
                               Self.stroke("airbrush", [[0, 1, 1, 0, 0, 5], [1, 1, 1, 0, 0, 6]])], size: SVGSize(width: 100, height: 100))
        let lines = svg.split(separator: "\n").filter { $0.hasPrefix("<line") }
        #expect(lines.count == 3)
        #expect(!lines[0].contains("stroke=\""), "ink takes the group's black")
        #expect(lines[1].contains(##"stroke="#8fb8de" stroke-opacity="0.6""##), "the eraser: a pale translucent band, as the overlay draws it")
        #expect(lines[2].contains(##"stroke="#555" stroke-opacity="0.5""##))
    }

    @Test func theSizeIsWidthByHeightAndNonsenseIsRefused() {
        #expect(SVGSize(argument: "2560x1600") == SVGSize(width: 2560, height: 1600))
        #expect(SVGSize(argument: "1920X1080") == SVGSize(width: 1920, height: 1080))
        for bad in ["", "1920", "x1080", "0x10", "-5x10", "1920x1080x2", "axb"] { #expect(SVGSize(argument: bad) == nil, "\(bad)") }
        #expect(throws: (any Error).self) { try Stylusctl.parseAsRoot(["strokes", "--svg", "a.svg", "--size", "wide"]) }
    }
}
