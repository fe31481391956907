// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

/// The help overlay: F1 or ? shows the key table on every surface, any key or click
/// hides it (and does nothing else), and it goes with the surfaces when the canvas
/// minimizes. The table is the daemon's (`status` canvas.keys, with `[canvas.keys]`
/// applied); the spec's defaults show at once, so the help answers without the daemon.
extension CanvasOverlay {
    var helpShown: Bool { windows.contains { $0.layers.help != nil } }

    /// A key on the open canvas: true when the help took it (showed or hid).
    func helpKey(_ key: CanvasKey) -> Bool {
        if dismissHelp("a key") { return true }
        guard case .forward(let name) = key, name.modifiers.isEmpty, CanvasSpec.helpKeys.contains(name.key),
              shown, model.canvas == .open else { return false }
        showHelp(HelpLines.lines(CanvasSpec.keys))
        link.keyTable { table in
            guard let table else { return }
            MainInbox.shared.post { [self] in if helpShown { showHelp(HelpLines.lines(table)) } }
        }
        return true
    }

    func showHelp(_ lines: [HelpLine]) {
        if !helpShown { log("help shown") }
        for w in windows { w.layers.setHelp(lines) }
        queueDraw()
    }

    /// Hides the help; false when it was not shown.
    @discardableResult
    func dismissHelp(_ why: String) -> Bool {
        guard helpShown else { return false }
        log("help hidden (\(why))")
        for w in windows { w.layers.setHelp(nil) }
        queueDraw()
        return true
    }
}
