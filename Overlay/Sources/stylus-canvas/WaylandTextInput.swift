// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
import StylusCore

/// The text tool's input method on Wayland: zwp_text_input_v3 where the
/// compositor offers it (sway, KWin, GNOME's mutter with an IM running). It is
/// enabled while a text is typed on the canvas that has the keyboard, and
/// disabled when that text ends or the canvas minimizes; the IM's committed
/// strings are typed into the entry as keys are, its preedit shows after the
/// entry's text until it is committed or replaced, and never goes to the
/// daemon (ShownPreedit: the entry without it is what the overlay sees and sends).
/// Where no text-input is offered, or no IM is running (no `enter` comes),
/// nothing changes: plain keys type as before.
///
/// One per process, for the backend's first seat; made before the first frame,
/// so that it exists when the surface gets the keyboard (a compositor such as
/// sway 1.7 sends `enter` only to text inputs that exist at that moment).
@MainActor
final class WaylandTextInput {
    private static var made = false
    private static var shared: WaylandTextInput?

    private let textInput: OpaquePointer
    /// The surface the text input entered (the keyboard's); nil after `leave`.
    private var entered: OpaquePointer?
    /// The canvas the text input is enabled for, and its entry's anchor then: a new anchor is a new text.
    private weak var canvas: WaylandCanvas?
    private var anchor: InkPoint?
    /// The IM's preedit, shown in that canvas's layers.
    private let preedit = ShownPreedit()
    private var cursorRectangle: (Int32, Int32, Int32, Int32)?
    /// What came since the last `done`, applied together there, as the protocol asks.
    private var pendingPreedit = "", pendingCommit = "", pendingDelete = 0

    private init(textInput: OpaquePointer) {
        self.textInput = textInput
    }

    /// The text input of the backend's seat, asked for once the seat is known; nil without text-input-v3.
    static func of(_ backend: WaylandBackend) -> WaylandTextInput? {
        guard !made, let seat = backend.seat else { return shared }
        made = true
        guard let manager = findManager(backend.display), let proxy = zwp_text_input_manager_v3_get_text_input(manager, seat) else {
            backend.owner?.log("text-input: the compositor offers no zwp_text_input_manager_v3: plain keys type")
            return nil
        }
        let input = WaylandTextInput(textInput: proxy)
        zwp_text_input_v3_add_listener(proxy, listener, Unmanaged.passUnretained(input).toOpaque())
        shared = input
        backend.flush()
        return input
    }

    /// The manager from a registry of its own on a queue of its own, read at once: the globals the
    /// backend's registry saw are not kept, and a roundtrip there would dispatch the canvas's events here.
    private static func findManager(_ display: OpaquePointer) -> OpaquePointer? {
        guard let queue = wl_display_create_queue(display) else { return nil }
        defer { wl_event_queue_destroy(queue) }
        guard let wrapper = wl_proxy_create_wrapper(UnsafeMutableRawPointer(display)) else { return nil }
        wl_proxy_set_queue(OpaquePointer(wrapper), queue)
        let registry = wl_display_get_registry(OpaquePointer(wrapper))
        wl_proxy_wrapper_destroy(wrapper)
        guard let registry else { return nil }
        defer { wl_registry_destroy(registry) }
        let found = UnsafeMutablePointer<(name: UInt32, version: UInt32)>.allocate(capacity: 1)
        defer { found.deallocate() }
        found.initialize(to: (0, 0))
        wl_registry_add_listener(registry, registryListener, found)
        guard wl_display_roundtrip_queue(display, queue) >= 0, found.pointee.name != 0 else { return nil }
        guard let manager = stylus_bind(registry, found.pointee.name, "zwp_text_input_manager_v3", 1) else { return nil }
        wl_proxy_set_queue(OpaquePointer(manager), nil)   // its text input's events go with the canvas's
        return OpaquePointer(manager)
    }

    private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        var l = wl_registry_listener()
        l.global = { data, _, name, interface, version in
            guard let data, let interface, String(cString: interface) == "zwp_text_input_manager_v3" else { return }
            data.assumingMemoryBound(to: (name: UInt32, version: UInt32).self).pointee = (name, version)
        }
        l.global_remove = { _, _, _ in }
        return allocate(l)
    }()

    // MARK: Following the canvas's entry

    /// Takes the preedit out of the canvas's entry while `body` runs (the overlay types, ends or
    /// sends the entry as it is without it), then shows it again if the entry goes on.
    func withoutPreedit<T>(_ canvas: WaylandCanvas, _ body: () -> T) -> T {
        canvas === self.canvas ? preedit.without(canvas.layers, anchor: anchor, body) : body()
    }

    /// After the canvas's entry changed (or a frame): enabled while the canvas that has the keyboard
    /// types a text, for that text; disabled when it ends; the caret's rectangle kept up to date.
    func follow(_ canvas: WaylandCanvas) {
        let entry = canvas === self.canvas ? (preedit.base ?? canvas.layers.textEntry) : canvas.layers.textEntry
        let wanted = entry != nil && entered != nil && canvas.surface == entered
        if wanted, let entry {
            if self.canvas !== canvas || anchor != entry.anchor { enable(canvas, entry) }
            updateCursor(canvas, entry)
        } else if self.canvas === canvas {
            disable()
        }
    }

    private func enable(_ canvas: WaylandCanvas, _ entry: TextEntry) {
        if let old = self.canvas, old !== canvas { dropPreedit(old) }
        dropPreedit(canvas)
        self.canvas = canvas
        anchor = entry.anchor
        cursorRectangle = nil
        // Enable again for a new text: it resets the IM's state (its preedit of the last text).
        zwp_text_input_v3_enable(textInput)
        zwp_text_input_v3_set_content_type(textInput, UInt32(ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue),
                                           UInt32(ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue))
        zwp_text_input_v3_commit(textInput)
        canvas.owner.log("text-input: enabled for the text at (\(entry.anchor.x), \(entry.anchor.y))")
    }

    private func disable() {
        guard let canvas else { return }
        dropPreedit(canvas)
        self.canvas = nil
        anchor = nil
        if entered != nil {
            zwp_text_input_v3_disable(textInput)
            zwp_text_input_v3_commit(textInput)
        }
        canvas.owner.log("text-input: disabled")
    }

    /// The caret as the IM's popup should know it: after the entry's ink (and the preedit's), on its last line.
    private func updateCursor(_ canvas: WaylandCanvas, _ entry: TextEntry) {
        let shown = canvas.layers.textEntry ?? entry
        let (x, y) = canvas.layers.geometry.pixel(shown.anchor)
        let size = canvas.layers.geometry.pixels(shown.size)
        let lines = shown.text.lines
        var right = x
        if let last = lines.last, !last.isEmpty, let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) {
            let cr = cairo_create(scratch)!
            let box = InkLayers.showText(cr, StrokeText(string: String(last), size: shown.size), x: x, y: y, size: size, draw: false)
            right = box.x + box.width
            cairo_destroy(cr)
            cairo_surface_destroy(scratch)
        }
        let top = y + StrokeText.baseline(line: max(lines.count - 1, 0), size: size) - StrokeText.baselineShare * size
        let rectangle = (Int32(right.rounded()), Int32(top.rounded()), Int32(2), Int32((StrokeText.lineHeightShare * size).rounded()))
        guard cursorRectangle.map({ $0 != rectangle }) ?? true else { return }
        cursorRectangle = rectangle
        zwp_text_input_v3_set_cursor_rectangle(textInput, rectangle.0, rectangle.1, rectangle.2, rectangle.3)
        zwp_text_input_v3_commit(textInput)
    }

    // MARK: The preedit, shown after the entry's text

    private func dropPreedit(_ canvas: WaylandCanvas) {
        preedit.drop(canvas === self.canvas ? canvas.layers : nil)
    }

    // MARK: The IM's events

    private static let listener: UnsafeMutablePointer<zwp_text_input_v3_listener> = {
        var l = zwp_text_input_v3_listener()
        l.enter = { data, _, surface in
            let bits = UInt(bitPattern: surface)
            onMain(data, WaylandTextInput.self) { $0.entered(OpaquePointer(bitPattern: bits)) }
        }
        l.leave = { data, _, _ in onMain(data, WaylandTextInput.self) { $0.left() } }
        l.preedit_string = { data, _, text, _, _ in
            let text = text.map { String(cString: $0) } ?? ""
            onMain(data, WaylandTextInput.self) { $0.pendingPreedit = text }
        }
        l.commit_string = { data, _, text in
            let text = text.map { String(cString: $0) } ?? ""
            onMain(data, WaylandTextInput.self) { $0.pendingCommit += text }
        }
        l.delete_surrounding_text = { data, _, before, _ in
            onMain(data, WaylandTextInput.self) { $0.pendingDelete += Int(before) }
        }
        l.done = { data, _, _ in onMain(data, WaylandTextInput.self) { $0.done() } }
        return allocate(l)
    }()

    private func entered(_ surface: OpaquePointer?) {
        entered = surface
        // The canvas of that surface follows at its next frame.
        for canvas in Self.canvases where canvas.surface == surface { canvas.queueDraw() }
    }

    private func left() {
        entered = nil
        if let canvas {
            dropPreedit(canvas)
            canvas.queueDraw()
            canvas.owner.log("text-input: left (the IM went, or the keyboard): plain keys type")
        }
        canvas = nil
        anchor = nil
    }

    /// The protocol's order: the old preedit goes, the text before the caret is deleted, the
    /// committed text is typed, the new preedit shows.
    private func done() {
        let commit = pendingCommit, delete = pendingDelete, newPreedit = pendingPreedit
        (pendingCommit, pendingDelete, pendingPreedit) = ("", 0, "")
        guard let canvas else { return }
        let typing = canvas.layers.textEntry != nil
        preedit.update(canvas.layers, anchor: anchor, deleting: delete, commit: commit, preedit: newPreedit)
        if typing, !commit.isEmpty { canvas.owner.log("text-input: committed \(commit.unicodeScalars.count) characters") }
        canvas.queueDraw()
    }

    private static var canvases: [WaylandCanvas] {
        (WaylandBackend.current?.owner as? CanvasOverlay)?.windows.compactMap { $0 as? WaylandCanvas } ?? []
    }
}
