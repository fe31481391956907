// SPDX-License-Identifier: MIT
public import StylusCore

public enum ClientCommand: Equatable, Sendable {
    case status, toggle, open, minimize, ack, strokes, clear, undo, redo, devices, reload, submit, discard, pens
    /// The drawing into `path` (PNG or SVG, by its extension), at the given size or the default one.
    case export(path: String, width: Int?, height: Int?)
    /// No change: the current style; else the style with these parts changed,
    /// of the pen tool `pen` names (name or serial) or else of the one in use.
    case tool(tool: DrawingTool?, color: StrokeColor?, width: Double?, pen: String? = nil)
    /// The `tool` command with a step from the current style: `"tool":"previous"`,
    /// `"color":"next"` or `"previous"`, `"width":"+"` or `"-"`; of `pen`'s style as for `tool`.
    case styleStep(StyleRequest, pen: String? = nil)
    case palette(PaletteRequest)
    case paletteRegions([PaletteRegion])
    case precision(PrecisionRequest)
    /// No request: the current board; else the board changed.
    case background(BackgroundRequest?)
    case subscribe([Topic])
    case unsubscribe([Topic])
    case output(OutputChoice)
    case overlay(OverlayReport)
    /// A key pressed on the open canvas, for the daemon to perform its action.
    case key(CanvasKeyName)
    case draw(DrawRequest)
    /// A text on the open canvas.
    case text(TextRequest)
    /// The screen with the ink into `path` (nil: a new file in the export folder), of one monitor or the canvas's first.
    case snapshot(path: String?, monitor: String?)
    /// The drawing, or the screen with the ink, on the clipboard.
    case copy(snapshot: Bool)
    /// `submit` with `inline` or `scene` (a plain `submit` is `.submit`).
    case submitWith(SubmitOptions)
    /// `strokes` from the stroke of this index on (a plain `strokes` is `.strokes`).
    case strokesFrom(Int)
    /// The canvas's answer to a `share` event.
    case shared(ShareReply)

    public var name: CommandName {
        switch self {
        case .status: .status
        case .toggle: .toggle
        case .open: .open
        case .minimize: .minimize
        case .ack: .ack
        case .strokes, .strokesFrom: .strokes
        case .clear: .clear
        case .undo: .undo
        case .redo: .redo
        case .tool, .styleStep: .tool
        case .export: .export
        case .submit, .submitWith: .submit
        case .discard: .discard
        case .palette: .palette
        case .paletteRegions: .paletteRegions
        case .devices: .devices
        case .reload: .reload
        case .precision: .precision
        case .background: .background
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .output: .output
        case .overlay: .overlay
        case .pens: .pens
        case .key: .key
        case .draw: .draw
        case .text: .text
        case .snapshot: .snapshot
        case .copy: .copy
        case .shared: .shared
        }
    }

    /// The fields a request carries besides `id` and `cmd`.
    public var fields: [String: JSONValue] {
        switch self {
        case .precision(let request): ["action": .string(request.rawValue)]
        case .palette(let request): ["action": .string(request.rawValue)]
        case .background(let request?): ["background": .string(request.name)]
        case .paletteRegions(let regions):
            ["regions": .array(regions.map { r in
                .object(["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height),
                         "select": .string(r.selectionText)])
            })]
        case .subscribe(let topics), .unsubscribe(let topics): ["topics": .array(topics.map { .string($0.rawValue) })]
        case .output(let mode): ["mode": .string(mode.rawValue)]
        case .key(let name): ["key": .string(name.description)]
        case .overlay(let report):
            ["backend": .string(report.backend), "outputs": .number(Double(report.outputs))].merging(
                [("width", report.width), ("height", report.height)].compactMap { k, v in v.map { (k, JSONValue.number(Double($0))) } }
                + [("variant", report.variant), ("shell", report.shell)].compactMap { k, v in v.map { (k, JSONValue.string($0)) } }) { a, _ in a }
        case .export(let path, let width, let height):
            ["path": .string(path)].merging([("width", width), ("height", height)].compactMap { k, v in v.map { (k, JSONValue.number(Double($0))) } }) { a, _ in a }
        case .tool(let tool, let color, let width, let pen):
            [:].merging([("tool", tool.map { JSONValue.string($0.rawValue) }), ("color", color.map { .string($0.hex) }),
                         ("width", width.map { .number($0) }), ("pen", pen.map { .string($0) })].compactMap { k, v in v.map { (k, $0) } }) { a, _ in a }
        case .styleStep(let request, let pen):
            (StyleArgument.spelling(of: request).map { [$0.argument.rawValue: JSONValue.string($0.word)] } ?? [:])
                .merging(pen.map { ["pen": .string($0)] } ?? [:]) { a, _ in a }
        case .draw(let request): Self.fields(of: request)
        case .text(let request): Self.fields(of: request)
        case .snapshot(let path, let monitor):
            [:].merging([("path", path), ("monitor", monitor)].compactMap { k, v in v.map { (k, JSONValue.string($0)) } }) { a, _ in a }
        case .copy(let snapshot): snapshot ? ["what": .string("snapshot")] : [:]
        case .shared(let reply): reply.fields
        case .submitWith(let options): options.fields
        case .strokesFrom(let index): ["from": .number(Double(index))]
        default: [:]
        }
    }
}
