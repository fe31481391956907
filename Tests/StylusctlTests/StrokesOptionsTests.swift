// SPDX-License-Identifier: MIT
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl strokes --svg's options")
struct StrokesOptionsTests {
    @Test func theSizeIsWidthByHeightWithinWhatExportTakesAndNonsenseIsRefused() {
        #expect(SVGSize(argument: "2560x1600") == SVGSize(width: 2560, height: 1600))
        #expect(SVGSize(argument: "1920X1080") == SVGSize(width: 1920, height: 1080))
        #expect(SVGSize(argument: "7680x4320") == SVGSize(width: 7680, height: 4320), "an 8K screen at its native size")
        for bad in ["", "1920", "x1080", "0x10", "-5x10", "1920x1080x2", "axb", "8193x10"] { #expect(SVGSize(argument: bad) == nil, "\(bad)") }
        #expect(throws: (any Error).self) { try Stylusctl.parseAsRoot(["strokes", "--svg", "a.svg", "--size", "wide"]) }
    }

    @Test func aSizeWithoutAFileAndAFileThatIsNoSVGAreRefused() {
        #expect(throws: (any Error).self) { try Stylusctl.parseAsRoot(["strokes", "--size", "100x100"]) }
        #expect(throws: (any Error).self) { try Stylusctl.parseAsRoot(["strokes", "--svg", "a.png"]) }
        #expect(throws: Never.self) { try Stylusctl.parseAsRoot(["strokes", "--svg", "a.SVG"]) }
    }
}
