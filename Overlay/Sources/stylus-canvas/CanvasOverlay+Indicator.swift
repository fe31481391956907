// SPDX-License-Identifier: MIT
import CanvasModel

extension CanvasOverlay {
    /// The daemon's `[canvas] indicator` (on connecting, and asked again at each opening,
    /// since a reload sends no event for it): every surface draws it from the next frame.
    func setIndicator(_ indicator: InkIndicator) {
        if indicator != self.indicator { log("indicator \(indicator.rawValue)") }
        self.indicator = indicator
        applyIndicator()
        queueDraw()
    }

    /// Gives each surface the sign; a surface made since (a monitor came) gets it here too.
    func applyIndicator() {
        for w in windows { w.layers.setIndicator(indicator) }
    }

    func refreshIndicator() {
        link.indicatorSetting { indicator in
            guard let indicator else { return }
            MainInbox.shared.post { [self] in
                if indicator != self.indicator { setIndicator(indicator) }
            }
        }
    }
}
