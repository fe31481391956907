// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// Layer pixels, as columns and rows.
typealias PixelRegion = (x: Range<Int>, y: Range<Int>)

/// The finished layer as it was a little while ago: its first strokes, drawn
/// into a layer of their own. An undo, a redo or a clear taken back then copies
/// it and draws the strokes after it, a thousand or so points, rather than the
/// whole drawing (which near the point limit took longer than a frame). Only a
/// drawing of more than `maximumLag` points has one: it costs a layer's memory.
struct FinishedCheckpoint {
    var surface: OpaquePointer?
    /// The strokes `surface` holds.
    var strokes: [InkStroke] = []

    /// Whether the checkpoint holds the first of `drawing`'s strokes, so that
    /// copying it and drawing the rest draws `drawing`. Derived each time, not
    /// kept in step by hand: a clear, an undo past it or a new drawing leave it
    /// behind (kept for a clear taken back) without anyone saying so.
    func leads(_ drawing: [InkStroke]) -> Bool {
        surface != nil && !strokes.isEmpty && strokes.count <= drawing.count
            && drawing[..<strokes.count].elementsEqual(strokes)
    }

    /// Points the checkpoint stays behind the drawing: an undo of the last
    /// strokes finds their start in it…
    static let minimumLag = 1_000
    /// …and most the strokes after it may hold before it moves up.
    static let maximumLag = 3_000
}

extension InkLayers {
    /// Puts the checkpoint's pixels in the finished layer when it holds the first
    /// of `strokes`; the caller draws the rest.
    func restoreCheckpoint(for strokes: [InkStroke]) -> Bool {
        guard let surface = checkpoint.surface, let finished, shareCheckpoint(with: strokes) else { return false }
        let cr = cairo_create(finished)!
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        damageEverything()
        return true
    }

    /// When the checkpoint leads `drawing`, it takes the drawing's own copies of the
    /// strokes it holds: strokes decoded afresh (an undo, a redo) compare point by
    /// point, the same storage at once, so the `leads` of each stroke drawn after
    /// stays cheap. True when it leads.
    @discardableResult
    func shareCheckpoint(with drawing: [InkStroke]) -> Bool {
        guard checkpoint.leads(drawing) else { return false }
        checkpoint.strokes = Array(drawing[..<checkpoint.strokes.count])
        return true
    }

    /// Draws the checkpoint afresh for `strokes` (none when the drawing is too
    /// small for one); returns how many strokes it holds.
    func rebuildCheckpoint(for strokes: [InkStroke]) -> Int {
        let count = keepsCheckpoint && finished != nil ? Self.checkpointCount(strokes) : 0
        checkpoint.strokes = []
        guard count > 0 else { return 0 }
        if checkpoint.surface == nil { checkpoint.surface = makeLayer() }
        withoutDamage {
            clear(checkpoint.surface)
            for stroke in strokes[..<count] { draw(stroke, into: checkpoint.surface) }
        }
        checkpoint.strokes = Array(strokes[..<count])
        return count
    }

    /// Moves the checkpoint up once more than `maximumLag` points were drawn
    /// after it, or draws one for a drawing that grew past `maximumLag` without it.
    func advanceCheckpoint() {
        guard keepsCheckpoint, finished != nil else { return }   // no layers yet: `ensure` draws them whole
        let drawn = drawnFinished
        let held = checkpoint.strokes.count
        guard checkpoint.leads(drawn) else {
            // A drawing that grew past `maximumLag` gets its first checkpoint now,
            // while that is cheap. One left behind (an undo past it, a clear) is
            // kept for a clear taken back and drawn again only by a full redraw.
            if held == 0, drawn.reduce(0, { $0 + $1.points.count }) > FinishedCheckpoint.maximumLag { _ = rebuildCheckpoint(for: drawn) }
            return
        }
        guard drawn[held...].reduce(0, { $0 + $1.points.count }) > FinishedCheckpoint.maximumLag else { return }
        let count = Self.checkpointCount(drawn)
        guard count > held else { return }
        withoutDamage {
            for stroke in drawn[held..<count] { draw(stroke, into: checkpoint.surface) }
        }
        checkpoint.strokes = Array(drawn[..<count])
    }

    /// Drawing into the checkpoint changes nothing on the screen.
    private func withoutDamage(_ body: () -> Void) {
        let before = damage
        body()
        damage = before
    }

    /// How many strokes a checkpoint of `strokes` holds: all but the last
    /// `minimumLag` points' worth, none for a drawing within `maximumLag`.
    static func checkpointCount(_ strokes: [InkStroke]) -> Int {
        var after = 0
        for index in strokes.indices.reversed() {
            after += strokes[index].points.count
            if after >= FinishedCheckpoint.minimumLag {
                return strokes[..<index].reduce(0, { $0 + $1.points.count }) + after > FinishedCheckpoint.maximumLag ? index : 0
            }
        }
        return 0
    }
}

// MARK: Redrawing only where the drawing changed

extension InkLayers {
    /// When what changed (the strokes an undo took away or a redo gave back, a
    /// stroke erased whole) covers at most a quarter of the layer, clears that
    /// part and draws there the strokes that reach it, in order, each pixel as a
    /// whole redraw would: true when it did.
    func redrawChangedRegion(to strokes: [InkStroke]) -> Bool {
        guard let finished else { return false }
        let old = drawnFinished
        var common = 0, tail = 0
        while common < min(old.count, strokes.count), old[common] == strokes[common] { common += 1 }
        while common + tail < min(old.count, strokes.count), old[old.count - 1 - tail] == strokes[strokes.count - 1 - tail] { tail += 1 }
        var changed = erasedLive
        for stroke in old[common..<old.count - tail] + strokes[common..<strokes.count - tail] {
            guard let bounds = pixelBounds(stroke) else { continue }
            changed = changed.map { union($0, bounds) } ?? bounds
        }
        let width = Int(cairo_image_surface_get_width(finished)), height = Int(cairo_image_surface_get_height(finished))
        guard var region = changed else {
            drawnFinished = strokes   // only strokes that draw nothing here changed
            return true
        }
        // Cairo draws a stroke clipped to a rectangle a shade off from drawing it
        // whole, so the region grows to hold the whole of each highlighter or
        // shape that reaches it; segments are drawn exactly either way.
        let bounds = strokes.map(pixelBounds)
        var grown = true
        while grown, region.x.count * region.y.count * 4 <= width * height {
            grown = false
            for (stroke, box) in zip(strokes, bounds) where stroke.tool.drawsWhole || stroke.tool == .text {
                guard let box, overlap(box, region), union(box, region) != region else { continue }
                region = union(box, region)
                grown = true
            }
        }
        guard region.x.count * region.y.count * 4 <= width * height else { return false }
        let reaching = zip(strokes, bounds).filter { $1.map { overlap($0, region) } == true }.map(\.0)
        if checkpoint.leads(strokes),
           strokes[checkpoint.strokes.count...].reduce(0, { $0 + $1.points.count }) < reaching.reduce(0, { $0 + $1.points.count }) {
            return false   // fewer points to draw from the checkpoint
        }
        cairo_surface_flush(finished)
        if let data = cairo_image_surface_get_data(finished) {
            let rowPixels = Int(cairo_image_surface_get_stride(finished)) / 4
            let pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
            for y in region.y { (pixels + y * rowPixels + region.x.lowerBound).update(repeating: 0, count: region.x.count) }
            cairo_surface_mark_dirty_rectangle(finished, Int32(region.x.lowerBound), Int32(region.y.lowerBound),
                                               Int32(region.x.count), Int32(region.y.count))
        }
        for stroke in reaching { draw(stroke, into: finished, within: stroke.tool.drawsWhole ? nil : region) }
        // Segments cut at the region add no damage beyond it (drawSegments counts none with `within`).
        let scale = key.scale
        addDamage(PixelRect(x: Double(region.x.lowerBound) / scale, y: Double(region.y.lowerBound) / scale,
                            width: Double(region.x.count) / scale, height: Double(region.y.count) / scale))
        drawnFinished = strokes
        return true
    }

    /// The layer pixels `stroke` can touch (its points, widened by half its widest
    /// line, an arrow's head and a pixel of antialiasing); nil when none.
    func pixelBounds(_ stroke: InkStroke) -> PixelRegion? {
        if stroke.tool == .text { return textBounds(stroke) }
        return pixelBounds(stroke.points, stroke.style)
    }

    /// The box of a stroke's points drawn in `style`: also of one live segment, without
    /// building a stroke for it.
    func pixelBounds(_ points: some Collection<InkPoint>, _ style: InkStyle) -> PixelRegion? {
        guard points.count > 1 else { return nil }
        var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for point in points {
            let (x, y) = geometry.pixel(point)
            (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        }
        let widest = geometry.pixels(style.maximumReferenceWidth)
        let pad = widest / 2 + 2 + (style.tool == .arrow ? max(12, 4 * widest) : 0)
        let scale = key.scale
        let width = Double(InkLayers.pixels(key.width, scale)), height = Double(InkLayers.pixels(key.height, scale))
        let left = max(0, min(width, ((x0 - pad) * scale).rounded(.down))), right = max(0, min(width, ((x1 + pad) * scale).rounded(.up)))
        let top = max(0, min(height, ((y0 - pad) * scale).rounded(.down))), bottom = max(0, min(height, ((y1 + pad) * scale).rounded(.up)))
        guard left < right, top < bottom else { return nil }
        return (Int(left)..<Int(right), Int(top)..<Int(bottom))
    }
}

func union(_ a: PixelRegion, _ b: PixelRegion) -> PixelRegion {
    (min(a.x.lowerBound, b.x.lowerBound)..<max(a.x.upperBound, b.x.upperBound),
     min(a.y.lowerBound, b.y.lowerBound)..<max(a.y.upperBound, b.y.upperBound))
}

private func overlap(_ a: PixelRegion, _ b: PixelRegion) -> Bool { a.x.overlaps(b.x) && a.y.overlaps(b.y) }
