// SPDX-License-Identifier: MIT
import CGlib
import CXcb
import CXim
import CanvasModel
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// The text tool's input method on the X11 canvas: the XIM server that XMODIFIERS
/// names (`@im=fcitx`, `@im=ibus`), through xcb-imdkit, which is asynchronous: every
/// X event passes through `filter` first, and no call waits for the server. While a
/// text is typed on a canvas, an on-the-spot input context of that window has the
/// focus, its spot at the caret (the IM's popup goes there); key presses go to the IM,
/// which commits strings (typed into the entry as keys are), shows a preedit (drawn
/// after the entry's text, underlined, never sent to the daemon: the overlay sees the
/// entry without it, ShownPreedit), or hands keys back (Enter, Escape: they do what they
/// always do). The context goes when the text ends or its window is unmapped
/// (minimized). No XMODIFIERS, no such server or a failed connection: plain keys type,
/// with one line in the log.
@MainActor
final class X11InputMethod {
    private static var made = false
    private(set) static var shared: X11InputMethod?

    private unowned let backend: X11Backend
    private let im: OpaquePointer
    private let name: String
    /// The server answered XIM_OPEN; contexts can be made.
    private var opened = false
    /// The context and its window; `creating` while the server has not yet answered for it.
    private var ic: xcb_xic_t?
    private var icWindow: xcb_window_t = 0
    private var creating: xcb_window_t = 0
    /// The canvas and the entry's anchor the context is for: a new anchor is a new text.
    private weak var canvas: X11Canvas?
    private var anchor: InkPoint?
    /// The spot the server has (or was last sent), and the one the caret wants.
    private var spot: (x: Int16, y: Int16)?
    private var wantedSpot: (x: Int16, y: Int16)?
    /// A spot sent and not yet answered, and the key presses held meanwhile: xcb-imdkit queues a
    /// key forwarded then behind the spot's request and sends it only at its next request.
    private var spotPending = false
    private var spotAnswered = false
    private var heldKeys: [xcb_key_press_event_t] = []
    /// The IM's preedit after the entry's text, the entry kept without it.
    private let preedit = ShownPreedit()
    /// Keys the IM handed back during the event being filtered.
    private var handed: [xcb_key_press_event_t] = []

    private init(backend: X11Backend, im: OpaquePointer, name: String) {
        self.backend = backend
        self.im = im
        self.name = name
    }

    /// The IM of XMODIFIERS, asked for once (the first time a text is typed); nil without one.
    static func of(_ backend: X11Backend) -> X11InputMethod? {
        guard !made else { return shared }
        made = true
        guard let name = imName(getenv("XMODIFIERS").map { String(cString: $0) }) else {
            backend.owner?.log("xim: XMODIFIERS names no input method: plain keys type")
            return nil
        }
        guard let im = xcb_xim_create(backend.connection, screenNumber(backend), "@im=\(name)") else {
            backend.owner?.log("xim: cannot make a client for @im=\(name): plain keys type")
            return nil
        }
        // Its tables, which the conversion of the server's compound text needs.
        xcb_compound_text_init()
        let method = X11InputMethod(backend: backend, im: im, name: name)
        let me = Unmanaged.passUnretained(method).toOpaque()
        xcb_xim_set_im_callback(im, callbacks, me)
        // auto_connect: a server that starts later (or again) is connected to when it does.
        guard xcb_xim_open(im, { _, data in onMain(data, X11InputMethod.self) { $0.didOpen() } }, true, me) else {
            backend.owner?.log("xim: no XIM server @im=\(name) answers: plain keys type")
            xcb_xim_destroy(im)
            return nil
        }
        shared = method
        backend.flush()
        backend.owner?.log("xim: XMODIFIERS names @im=\(name): plain keys type until that server answers")
        return method
    }

    /// The number of the screen whose root the backend's windows are on (the IM's server lists are on its root).
    private static func screenNumber(_ backend: X11Backend) -> Int32 {
        var roots = xcb_setup_roots_iterator(xcb_get_setup(backend.connection))
        var number: Int32 = 0
        while roots.rem > 0, roots.data.pointee.root != backend.root {
            xcb_screen_next(&roots)
            number += 1
        }
        return roots.rem > 0 ? number : 0
    }

    /// The name in `@im=NAME` (XMODIFIERS may hold other modifiers after it); nil when it names none.
    static func imName(_ modifiers: String?) -> String? {
        guard let modifiers else { return nil }
        for part in modifiers.split(separator: "@") where part.hasPrefix("im=") {
            let name = part.dropFirst(3).prefix { !$0.isWhitespace }
            return name.isEmpty || name == "none" ? nil : String(name)
        }
        return nil
    }

    private func didOpen() {
        opened = true
        backend.owner?.log("xim: connected to @im=\(name)")
        canvas?.queueDraw()
    }

    // MARK: Every X event, first

    /// True when the event was the IM's (its messages), or a key press that went to it.
    func filter(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool {
        if xcb_xim_filter_event(im, event) {
            // What its callbacks told acts after xcb-imdkit returned: a key handed back may end the
            // text (and its context), and held keys go out with requests of their own.
            let keys = handed
            handed = []
            for key in keys { handedBack(key) }
            if spotAnswered {
                spotAnswered = false
                spotPending = false
                sendSpot()
                forwardHeldKeys()
            }
            return true
        }
        let raw = UnsafeRawPointer(event)
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_KEY_PRESS:
            let window = raw.load(as: xcb_key_press_event_t.self).event
            guard let ic, window == icWindow, let canvas, canvas.window == window, (preedit.base ?? canvas.layers.textEntry) != nil else { return false }
            guard !spotPending else {
                heldKeys.append(raw.load(as: xcb_key_press_event_t.self))
                return true
            }
            return xcb_xim_forward_event(im, ic, UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_key_press_event_t.self))
        case XCB_UNMAP_NOTIFY:
            // Minimized: the context goes with the canvas's entry (typed again on a new one).
            if raw.load(as: xcb_unmap_notify_event_t.self).window == icWindow, let canvas { end(canvas) }
            return false
        default:
            return false
        }
    }

    // MARK: Following the canvas's entry

    /// Takes the preedit out of the canvas's entry while `body` runs (the overlay types, ends or
    /// sends the entry as it is without it), then shows it again if the entry goes on.
    func withoutPreedit<T>(_ canvas: X11Canvas, _ body: () -> T) -> T {
        canvas === self.canvas ? preedit.without(canvas.layers, anchor: anchor, body) : body()
    }

    /// After the canvas's entry changed (or before a frame): a context for the text being typed
    /// here, its spot at the caret; none once it ends.
    func follow(_ canvas: X11Canvas) {
        let entry = canvas === self.canvas ? (preedit.base ?? canvas.layers.textEntry) : canvas.layers.textEntry
        if let entry, opened {
            if self.canvas !== canvas || anchor != entry.anchor { begin(canvas, entry) }
            updateSpot(canvas)
        } else if entry == nil, self.canvas === canvas {
            end(canvas)
        }
    }

    private func begin(_ canvas: X11Canvas, _ entry: TextEntry) {
        // A new text on the canvas whose context is open (a tap elsewhere while typing) keeps that
        // context: xcb-imdkit sends a request queued behind another's answer only with a later
        // request, so a create asked for right behind the old one's destroy would never go out.
        if canvas === self.canvas, let ic, icWindow == canvas.window {
            dropPreedit(canvas)
            anchor = entry.anchor
            // Out and in again: the IM ends what it was composing for the old text.
            xcb_xim_unset_ic_focus(im, ic)
            xcb_xim_set_ic_focus(im, ic)
            backend.flush()
            canvas.owner.log("xim: input context for the text at (\(entry.anchor.x), \(entry.anchor.y)), the canvas's context kept")
            return
        }
        if let old = self.canvas { end(old) }
        self.canvas = canvas
        anchor = entry.anchor
        let spot = caretSpot(canvas)
        self.spot = spot
        wantedSpot = spot
        creating = canvas.window
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard stylus_xim_create_ic(im, canvas.window, spot.x, spot.y, { _, ic, data in
            onMain(data, X11InputMethod.self) { $0.created(ic) }
        }, me) else {
            creating = 0
            backend.owner?.log("xim: the input context could not be asked for: plain keys type")
            return
        }
        backend.flush()
    }

    private func created(_ ic: xcb_xic_t) {
        guard ic != 0 else {
            // The server refused (XIM_ERROR) or the request failed: no context, so keys must not go to one.
            creating = 0
            backend.owner?.log("xim: the server made no input context: plain keys type")
            return
        }
        guard creating != 0, let canvas, canvas.window == creating else {
            // The text ended before the server answered.
            xcb_xim_destroy_ic(im, ic, nil, nil)
            return
        }
        self.ic = ic
        icWindow = creating
        creating = 0
        xcb_xim_set_ic_focus(im, ic)
        sendSpot()
        backend.flush()
        if let entry = preedit.base ?? canvas.layers.textEntry {
            canvas.owner.log("xim: input context for the text at (\(entry.anchor.x), \(entry.anchor.y))")
        }
    }

    private func end(_ canvas: X11Canvas) {
        guard canvas === self.canvas else { return }
        dropPreedit(canvas)
        if let ic {
            xcb_xim_unset_ic_focus(im, ic)
            xcb_xim_destroy_ic(im, ic, nil, nil)
            backend.flush()
            canvas.owner.log("xim: input context closed")
        }
        ic = nil
        icWindow = 0
        creating = 0
        self.canvas = nil
        anchor = nil
        spot = nil
        wantedSpot = nil
        heldKeys = []
    }

    private func updateSpot(_ canvas: X11Canvas) {
        wantedSpot = caretSpot(canvas)
        sendSpot()
    }

    /// Sends the caret's spot if the server has another one, one request at a time.
    private func sendSpot() {
        guard let ic, !spotPending, let wanted = wantedSpot, spot.map({ $0 != wanted }) ?? true else { return }
        spot = wanted
        let me = Unmanaged.passUnretained(self).toOpaque()
        spotPending = stylus_xim_set_spot(im, ic, wanted.x, wanted.y, { _, _, data in
            onMain(data, X11InputMethod.self) { $0.spotAnswered = true }
        }, me)
        backend.flush()
    }

    /// Once no spot is pending, the keys held meanwhile go to the IM, in order.
    private func forwardHeldKeys() {
        guard !spotPending, let ic, !heldKeys.isEmpty else { return }
        let keys = heldKeys
        heldKeys = []
        for var key in keys { _ = xcb_xim_forward_event(im, ic, &key) }
        backend.flush()
    }

    /// The caret in window pixels, on the baseline of the entry's last line (the preedit's end).
    private func caretSpot(_ canvas: X11Canvas) -> (x: Int16, y: Int16) {
        guard let shown = canvas.layers.textEntry else { return (0, 0) }
        let caret = canvas.layers.caretPlace(shown)
        let baseline = caret.top + StrokeText.baselineShare * canvas.layers.geometry.pixels(shown.size)
        func clamp(_ v: Double) -> Int16 { Int16(max(-32768, min(32767, v.rounded()))) }
        return (clamp(caret.x), clamp(baseline))
    }

    // MARK: The preedit, shown after the entry's text

    private func dropPreedit(_ canvas: X11Canvas) {
        preedit.drop(canvas === self.canvas ? canvas.layers : nil)
    }

    // MARK: The IM's callbacks (from filter, on the main thread)

    private static let callbacks: UnsafeMutablePointer<xcb_xim_im_callback> = {
        var c = xcb_xim_im_callback()
        c.commit_string = { im, _, flag, string, length, keysyms, count, data in
            var text = ""
            if flag & UInt32(XCB_XIM_LOOKUP_CHARS.rawValue) != 0, let string, let im {
                text = X11InputMethod.decode(im, string, Int(length))
            } else if flag & UInt32(XCB_XIM_LOOKUP_KEYSYM.rawValue) != 0, let keysyms, count > 0 {
                text = TextEntry.text(keysym: keysyms[0]) ?? ""
            }
            onMain(data, X11InputMethod.self) { $0.commit(text) }
        }
        c.forward_event = { _, _, event, data in
            guard let event else { return }
            let key = event.pointee
            onMain(data, X11InputMethod.self) { $0.handed.append(key) }
        }
        c.preedit_draw = { im, _, frame, data in
            guard let frame, let im else { return }
            let f = frame.pointee
            // Status bit 0: no string (only the feedback changed, or the range is deleted).
            let text = f.status & 1 != 0 || f.preedit_string == nil ? ""
                : X11InputMethod.decode(im, f.preedit_string!, Int(f.length_of_preedit_string))
            let first = Int(f.chg_first), length = Int(f.chg_length)
            onMain(data, X11InputMethod.self) { $0.drawPreedit(first: first, length: length, text: text) }
        }
        c.preedit_done = { _, _, data in onMain(data, X11InputMethod.self) { $0.drawPreedit(first: 0, length: Int.max, text: "") } }
        c.disconnected = { _, data in onMain(data, X11InputMethod.self) { $0.disconnected() } }
        return allocate(c)
    }()

    /// A string from the server, in the encoding the two agreed on (compound text unless UTF-8).
    nonisolated private static func decode(_ im: OpaquePointer, _ bytes: UnsafeRawPointer, _ length: Int) -> String {
        let chars = bytes.assumingMemoryBound(to: CChar.self)
        if xcb_xim_get_encoding(im) == XCB_XIM_UTF8_STRING {
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        var out = 0
        guard let utf8 = xcb_compound_text_to_utf8(chars, length, &out) else { return "" }
        defer { free(utf8) }
        return String(decoding: UnsafeRawBufferPointer(start: utf8, count: out), as: UTF8.self)
    }

    private func commit(_ text: String) {
        guard let canvas, !text.isEmpty else { return }
        dropPreedit(canvas)
        if var entry = canvas.layers.textEntry {
            entry.type(text)
            canvas.layers.textEntry = entry
            canvas.owner.log("xim: committed \(text.unicodeScalars.count) characters")
        }
        canvas.queueDraw()
    }

    /// XIM's preedit draw: `length` characters from `first` are replaced by `text`.
    private func drawPreedit(first: Int, length: Int, text: String) {
        guard let canvas else { return }
        var scalars = preedit.scalars
        let from = min(max(first, 0), scalars.count), to = length == Int.max ? scalars.count : min(scalars.count, from + max(length, 0))
        scalars.replaceSubrange(from..<to, with: text.unicodeScalars)
        dropPreedit(canvas)
        preedit.scalars = scalars
        preedit.show(canvas.layers, anchor: anchor)
        canvas.queueDraw()
    }

    /// A key the IM did not use: it does what it does without one.
    private func handedBack(_ event: xcb_key_press_event_t) {
        guard event.response_type & 0x7f == UInt8(XCB_KEY_PRESS), let canvas = backend.canvases[event.event],
              let key = backend.keymap.canvasKey(event.detail, state: event.state) else { return }
        canvas.keyPressed(key)
    }

    private func disconnected() {
        if let canvas {
            dropPreedit(canvas)
            canvas.queueDraw()
        }
        ic = nil
        icWindow = 0
        creating = 0
        canvas = nil
        anchor = nil
        opened = false
        spotPending = false
        heldKeys = []
        backend.owner?.log("xim: @im=\(name) went: plain keys type")
    }
}
