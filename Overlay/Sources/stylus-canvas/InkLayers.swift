// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The canvas's renderer, one for every backend (the xcb window on X11 and
/// the layer surface or toplevel on Wayland draw through it, so a stroke looks
/// the same on each): finished strokes live in one offscreen layer, strokes in progress in
/// another; each new segment is drawn once into its layer, so a frame is two
/// blits and the hover rings however many points the canvas holds. It counts
/// what changed since the last frame as `damage`, in surface pixels, so that a
/// backend that can send partial frames (Wayland) sends only those.
@MainActor
final class InkLayers {
    private(set) var geometry: InkGeometry
    private(set) var finished: OpaquePointer?
    private var live: OpaquePointer?
    /// What `finished` shows, stroke by stroke (but for an eraser stroke in progress).
    var drawnFinished: [InkStroke] = []
    /// Where an eraser in progress cleared the finished layer beyond `drawnFinished`
    /// (until a redraw puts back what its stroke, once recorded, or the daemon says).
    var erasedLive: PixelRegion?
    var checkpoint = FinishedCheckpoint()
    /// False where the strokes are drawn once (an export): no checkpoint to keep.
    var keepsCheckpoint = true
    private(set) var key = (width: Int32(0), height: Int32(0), scale: 0.0)
    /// What changed since `takeDamage`; nil: nothing, `everything`: the whole surface.
    var damage: PixelRect?
    /// Where the hover rings were last drawn: they move, so their old place is damage too.
    private var drawnRings: [PixelRect] = []

    private static let ringRadius = CanvasSpec.hoverRingRadius, ringWidth = CanvasSpec.hoverRingWidth
    /// The palette's buttons on this surface (none on the others) and the style whose choices they mark.
    var palette: (buttons: [PaletteButton], style: InkStyle) = ([], InkStyle())
    /// The board under the ink (InkLayers+Board.swift).
    var board = InkBoard.none
    /// The open-canvas sign drawn over everything (none in an export: the renderer never sets it).
    var indicator = InkIndicator.none
    /// A text being typed here, with its caret (InkLayers+Text.swift; never in an export).
    var textEntry: TextEntry? {
        didSet { if textEntry != oldValue { textEntryChanged() } }
    }
    /// Where the text entry was last drawn: its old place is damage too.
    var drawnEntry: PixelRect?
    /// The help overlay's lines while it shows (InkLayers+Help.swift; never in an export).
    var help: [HelpLine]?

    init(geometry: InkGeometry) { self.geometry = geometry }

    var everything: PixelRect { PixelRect(x: 0, y: 0, width: Double(key.width), height: Double(key.height)) }

    func addDamage(_ rect: PixelRect) { damage = damage.map { $0.union(rect) } ?? rect }
    func damageEverything() { damage = everything }

    func takeDamage() -> PixelRect? {
        defer { damage = nil }
        return damage
    }

    /// Moves the ink (the placement changed); the caller redraws the strokes.
    func setGeometry(_ geometry: InkGeometry) -> Bool {
        guard geometry != self.geometry else { return false }
        self.geometry = geometry
        // What the layers hold is in the old place: nothing to redraw from.
        clear(finished)
        drawnFinished = []
        erasedLive = nil
        checkpoint.strokes = []
        return true
    }

    /// (Re)creates both layers for a surface of `width`×`height` logical pixels at `scale`;
    /// true when it did (the caller then draws the strokes into them).
    func ensure(width: Int32, height: Int32, scale: Double) -> Bool {
        guard width > 0, height > 0, scale > 0, key != (width, height, scale) || finished == nil else { return false }
        key = (width, height, scale)
        release()
        finished = makeLayer()
        live = makeLayer()
        damageEverything()
        return true
    }

    /// A transparent layer of the surface's size and scale.
    func makeLayer() -> OpaquePointer? {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Self.pixels(key.width, key.scale), Self.pixels(key.height, key.scale))
        cairo_surface_set_device_scale(surface, key.scale, key.scale)
        return surface
    }

    /// A layer's or buffer's side in pixels for `logical` pixels at `scale`: rounded half
    /// away from zero, the rule wp_fractional_scale_v1 gives for buffer sizes.
    static func pixels(_ logical: Int32, _ scale: Double) -> Int32 { Int32((Double(logical) * scale).rounded()) }

    /// A scale as the log shows it: 2, 1.5.
    static func describe(_ scale: Double) -> String { scale == scale.rounded() ? String(Int(scale)) : String(scale) }

    func release() {
        for layer in [finished, live, checkpoint.surface] where layer != nil { cairo_surface_destroy(layer) }
        finished = nil
        live = nil
        checkpoint = FinishedCheckpoint()
        drawnFinished = []
        erasedLive = nil
    }

    // MARK: Drawing into the layers

    /// The drawing was cleared. The checkpoint stays: a clear taken back (undo) starts from it.
    func clearFinished() {
        clear(finished)
        drawnFinished = []
        erasedLive = nil
    }
    func clearLive() { clear(live) }

    func clear(_ layer: OpaquePointer?) {
        guard let layer else { return }
        let cr = cairo_create(layer)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
        damageEverything()
    }

    /// The finished layer shows `strokes` from now on: drawn again only where
    /// they differ from what it shows when that is a small part of it, else from
    /// the checkpoint when it holds their first strokes (an undo, a redo), else afresh.
    func redrawFinished(_ strokes: [InkStroke]) {
        defer { erasedLive = nil }
        if strokes.isEmpty {
            clearFinished()
            return
        }
        if redrawChangedRegion(to: strokes) {
            shareCheckpoint(with: strokes)
            advanceCheckpoint()
            return
        }
        if !restoreCheckpoint(for: strokes) {
            _ = rebuildCheckpoint(for: strokes)
            if !restoreCheckpoint(for: strokes) { clear(finished) }
        }
        for stroke in strokes[(checkpoint.leads(strokes) ? checkpoint.strokes.count : 0)...] { draw(stroke, into: finished) }
        drawnFinished = strokes
        advanceCheckpoint()
    }

    func redrawLive(_ strokes: [InkStroke]) {
        clearLive()
        for stroke in strokes { draw(stroke, into: live) }
    }

    func drawFinished(_ stroke: InkStroke) {
        draw(stroke, into: finished)
        drawnFinished.append(stroke)
        advanceCheckpoint()
    }

    /// A segment of a stroke in progress. The eraser's goes into the finished
    /// layer too: it erases the ink that is already there, as it will once the
    /// stroke is finished and drawn again in its place (clearing twice is clearing).
    func drawLiveSegment(_ a: InkPoint, _ b: InkPoint, _ style: InkStyle) {
        // With the text tool the pen places the caret; it draws nothing.
        guard style.tool != .text else { return }
        if let live { drawSegments(CollectionOfOne((a, b)), style, into: live) }
        guard style.tool == .eraser else { return }
        if let finished { drawSegments(CollectionOfOne((a, b)), style, into: finished) }
        if let bounds = pixelBounds([a, b], style) {
            erasedLive = erasedLive.map { union($0, bounds) } ?? bounds
        }
    }

    /// Ink in the stroke's colour (the highlighter translucent, with flat ends);
    /// the eraser clears what is under it (the layers are transparent there
    /// again, so the desktop shows).
    private static func setInk(_ cr: OpaquePointer, _ style: InkStyle) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let c = style.color
        let (r, g, b) = (Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255)
        switch style.tool {
        case .eraser:
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        case .highlighter:
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
            cairo_set_source_rgba(cr, r, g, b, InkStyle.highlighterOpacity)
        case .pen, .laser, .line, .arrow, .rectangle, .ellipse, .text:
            cairo_set_source_rgba(cr, r, g, b, 1)
        }
    }

    /// Draws `stroke` into `layer`; a stroke of segments only into the layer's pixels
    /// `within` when given (a highlighter or a shape is drawn whole: cairo draws a
    /// clipped stroke a shade differently).
    func draw(_ stroke: InkStroke, into layer: OpaquePointer?, within: PixelRegion? = nil) {
        if stroke.style.tool == .text {
            // A text is drawn whole, as a shape is; the text tool's pen strokes are not drawn.
            if let layer, let text = stroke.text, let anchor = stroke.points.first { drawText(text, stroke.style, at: anchor, into: layer) }
            return
        }
        guard let layer, stroke.points.count > 1 else { return }
        let style = stroke.style
        guard style.tool.drawsWhole else {
            drawSegments(zip(stroke.points, stroke.points.dropFirst()), style, into: layer, within: within)
            return
        }
        let cr = cairo_create(layer)!
        defer { cairo_destroy(cr) }
        Self.setInk(cr, style)
        drawWhole(cr, stroke)
    }

    /// Segments, each as wide as its style says at its pressure, straight into
    /// the layer's pixels (`SegmentRaster`: what cairo's stroker draws, at a
    /// fifth of the cost), at the layer's device scale as cairo would draw them.
    private func drawSegments(
        _ segments: some Sequence<(InkPoint, InkPoint)>, _ style: InkStyle, into layer: OpaquePointer, within: PixelRegion? = nil
    ) {
        cairo_surface_flush(layer)
        guard let data = cairo_image_surface_get_data(layer) else { return }
        let buffer = PixelBuffer(
            base: UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
            width: Int(cairo_image_surface_get_width(layer)), height: Int(cairo_image_surface_get_height(layer)),
            rowPixels: Int(cairo_image_surface_get_stride(layer)) / 4)
        let ink: SegmentInk = style.tool == .eraser ? .clear : .paint(red: style.color.red, green: style.color.green, blue: style.color.blue)
        let scale = key.scale
        var touched: (x: Range<Int>, y: Range<Int>)?
        for (a, b) in segments {
            let (ax, ay) = geometry.pixel(a), (bx, by) = geometry.pixel(b)
            if let box = SegmentRaster.draw(into: buffer, from: (ax * scale, ay * scale), to: (bx * scale, by * scale),
                                            lineWidth: geometry.lineWidth(a, b, style) * scale, ink: ink, within: within) {
                touched = touched.map { (min($0.x.lowerBound, box.x.lowerBound)..<max($0.x.upperBound, box.x.upperBound),
                                         min($0.y.lowerBound, box.y.lowerBound)..<max($0.y.upperBound, box.y.upperBound)) } ?? box
            }
            if within == nil { addDamage(geometry.damage(a, b, style)) }
        }
        if let touched {
            cairo_surface_mark_dirty_rectangle(layer, Int32(touched.x.lowerBound), Int32(touched.y.lowerBound),
                                               Int32(touched.x.count), Int32(touched.y.count))
        }
    }

    /// A shape from the first point to the last, or the highlighter's whole path
    /// as one stroke (cairo covers a pixel once however often the path crosses it,
    /// so the highlighter does not darken where it overlaps itself).
    private func drawWhole(_ cr: OpaquePointer, _ stroke: InkStroke) {
        let first = stroke.points[0], last = stroke.points[stroke.points.count - 1]
        let width = geometry.lineWidth(first, last, stroke.style)
        cairo_set_line_width(cr, width)
        func pixel(_ p: InkPoint) -> PixelPoint {
            let (x, y) = geometry.pixel(p)
            return PixelPoint(x: x, y: y)
        }
        let bounds: PixelRect
        if let outline = ShapeOutline.of(stroke.tool, from: pixel(first), to: pixel(last), lineWidth: width) {
            switch outline {
            case .polylines(let lines, let closed):
                for line in lines {
                    cairo_move_to(cr, line[0].x, line[0].y)
                    for p in line.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                    if closed { cairo_close_path(cr) }
                }
            case .ellipse(let c, let rx, let ry):
                cairo_save(cr)
                cairo_translate(cr, c.x, c.y)
                cairo_scale(cr, max(rx, 0.01), max(ry, 0.01))
                cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
                cairo_restore(cr)   // the path stays; the pen's width is not squashed with it
            }
            bounds = outline.bounds
        } else {
            let points = stroke.points.map(pixel)
            cairo_move_to(cr, points[0].x, points[0].y)
            for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
            let xs = points.map(\.x), ys = points.map(\.y)
            bounds = PixelRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }
        cairo_stroke(cr)
        let r = width / 2 + 1
        let x0 = (bounds.x - r).rounded(.down), y0 = (bounds.y - r).rounded(.down)
        addDamage(PixelRect(x: x0, y: y0, width: (bounds.x + bounds.width + r).rounded(.up) - x0,
                            height: (bounds.y + bounds.height + r).rounded(.up) - y0))
    }

    // MARK: A frame

    /// The hover rings' places changed: their old and new places need drawing.
    func hoverMoved(_ hover: some Collection<InkPoint>) {
        for rect in drawnRings { addDamage(rect) }
        for point in hover { addDamage(ringRect(point)) }
    }

    private func ringRect(_ point: InkPoint) -> PixelRect {
        let (x, y) = geometry.pixel(point)
        let r = Self.ringRadius + Self.ringWidth
        return PixelRect(x: (x - r).rounded(.down), y: (y - r).rounded(.down), width: 2 * r + 2, height: 2 * r + 2)
    }

    /// Paints both layers at `alpha`, the palette, and a ring where each tool hovers onto `cr`,
    /// whose target holds nothing else (cleared by the caller).
    func compose(onto cr: OpaquePointer, alpha: Double, hover: some Collection<InkPoint>) {
        drawBoard(cr, alpha: alpha)
        for layer in [finished, live] {
            guard let layer else { continue }
            cairo_set_source_surface(cr, layer, 0, 0)
            cairo_paint_with_alpha(cr, alpha)
        }
        drawTextEntry(cr, alpha: alpha)
        drawPalette(cr, alpha: alpha)
        drawIndicator(cr, alpha: alpha)
        drawHelp(cr, alpha: alpha)
        drawnRings = []
        for point in hover {
            let (x, y) = geometry.pixel(point)
            cairo_new_path(cr)
            cairo_arc(cr, x, y, Self.ringRadius, 0, 2 * Double.pi)
            cairo_set_line_width(cr, Self.ringWidth)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.8 * alpha)
            cairo_stroke_preserve(cr)
            cairo_set_line_width(cr, 1.5)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.9 * alpha)
            cairo_stroke(cr)
            drawnRings.append(ringRect(point))
        }
    }
}
