// SPDX-License-Identifier: MIT
import CanvasModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A transparent picture to draw into, as cairo's ARGB32 keeps it (rows may be longer than the picture).
private final class Picture {
    let width: Int, height: Int, rowPixels: Int
    var pixels: [UInt32]

    init(_ width: Int, _ height: Int, padding: Int = 3) {
        (self.width, self.height, rowPixels) = (width, height, width + padding)
        pixels = Array(repeating: 0, count: rowPixels * height)
    }

    @discardableResult
    func draw(_ a: (Double, Double), _ b: (Double, Double), width: Double, _ ink: SegmentInk = .paint(red: 214, green: 26, blue: 28)) -> (x: Range<Int>, y: Range<Int>)? {
        pixels.withUnsafeMutableBufferPointer {
            SegmentRaster.draw(into: PixelBuffer(base: $0.baseAddress!, width: self.width, height: self.height, rowPixels: rowPixels),
                               from: (x: a.0, y: a.1), to: (x: b.0, y: b.1), lineWidth: width, ink: ink)
        }
    }

    subscript(x: Int, y: Int) -> UInt32 { pixels[y * rowPixels + x] }
    func alpha(_ x: Int, _ y: Int) -> Double { Double(self[x, y] >> 24) / 255 }
    /// The ink's area in pixels: every pixel counted by how much of it is covered.
    var inkArea: Double { (0..<height).reduce(0) { sum, y in (0..<width).reduce(sum) { $0 + alpha($1, y) } } }
    /// Pixels outside the picture's rows (the padding) that were written.
    var paddingWritten: Bool { (0..<height).contains { y in (width..<rowPixels).contains { pixels[y * rowPixels + $0] != 0 } } }
}

@Test func aPixelsSquareIsCoveredByTheAreaAStraightEdgeLeaves() {
    // Along an axis: linear. At 45°: the corner's triangle, then the rest.
    #expect(SegmentRaster.squareCovered(below: 0, 1, 0) == 0.5)
    #expect(abs(SegmentRaster.squareCovered(below: 0.25, 0, -1) - 0.75) < 1e-12)
    let d = 0.5.squareRoot()
    #expect(abs(SegmentRaster.squareCovered(below: 0, d, d) - 0.5) < 1e-12)
    #expect(abs(SegmentRaster.squareCovered(below: -0.3, d, d) - (d - 0.3) * (d - 0.3)) < 1e-9)
    #expect(SegmentRaster.squareCovered(below: -0.71, d, d) == 0 && SegmentRaster.squareCovered(below: 0.71, d, d) == 1)
    // Any direction: the area below t and above −t make the whole square.
    for angle in stride(from: 0.0, to: 6.3, by: 0.1) {
        for t in stride(from: -0.8, through: 0.8, by: 0.05) {
            let (nx, ny) = (cos(angle), sin(angle))
            #expect(abs(SegmentRaster.squareCovered(below: t, nx, ny) + SegmentRaster.squareCovered(below: -t, nx, ny) - 1) < 1e-9)
        }
    }
}

@Test func aSegmentCoversTheAreaOfALineWithRoundCaps() {
    for (a, b, width) in [((20.0, 30.0), (80.0, 30.0), 8.0), ((15.3, 12.7), (70.9, 61.2), 9.6), ((40.0, 40.0), (40.0, 40.0), 12.0),
                          ((10.0, 50.0), (90.0, 52.5), 1.0), ((30.0, 20.0), (33.0, 75.0), 28.8), ((10.0, 20.0), (90.0, 31.0), 0.4)] {
        let picture = Picture(100, 100)
        picture.draw(a, b, width: width)
        let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
        let exact = Double.pi * width * width / 4 + width * length
        #expect(abs(picture.inkArea - exact) / exact < 0.02, "\(a)→\(b) width \(width): \(picture.inkArea) pixels, not \(exact)")
        #expect(!picture.paddingWritten)
    }
}

@Test func insideTheLineThePenIsItsOwnColourAndFarFromItNothingChanges() {
    let picture = Picture(64, 64)
    let touched = picture.draw((10, 20), (50, 40), width: 10)
    #expect(picture[30, 30] == 0xffd6_1a1c)          // on the line: the colour, opaque
    #expect(picture[10, 20] == 0xffd6_1a1c)          // the cap's centre
    #expect(picture[50, 10] == 0 && picture[5, 60] == 0)
    let edge = picture.alpha(30, 35)                  // the line's antialiased edge
    #expect(edge > 0 && edge < 1)
    #expect(touched.map { $0.x.contains(4) && $0.x.contains(55) && $0.y.contains(14) && $0.y.contains(45) } == true)
    // Premultiplied: no channel above the alpha, as cairo requires.
    for y in 0..<64 { for x in 0..<64 {
        let p = picture[x, y], a = p >> 24
        #expect((p >> 16) & 0xff <= a && (p >> 8) & 0xff <= a && p & 0xff <= a)
    } }
}

@Test func theEraserClearsWhatThePenDrewAndItsEdgeFadesIt() {
    let picture = Picture(64, 64)
    picture.draw((5, 32), (60, 32), width: 12)
    picture.draw((32.3, 5), (32.3, 60), width: 8, .clear)
    #expect(picture[32, 32] == 0)                     // crossed: gone
    #expect(picture[10, 32] == 0xffd6_1a1c)           // beside the eraser: kept
    let fringe = picture.alpha(36, 32)                // the eraser's antialiased edge
    #expect(fringe > 0 && fringe < 1)
    picture.draw((5, 32), (60, 32), width: 14, .clear)   // a little wider than the ink: its edge too
    #expect(picture.inkArea == 0)
}

@Test func segmentsOffThePictureOrNotANumberTouchNothingAndNeverTrap() {
    let picture = Picture(32, 32)
    #expect(picture.draw((-500, -500), (-400, -450), width: 20) == nil)
    #expect(picture.draw((1e300, 5), (2e300, 5), width: 4) == nil)
    #expect(picture.draw((.nan, 5), (5, 5), width: 4) == nil)
    #expect(picture.draw((5, 5), (6, 6), width: .infinity) == nil)
    #expect(picture.draw((5, 5), (6, 6), width: 0) == nil)
    #expect(picture.inkArea == 0)
    // One end far away: the part on the picture is drawn, and only that.
    picture.draw((-1e300, 16), (16, 16), width: 4)
    #expect(picture[8, 16] == 0xffd6_1a1c && picture[20, 16] == 0 && !picture.paddingWritten)
}

/// Every pixel by the rule as written: the part of its square within w/2 of the line through the segment's nearest point, across the direction to it.
private func drawnPixelByPixel(_ picture: Picture, _ a: (Double, Double), _ b: (Double, Double), width: Double, colour: UInt32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1)
    let lengthSquared = dx * dx + dy * dy
    for y in 0..<picture.height { for x in 0..<picture.width {
        let (ex, ey) = (Double(x) + 0.5 - a.0, Double(y) + 0.5 - a.1)
        let along = lengthSquared > 0 ? (ex * dx + ey * dy) / lengthSquared : 0
        let t = max(0, min(1, along))
        let (fx, fy) = (ex - t * dx, ey - t * dy)
        let d = (fx * fx + fy * fy).squareRoot()
        let r = along > 0 && along < 1 ? width / 2 : max(0, width / 2 - SegmentRaster.capInset)   // the caps a shade inside
        let length = lengthSquared.squareRoot()
        let (nx, ny) = d > 0 ? (fx / d, fy / d) : (length > 0 ? (-dy / length, dx / length) : (1, 0))
        let covered = SegmentRaster.squareCovered(below: r - d, nx, ny) - SegmentRaster.squareCovered(below: -r - d, nx, ny)
        let c = UInt32(max(0, min(1, covered)) * 255 + 0.5)
        let old = picture.pixels[y * picture.rowPixels + x]
        guard c > 0, old != 0xff00_0000 | colour else { continue }   // ink over the same opaque ink changes nothing
        func scaled(_ v: UInt32, _ by: UInt32) -> UInt32 { (v * by + 127) / 255 }
        var out: UInt32 = 0
        for shift in [24, 16, 8, 0] as [UInt32] {
            let ink = shift == 24 ? 255 : (colour >> shift) & 0xff
            out |= (scaled(ink, c) + scaled((old >> shift) & 0xff, 255 - c)) << shift
        }
        picture.pixels[y * picture.rowPixels + x] = out
    } }
}

@Test func rowByRowSpansDrawWhatThePixelByPixelRuleDrawsForAnySegment() {
    var seed: UInt64 = 0x5eed
    func random(_ range: ClosedRange<Double>) -> Double {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
    for round in 0..<200 {
        let a = (random(-10...74), random(-10...74))
        let b = round % 5 == 0 ? a : (random(-10...74), random(-10...74))
        let width = round % 7 == 0 ? random(0.1...1.2) : random(0.5...30)
        let fast = Picture(64, 64), slow = Picture(64, 64)
        for p in [fast, slow] { for i in p.pixels.indices where i % 3 == 0 { p.pixels[i] = 0x8040_2010 } }   // ink already there
        fast.draw(a, b, width: width, .paint(red: 52, green: 101, blue: 164))
        drawnPixelByPixel(slow, a, b, width: width, colour: 0x3465a4)
        func channel(_ p: UInt32, _ i: Int) -> Int { Int((p >> UInt32(i * 8)) & 0xff) }
        let differing = zip(fast.pixels, slow.pixels).filter { x, y in
            (0..<4).contains { (i: Int) -> Bool in abs(channel(x, i) - channel(y, i)) > 1 }
        }.count
        #expect(differing == 0, "\(a)→\(b) width \(width): \(differing) pixels differ by more than a shade")
    }
}

@Test func drawingWithinARegionDrawsItsPixelsExactlyAsAWholeDrawAndNothingOutside() {
    let whole = Picture(64, 64), part = Picture(64, 64)
    let region = (x: 20..<45, y: 10..<30)
    for (a, b, width) in [((5.0, 5.0), (60.0, 40.0), 9.6), ((30.2, 2.0), (33.7, 61.0), 28.8), ((40.0, 20.0), (40.5, 20.2), 6.0)] {
        whole.draw(a, b, width: width)
        part.pixels.withUnsafeMutableBufferPointer {
            _ = SegmentRaster.draw(into: PixelBuffer(base: $0.baseAddress!, width: 64, height: 64, rowPixels: part.rowPixels),
                                   from: (x: a.0, y: a.1), to: (x: b.0, y: b.1), lineWidth: width,
                                   ink: .paint(red: 214, green: 26, blue: 28), within: region)
        }
    }
    for y in 0..<64 { for x in 0..<64 {
        let inside = region.x.contains(x) && region.y.contains(y)
        #expect(part[x, y] == (inside ? whole[x, y] : 0), "pixel \(x),\(y)")
    } }
}
