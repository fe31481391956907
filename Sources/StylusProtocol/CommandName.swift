// SPDX-License-Identifier: MIT
/// Every command of the protocol, listed once: the decoder's error, the
/// `hello` event, stylusctl's subcommands, help texts and completions all
/// derive from this list. Adding a command is a case here, its decoding in
/// `ClientCommand.init(name:fields:)`, and its handler in the daemon.
public enum CommandName: String, CaseIterable, Codable, Sendable {
    case status, toggle, open, minimize, ack, strokes, clear, undo, redo, tool, export, submit, discard, palette, paletteRegions = "palette-regions", precision, background, subscribe, unsubscribe, devices, reload, output, overlay, key, draw, pens, snapshot, copy, shared
    case text

    /// The argument a command takes beyond `id` and `cmd`.
    public enum Argument: Sendable, Equatable {
        /// `"action"`: one of `PrecisionRequest`'s values.
        case precisionAction
        /// `"topics"`: an array of `Topic` values (optional).
        case topics
        /// `"mode"`: one of `OutputChoice`'s values.
        case outputMode
        /// `"backend"` and `"outputs"`: an `OverlayReport`.
        case overlayReport
        /// Any of `"tool"`, `"color"`, `"width"` (none: the current style).
        case style
        /// `"path"` (absolute, ending in .png or .svg), optional `"width"` and `"height"`.
        case export
        /// `"action"`: one of `PaletteRequest`'s values.
        case paletteAction
        /// `"regions"`: an array of `PaletteRegion` objects.
        case paletteRegions
        /// `"key"`: a `CanvasKeyName`, e.g. "ctrl+z".
        case keyName
        /// `"source"`, `"phase"`, `"points"` and (optional) `"aspect"`: a `DrawRequest`.
        case draw
        /// `"text"`, `"x"`, `"y"` and (optional) `"size"` and `"color"`: a `TextRequest`.
        case text
        /// `"background"`: a `BackgroundRequest`'s name (none: the current board).
        case background
        /// Optional `"path"` (absolute, ending in .png) and `"monitor"` (a connector name).
        case snapshot
        /// Optional `"what"`: `"drawing"` (the default) or `"snapshot"`.
        case copy
        /// `"request"` and either `"error"` or what was made: a `ShareReply`.
        case shared
    }

    public var argument: Argument? {
        switch self {
        case .precision: .precisionAction
        case .subscribe, .unsubscribe: .topics
        case .output: .outputMode
        case .overlay: .overlayReport
        case .tool: .style
        case .export: .export
        case .palette: .paletteAction
        case .paletteRegions: .paletteRegions
        case .key: .keyName
        case .draw: .draw
        case .text: .text
        case .background: .background
        case .snapshot: .snapshot
        case .copy: .copy
        case .shared: .shared
        default: nil
        }
    }

    /// One line for help texts.
    public var summary: String {
        switch self {
        case .status: "Show the canvas, precision and input state."
        case .toggle: "Open the canvas if minimized, minimize it if open."
        case .open: "Open the canvas."
        case .minimize: "Minimize the canvas, keeping its strokes."
        case .ack: "Tell stylusd the overlay finished its transition."
        case .strokes: "Print the canvas's strokes, or draw them into an SVG file."
        case .clear: "Delete every stroke on the canvas."
        case .undo: "Take back the last stroke or clear."
        case .redo: "Take again what undo took back (until the drawing changes otherwise)."
        case .tool: "Show or set the tool, colour and width of the next strokes."
        case .export: "Write the drawing to a PNG (as the canvas draws it) or an SVG file."
        case .submit: "Keep the drawing: save it as a PNG in the export directory, clear, minimize."
        case .discard: "Throw the drawing away: minimize and clear (undo brings it back)."
        case .palette: "Show, hide or toggle the canvas's palette of tools, colours and widths."
        case .paletteRegions: "Tell stylusd where the canvas's palette is (stylus-canvas sends it)."
        case .background: "Show or set the board under the ink: none, white, black, grid, #rrggbb or next."
        case .precision: "Enable, disable or toggle precision mode."
        case .subscribe: "Print events as they happen."
        case .unsubscribe: "Stop receiving events of some topics."
        case .devices: "List the input hardware the daemon sees (its probe)."
        case .pens: "List each pen tool seen (most recent first) with the style it draws with."
        case .reload: "Make the daemon re-read its configuration file."
        case .output: "Switch how pen input reaches the desktop: observe (releases the pen at once), filter or auto."
        case .overlay: "Tell stylusd how the canvas overlay reaches the screen (stylus-canvas sends it; status shows it)."
        case .key: "Do what a key does on the open canvas ([canvas.keys]; stylus-canvas sends the keys it does not handle)."
        case .draw: "Draw a piece of a mouse or touch stroke on the open canvas (stylus-canvas sends it)."
        case .snapshot: "Write a PNG of the screen as the user sees it: the windows under the canvas with the ink over them."
        case .copy: "Put the drawing (or a snapshot of the screen with it) on the clipboard as image/png."
        case .shared: "Tell stylusd how a snapshot or copy it asked for went (stylus-canvas sends it)."
        case .text: "Put a text on the open canvas at x, y (0-1), in the current colour and a size from the width."
        }
    }

    /// "status, toggle, …, reload", as error messages list them.
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
