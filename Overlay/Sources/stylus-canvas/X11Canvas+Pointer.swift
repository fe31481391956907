// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

extension X11Canvas {
    /// A window pixel in the daemon's space (InkGeometry's `pixel`, inverted).
    func inkPoint(x: Double, y: Double) -> InkPoint {
        let g = layers.geometry
        return InkPoint(x: (x + g.originX) / g.width, y: (y + g.originY) / g.height, pressure: DrawRequest.defaultPressure)
    }
}

extension X11Canvas {
    /// At each opening the daemon is asked for `[canvas] pointer`; a change sets every canvas's input shape anew.
    func refreshPointerSetting() {
        guard let input = backend.pointerInput, let overlay = owner as? CanvasOverlay else { return }
        input.refreshSetting(owner: overlay) { [weak overlay] in
            for w in overlay?.windows ?? [] { w.updateInputRegion() }
        }
    }
}

extension X11Canvas {
    /// The whole window takes pointer input to draw with it, in filter mode too; `--click-through` still wins.
    var takesPointerToDraw: Bool {
        backend.pointerDraws && !((owner as? CanvasOverlay)?.options.clickThrough ?? false)
    }
}
