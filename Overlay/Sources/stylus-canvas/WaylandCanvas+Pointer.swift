// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

extension WaylandCanvas {
    /// A surface-local point (logical pixels) in the daemon's space (InkGeometry's `pixel`, inverted).
    func inkPoint(x: Double, y: Double) -> InkPoint {
        let g = layers.geometry
        return InkPoint(x: (x + g.originX) / g.width, y: (y + g.originY) / g.height, pressure: DrawRequest.defaultPressure)
    }

    /// At each opening the daemon is asked for `[canvas] pointer`; a change sets every canvas's input region anew.
    func refreshPointerSetting() {
        guard let overlay = owner as? CanvasOverlay else { return }
        backend.pointerInput.refreshSetting(owner: overlay) { [weak overlay] in
            for w in overlay?.windows ?? [] { w.updateInputRegion() }
        }
    }

    /// The whole surface takes pointer input to draw with it, in filter mode too; `--click-through` still wins.
    var takesPointerToDraw: Bool {
        backend.pointerInput.draws && !((owner as? CanvasOverlay)?.options.clickThrough ?? false)
    }
}
