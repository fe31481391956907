// SPDX-License-Identifier: MIT
import StylusProtocol
@testable import stylus_canvas
import Testing

@MainActor
private func sides(_ size: String) -> [Int32]? { RenderPNG.sides(size).map { [$0.0, $0.1] } }

@Test @MainActor func renderSizesAreWidthByHeightWithinTheExportRange() {
    #expect(sides("1920x1080") == [1920, 1080])
    #expect(sides("640X480") == [640, 480])
    let most = ExportFormat.sideRange.upperBound
    #expect(sides("1x\(most)") == [1, Int32(most)])
    for bad in ["0x10", "10x0", "10x\(most + 1)", "10", "10x10x10", "axb", "", "-5x5"] {
        #expect(sides(bad) == nil, "\(bad) was accepted")
    }
}

@Test @MainActor func scalesAreLoggedAsShortAsTheyAre() {
    #expect(InkLayers.describe(2) == "2")
    #expect(InkLayers.describe(1) == "1")
    #expect(InkLayers.describe(1.5) == "1.5")
    #expect(InkLayers.describe(1.25) == "1.25")
}

@Test @MainActor func logicalSizesBecomeRoundedPixels() {
    #expect(InkLayers.pixels(100, 1.5) == 150)
    #expect(InkLayers.pixels(101, 1.5) == 152)
    #expect(InkLayers.pixels(1920, 1) == 1920)
    #expect(InkLayers.pixels(3, 1.25) == 4)
}
