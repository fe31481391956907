// SPDX-License-Identifier: MIT
public enum Command: Equatable, Sendable {
    case toggleCanvas
    case openCanvas
    case minimizeCanvas
    /// The overlay finished drawing its transition.
    case acknowledgeTransition
    case clearCanvas
    /// Takes back the last step: a finished stroke or a clear (see `undo(source:)`).
    case undo
    /// Takes again what undo took back, until another change (stroke, erase, clear, discard, submit).
    case redo
    /// Changes the style the next stroke gets.
    case style(StyleRequest)
    /// Changes the style of one pen tool (by name or serial), in use or not.
    case penStyle(StyleRequest, pen: String)
    /// Ends the drawing as `submitted`, once the shell has written it to
    /// `path`: a canvas event with the result and the path, then an undoable
    /// clear and, if the canvas is open, a minimize. `source`: what asked for
    /// the submit (a double press's pen or pad, or a command).
    case submit(path: String, source: ChangeSource = .command)
    /// Ends the drawing as `cancelled`: an undoable clear and, if open, a minimize.
    case discard
    /// Shows or hides the canvas's palette.
    case palette(PaletteRequest)
    /// Where the canvas's palette is (the canvas reports it; empty: nowhere).
    case paletteRegions([PaletteRegion])
    case precision(PrecisionRequest)
    /// A piece of a stroke a canvas's mouse, touchpad or touchscreen draws.
    case draw(DrawRequest)
    /// Puts a text on the open canvas.
    case text(TextRequest)
    /// Changes the board under the ink.
    case background(BackgroundRequest)
}
