// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import Testing

@Suite("The palette's layout")
struct PaletteLayoutTests {
    static let colors = StyleRequest.defaultPalette

    @Test func oneRowInTheBottomLeftCornerOfEightColoursNineToolsTwoWidthsAndTheBoard() {
        let buttons = PaletteLayout.buttons(colors: Self.colors, width: 1920, height: 1080)
        #expect(buttons.count == 20)
        #expect(buttons.prefix(8).map(\.kind) == Self.colors.map { .color($0) })
        #expect(buttons[8..<17].map(\.kind) == DrawingTool.allCases.map { .tool($0) })
        #expect(buttons[17..<19].map(\.kind) == [.narrower, .wider])
        #expect(buttons.last?.kind == .board)
        let side = 1080 * 0.045
        #expect(buttons.allSatisfy { $0.rect.width == side && $0.rect.height == side && $0.rect.y == 1080 - side * 1.5 })
        #expect(buttons[0].rect.x == side / 2)
        #expect(buttons[8].rect.x == buttons[7].rect.x + side * 1.5, "a half-button gap between the groups")
        #expect(abs(buttons[19].rect.x - (buttons[18].rect.x + side * 1.5)) < 1e-9, "the board is a group of its own")
        for (a, b) in zip(buttons, buttons.dropFirst()) { #expect(a.rect.x + a.rect.width <= b.rect.x, "buttons overlap") }
    }

    @Test func aNarrowMonitorShrinksTheButtonsToFit() {
        let buttons = PaletteLayout.buttons(colors: Self.colors, width: 400, height: 800)
        let right = buttons.last!.rect.x + buttons.last!.rect.width
        #expect(right <= 400 && buttons[0].rect.width < 24)
    }

    @Test func regionsAreTheButtonsInTheTabletsCoordinates() {
        // The second of two 1920x1080 monitors side by side, the tablet mapped to both.
        let geometry = InkGeometry(width: 3840, height: 1080, originX: 1920, originY: 0)
        let buttons = PaletteLayout.buttons(colors: Self.colors, width: 1920, height: 1080)
        let regions = PaletteLayout.regions(buttons, geometry: geometry)
        #expect(regions.count == 20)
        let first = regions[0], b = buttons[0].rect
        #expect(abs(first.x - (1920 + b.x) / 3840) < 1e-12 && abs(first.y - b.y / 1080) < 1e-12)
        #expect(abs(first.width - b.width / 3840) < 1e-12 && abs(first.height - b.height / 1080) < 1e-12)
        // The inverse of where ink lands: the region's centre is drawn at the button's centre.
        let (px, py) = geometry.pixel(InkPoint(x: first.x + first.width / 2, y: first.y + first.height / 2, pressure: 0))
        #expect(abs(px - (b.x + b.width / 2)) < 1e-9 && abs(py - (b.y + b.height / 2)) < 1e-9)
        #expect(regions[0].selection == .style(.set(tool: nil, color: Self.colors[0], width: nil)))
        #expect(regions[8].selection == .style(.set(tool: .pen, color: nil, width: nil)))
        #expect(regions[18].selection == .style(.wider))
        #expect(regions[19].selection == .board(.next) && regions[19].selectionText == "background:next")
    }

    @Test func buttonsOutsideTheTabletsAreaAreLeftOut() {
        // A window larger than the area the tablet maps to (origin past the area's left edge).
        let geometry = InkGeometry(width: 100, height: 1080, originX: 0, originY: 0)
        let regions = PaletteLayout.regions(PaletteLayout.buttons(colors: Self.colors, width: 1920, height: 1080), geometry: geometry)
        #expect(!regions.isEmpty && regions.count < 20)
        #expect(regions.allSatisfy { $0.x >= 0 && $0.x + $0.width <= 1 })
    }

    @Test func theCurrentColourAndToolAreMarked() {
        let buttons = PaletteLayout.buttons(colors: Self.colors, width: 1920, height: 1080)
        let style = StrokeStyle(tool: .highlighter, color: Self.colors[4], width: 8)
        #expect(buttons.filter { $0.isSelected(in: style) }.map(\.kind) == [.color(Self.colors[4]), .tool(.highlighter)])
    }
}
