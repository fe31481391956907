// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel

/// The canvas's renderer, one for every backend (the GTK window on X11 and
/// the layer surface on Wayland draw through it, so a stroke looks the same on
/// both): finished strokes live in one offscreen layer, strokes in progress in
/// another; each new segment is drawn once into its layer, so a frame is two
/// blits and the hover rings however many points the canvas holds. It counts
/// what changed since the last frame as `damage`, in surface pixels, so that a
/// backend that can send partial frames (Wayland) sends only those.
@MainActor
final class InkLayers {
    private(set) var geometry: InkGeometry
    private var finished: OpaquePointer?
    private var live: OpaquePointer?
    private var key = (width: Int32(0), height: Int32(0), scale: 0.0)
    /// What changed since `takeDamage`; nil: nothing, `everything`: the whole surface.
    private(set) var damage: PixelRect?
    /// Where the hover rings were last drawn: they move, so their old place is damage too.
    private var drawnRings: [PixelRect] = []

    private static let ringRadius = 7.0, ringWidth = 3.0

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
        return true
    }

    /// (Re)creates both layers for a surface of `width`×`height` logical pixels at `scale`;
    /// true when it did (the caller then draws the strokes into them).
    func ensure(width: Int32, height: Int32, scale: Double) -> Bool {
        guard width > 0, height > 0, scale > 0, key != (width, height, scale) || finished == nil else { return false }
        key = (width, height, scale)
        release()
        func make() -> OpaquePointer? {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Self.pixels(width, scale), Self.pixels(height, scale))
            cairo_surface_set_device_scale(surface, scale, scale)
            return surface
        }
        finished = make()
        live = make()
        damageEverything()
        return true
    }

    /// A layer's or buffer's side in pixels for `logical` pixels at `scale`: rounded half
    /// away from zero, the rule wp_fractional_scale_v1 gives for buffer sizes.
    static func pixels(_ logical: Int32, _ scale: Double) -> Int32 { Int32((Double(logical) * scale).rounded()) }

    /// A scale as the log shows it: 2, 1.5.
    static func describe(_ scale: Double) -> String { scale == scale.rounded() ? String(Int(scale)) : String(scale) }

    func release() {
        for layer in [finished, live] where layer != nil { cairo_surface_destroy(layer) }
        finished = nil
        live = nil
    }

    // MARK: Drawing into the layers

    func clearFinished() { clear(finished) }
    func clearLive() { clear(live) }

    private func clear(_ layer: OpaquePointer?) {
        guard let layer else { return }
        let cr = cairo_create(layer)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
        damageEverything()
    }

    func redrawFinished(_ strokes: [InkStroke]) {
        clearFinished()
        for stroke in strokes { draw(stroke, into: finished) }
    }

    func redrawLive(_ strokes: [InkStroke]) {
        clearLive()
        for stroke in strokes { draw(stroke, into: live) }
    }

    func drawFinished(_ stroke: InkStroke) { draw(stroke, into: finished) }

    /// A segment of a stroke in progress. The eraser's goes into the finished
    /// layer too: it erases the ink that is already there, as it will once the
    /// stroke is finished and drawn again in its place (clearing twice is clearing).
    func drawLiveSegment(_ a: InkPoint, _ b: InkPoint, _ tool: InkTool) {
        for layer in tool == .eraser ? [live, finished] : [live] {
            guard let layer else { continue }
            let cr = cairo_create(layer)!
            Self.setInk(cr, tool)
            segment(cr, a, b, tool)
            cairo_destroy(cr)
        }
    }

    /// The pen's ink is opaque red; the eraser clears what is under it (the
    /// layers are transparent there again, so the desktop shows).
    private static func setInk(_ cr: OpaquePointer, _ tool: InkTool) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        switch tool {
        case .pen: cairo_set_source_rgba(cr, 0.84, 0.10, 0.11, 1)
        case .eraser: cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        }
    }

    private func draw(_ stroke: InkStroke, into layer: OpaquePointer?) {
        guard let layer, stroke.points.count > 1 else { return }
        let cr = cairo_create(layer)!
        Self.setInk(cr, stroke.tool)
        for (a, b) in zip(stroke.points, stroke.points.dropFirst()) { segment(cr, a, b, stroke.tool) }
        cairo_destroy(cr)
    }

    /// The eraser's path is this many times as wide as the pen's at the same pressure.
    static let eraserWidthFactor = 3.0

    /// One segment, as wide as its pressure (the `strokes --svg` rule, scaled to the mapped area; the eraser wider).
    private func segment(_ cr: OpaquePointer, _ a: InkPoint, _ b: InkPoint, _ tool: InkTool) {
        let (ax, ay) = geometry.pixel(a), (bx, by) = geometry.pixel(b)
        let factor = tool == .eraser ? Self.eraserWidthFactor : 1
        cairo_set_line_width(cr, geometry.lineWidth(a, b) * factor)
        cairo_move_to(cr, ax, ay)
        cairo_line_to(cr, bx, by)
        cairo_stroke(cr)
        addDamage(geometry.damage(a, b, widthFactor: factor))
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

    /// Paints both layers at `alpha` and a ring where each tool hovers onto `cr`,
    /// whose target holds nothing else (cleared by the caller or by GTK).
    func compose(onto cr: OpaquePointer, alpha: Double, hover: some Collection<InkPoint>) {
        for layer in [finished, live] {
            guard let layer else { continue }
            cairo_set_source_surface(cr, layer, 0, 0)
            cairo_paint_with_alpha(cr, alpha)
        }
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
