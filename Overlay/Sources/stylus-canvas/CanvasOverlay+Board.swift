// SPDX-License-Identifier: MIT
import CanvasModel

extension CanvasOverlay {
    /// The daemon's board changed (or was read on connecting): every surface draws it from the next frame.
    func setBoard(_ background: InkBoard) {
        if background != board { log("background \(background.name)") }
        board = background
        applyBoard()
        queueDraw()
    }

    /// Gives each surface the board; a surface made since (a monitor came) gets it here too.
    func applyBoard() {
        for w in windows { w.layers.setBoard(board) }
    }
}
