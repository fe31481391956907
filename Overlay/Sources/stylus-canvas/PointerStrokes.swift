// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

/// What every backend's mouse and touch input does with a point once it has it
/// in the daemon's space: follows `[canvas] pointer` as the daemon says it, sends
/// the stroke to the daemon (`draw`, through one PointerStream) and draws it live,
/// except a press on the palette, which the daemon answers by selecting.
/// X11PointerInput and WaylandPointerInput each keep one.
@MainActor
final class PointerStrokes {
    /// `[canvas] pointer` as the daemon last said: draw (the default) or pass.
    private(set) var draws = true
    private var stream: PointerStream?
    /// The sources whose press landed on the palette: nothing of theirs is drawn live until they lift.
    private var onPalette: Set<StrokeSource> = []
    /// The sources whose press hid the help: that press draws nothing, until they lift.
    private var dismissedHelp: Set<StrokeSource> = []

    /// Asks the daemon for `[canvas] pointer` (at each opening: a reload applies from the next);
    /// `changed` runs on the main thread when it differs from what the canvas follows.
    func refreshSetting(owner: CanvasOverlay, changed: @escaping @MainActor () -> Void) {
        stream(owner).pointerSetting { setting in
            MainInbox.shared.post { [self] in
                let now = (setting ?? .draw) == .draw
                if now == draws { return }
                draws = now
                owner.log("[canvas] pointer = \(now ? "draw" : "pass")")
                changed()
            }
        }
    }

    private func stream(_ owner: CanvasOverlay) -> PointerStream {
        if let stream { return stream }
        let made = PointerStream(path: owner.link.path) { message in
            MainInbox.shared.post { owner.log("draw: \(message)") }
        }
        stream = made
        return made
    }

    /// A point of `source`'s stroke on a canvas placed by `geometry`; `.up` ends it.
    func send(_ source: StrokeSource, _ phase: DrawRequest.Phase, _ point: InkPoint, geometry: InkGeometry, owner: CanvasOverlay) {
        // A stroke the canvas's minimize ended: the daemon ended it too.
        guard owner.drawsWithPointer else { return }
        if phase == .down, owner.dismissHelp("a click") { dismissedHelp.insert(source) }
        if dismissedHelp.contains(source) {
            if phase != .down && phase != .move { dismissedHelp.remove(source) }
            return
        }
        if phase == .down {
            if owner.pointerOnPalette(point) { onPalette.insert(source) } else { onPalette.remove(source) }
        }
        let aspect = phase == .down ? geometry.height / geometry.width : nil
        stream(owner).send(DrawRequest(source: source, phase: phase, points: [DrawRequest.Point(x: point.x, y: point.y)], aspect: aspect))
        if onPalette.contains(source) { return }
        let clamped = InkPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1), pressure: DrawRequest.defaultPressure)
        owner.pointerStroke(source, at: clamped, tip: phase != .up)
    }

    /// `source`'s stroke is thrown away (a second finger): by the daemon and off the live layer.
    func cancel(_ source: StrokeSource, owner: CanvasOverlay) {
        stream(owner).send(DrawRequest(source: source, phase: .cancel, points: []))
        owner.cancelPointerStroke(source)
    }
}
