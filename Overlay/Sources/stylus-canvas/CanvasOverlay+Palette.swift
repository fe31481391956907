// SPDX-License-Identifier: MIT
import CanvasModel

extension CanvasOverlay {
    /// Lays the palette out on the placement's first monitor (the one a pen
    /// display maps to; with several, the first), draws it there, and tells the
    /// daemon where its buttons are in the tablet's coordinates: the daemon,
    /// which sees every pen tap, decides that a tap there selects.
    func updatePalette() {
        guard let placement, let first = windows.first else { return }
        let monitors = backend.monitors()
        guard let index = placement.monitors.first, index < monitors.count else { return }
        let m = monitors[index]
        let buttons = PaletteLayout.buttons(colors: paletteColors, width: Double(m.width), height: Double(m.height))
        first.layers.setPalette(paletteShown ? buttons : [], style: currentStyle)
        for w in windows.dropFirst() { w.layers.setPalette([], style: currentStyle) }
        queueDraw()
        let regions = PaletteLayout.regions(buttons, geometry: placement.geometry(on: m))
        guard model.connected, regions != reportedRegions else { return }
        reportedRegions = regions
        link.reportPalette(regions) { error in
            MainInbox.shared.post { [self] in
                guard let error else { return log("palette: \(regions.count) regions reported") }
                printError("stylus-canvas: palette regions: \(error)\n")
                reportedRegions = nil
            }
        }
    }
}
