// SPDX-License-Identifier: MIT
@testable import StylusCore
import Testing

@Suite("color:N, the palette's Nth colour")
struct PaletteColorTests {
    let palette = ["crimson", "navy", "gold"].map { try! ColorName.parse($0).get() }

    @Test func eachPlacePicksItsColourOfThePaletteInForce() throws {
        for (place, color) in palette.enumerated() {
            guard case .success(.style(let request)) = Action.parse("color:\(place + 1)") else {
                Issue.record("color:\(place + 1) does not parse")
                continue
            }
            let chosen = try request.applied(to: StrokeStyle(), previousTool: .pen, palette: palette).get()
            #expect(chosen.color == color)
            #expect(Action.style(request).rawValue == "color:\(place + 1)")
        }
    }

    @Test func aPlaceBeyondThePaletteChangesNothingAndSaysWhy() {
        guard case .success(.style(let request)) = Action.parse("color:4") else {
            Issue.record("color:4 does not parse")
            return
        }
        guard case .failure(let unchanged) = request.applied(to: StrokeStyle(), previousTool: .pen, palette: palette) else {
            Issue.record("color:4 chose a colour from a palette of 3")
            return
        }
        #expect(unchanged.reason == "the palette has 3 colours; there is no colour 4")
    }

    @Test func placesRunFromOneToTheLargestPalette() {
        #expect(Action.parse("color:0").isFailure)
        #expect(Action.parse("color:17").isFailure)
        #expect(!Action.parse("color:16").isFailure)
    }
}

private extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
