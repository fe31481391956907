// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusCore
@testable import stylus_canvas
import Testing

/// Texts as the renderer draws them (the canvas and the PNG export alike).
@MainActor
struct TextRenderingTests {
    static func text(_ string: String, x: Double, y: Double, size: Double, color: String = "#3465a4") -> InkStroke {
        InkStroke(device: StrokeSource.keyboard.device!.rawValue, style: InkStyle(tool: .text, color: StrokeColor(hex: color)!, width: 8),
                  points: [InkPoint(x: x, y: y, pressure: 1)], text: StrokeText(string: string, size: size))
    }

    /// The finished layer's opaque-enough pixels, as (x, y).
    static func inked(_ ink: InkLayers) -> [(Int, Int)] {
        guard let layer = ink.finished, let data = cairo_image_surface_get_data(layer) else { return [] }
        cairo_surface_flush(layer)
        let width = Int(cairo_image_surface_get_width(layer)), height = Int(cairo_image_surface_get_height(layer))
        let row = Int(cairo_image_surface_get_stride(layer)) / 4
        let pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var found: [(Int, Int)] = []
        for y in 0..<height { for x in 0..<width where pixels[y * row + x] >> 24 >= 128 { found.append((x, y)) } }
        return found
    }

    @Test func aTextInksWhereItsLinesGoInItsColour() throws {
        // A drawing 1600 wide at scale 1: reference pixels are window pixels.
        let ink = InkLayers(geometry: InkGeometry(width: 1600, height: 900))
        ink.keepsCheckpoint = false
        _ = ink.ensure(width: 1600, height: 900, scale: 1)
        defer { ink.release() }
        ink.redrawFinished([Self.text("Hello\nWorld", x: 0.25, y: 0.5, size: 40)])
        let pixels = Self.inked(ink)
        #expect(pixels.count > 200, "some ink")
        let xs = pixels.map(\.0), ys = pixels.map(\.1)
        // From the anchor (400, 450): two lines of about 0.6 em a letter, the second baseline 0.8 + 1.25 em down.
        #expect(xs.min()! >= 400 && xs.min()! <= 410 && xs.max()! <= 400 + 5 * 40, "\(xs.min()!)-\(xs.max()!)")
        #expect(ys.min()! >= 450 && ys.min()! <= 450 + 12 && ys.max()! <= 450 + Int(40 * (0.8 + 1.25)) + 12, "\(ys.min()!)-\(ys.max()!)")
        #expect(ys.contains { $0 > 450 + 60 }, "the second line")
        let layer = try #require(ink.finished)
        let data = try #require(cairo_image_surface_get_data(layer))
        let row = Int(cairo_image_surface_get_stride(layer)) / 4
        let solid = pixels.map { UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)[$0.1 * row + $0.0] }.filter { $0 >> 24 == 255 }
        #expect(solid.contains(0xff34_65a4), "the text's colour, opaque")
    }

    @Test func anUndoneTextLeavesNothingAndAPartialRedrawMatchesAWholeOne() {
        let ink = InkLayers(geometry: InkGeometry(width: 1600, height: 900))
        _ = ink.ensure(width: 1600, height: 900, scale: 1)
        defer { ink.release() }
        let pen = InkStroke(device: 1, style: InkStyle(), points: [InkPoint(x: 0.1, y: 0.1, pressure: 1), InkPoint(x: 0.9, y: 0.9, pressure: 1)])
        let text = Self.text("Undo me", x: 0.3, y: 0.3, size: 48)
        ink.redrawFinished([pen])
        let before = Self.inked(ink).map { "\($0)" }
        ink.redrawFinished([pen, text])
        #expect(Self.inked(ink).count > before.count)
        ink.redrawFinished([pen])
        #expect(Self.inked(ink).map { "\($0)" } == before)
    }
}
