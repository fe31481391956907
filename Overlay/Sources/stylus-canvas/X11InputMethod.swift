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
/// focus, its spot at the caret (the IM's popup goes there); key presses and releases go
/// to the IM, which commits strings (typed into the entry as keys are), shows a preedit
/// (drawn after the entry's text, underlined, never sent to the daemon: the overlay sees
/// the entry without it, ShownPreedit, and a text that ends while one shows keeps only what
/// was committed), or hands keys back (Enter, Escape: they do what they always do). Each
/// text has a context of its own, which goes when the text ends or its window is unmapped
/// (minimized); what the IM says for a context left behind is dropped. No XMODIFIERS: plain
/// keys type. No such server yet (a login race): plain keys type, with one line in the log,
/// until it starts (xcb-imdkit watches the root's XIM_SERVERS and connects then). Keys the IM
/// takes without a word for a while (candidate keys, toggles) make the client ask it something
/// it must answer, its spot again: an IM that answers keeps them; one that answers that for
/// `answerBound` neither is hung, and this text types plain keys, those it took first, as every
/// text does until the server answers anything again.
@MainActor
final class X11InputMethod {
    private static var made = false
    private(set) static var shared: X11InputMethod?
    /// How long, in X server time, keys may go unanswered before the client asks the IM whether
    /// it is alive, and then how long that question may go unanswered while keys come before the
    /// IM counts as hung (an IM answers a request within milliseconds).
    static let answerBound: UInt32 = 1_000

    private unowned let backend: X11Backend
    private let im: OpaquePointer
    private let name: String
    /// The server answered XIM_OPEN; contexts can be made.
    private var opened = false
    /// The text's context, once the server made it.
    private var ic: xcb_xic_t?
    /// The window a context was asked for, not yet answered.
    private var creating: xcb_window_t = 0
    /// Contexts of texts that ended, to destroy.
    private var doomed: [xcb_xic_t] = []
    /// A request whose answer xcb-imdkit waits for is out: it queues anything asked meanwhile
    /// and sends it only with a later request (not on the answer), so `pump` asks one at a time.
    private var busy = false
    /// The X time of the first key that came while `busy`: the request's age as the user sees it.
    private var busySince: xcb_timestamp_t?
    /// The request out is the question whether the IM is alive.
    private var probing = false
    /// A request went unanswered past `answerBound`: every text types plain keys until the server answers something.
    private var serverHung = false
    /// What the answers to `busy` requests said, acted on once xcb-imdkit returned.
    private var answered = false
    private var madeIC: xcb_xic_t?
    /// The canvas and the entry's anchor of the text being typed: a new anchor is a new text.
    private weak var canvas: X11Canvas?
    private var anchor: InkPoint?
    /// The server refused a context for this text, or stopped answering its keys: plain keys type it.
    private var plain = false
    private var hungSaid = false
    /// The spot the server has (or was sent), and the one the caret wants.
    private var spot: (x: Int16, y: Int16)?
    private var wantedSpot: (x: Int16, y: Int16)?
    /// Keys held while a request is out (forwarded after its answer, in order).
    private var heldKeys: [xcb_key_press_event_t] = []
    /// Key presses sent or held that the IM has not answered since (no commit, preedit or key back).
    private var unanswered: [xcb_key_press_event_t] = []
    /// Windows whose key releases the canvas selected (the IM wants them: fcitx5's Shift toggle).
    private var releasesSelected: Set<xcb_window_t> = []
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
        shared = method
        // auto_connect: xcb-imdkit watches the root's XIM_SERVERS and connects when a server
        // starts there, later (fcitx5 after the canvas at login) or again; so a client whose
        // first try found none is kept, and tries again by itself without a round trip per text.
        if xcb_xim_open(im, { _, data in onMain(data, X11InputMethod.self) { $0.didOpen() } }, true, me) {
            backend.owner?.log("xim: XMODIFIERS names @im=\(name): plain keys type until that server answers")
        } else {
            backend.owner?.log("xim: no XIM server @im=\(name) yet: plain keys type until one starts")
        }
        backend.flush()
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
        busy = false
        busySince = nil
        probing = false
        serverHung = false
        doomed = []
        hungSaid = false
        backend.owner?.log("xim: connected to @im=\(name)")
        // A text typed already gets its context now.
        pump()
        canvas?.queueDraw()
    }

    // MARK: Every X event, first

    /// True when the event was the IM's (its messages), or a key that went to it.
    func filter(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool {
        if xcb_xim_filter_event(im, event) {
            // What its callbacks told acts after xcb-imdkit returned: a key handed back may end the
            // text (and its context), and what waited for an answer is asked for now.
            let keys = handed
            handed = []
            for key in keys { handedBack(key) }
            if answered {
                answered = false
                pump()
            }
            return true
        }
        let raw = UnsafeRawPointer(event)
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_KEY_PRESS, XCB_KEY_RELEASE:
            return key(raw.load(as: xcb_key_press_event_t.self))
        case XCB_UNMAP_NOTIFY:
            // Minimized: the context goes with the canvas's entry (typed again on a new one).
            if let canvas, raw.load(as: xcb_unmap_notify_event_t.self).window == canvas.window { end(canvas) }
            return false
        case XCB_DESTROY_NOTIFY:
            releasesSelected.remove(raw.load(as: xcb_destroy_notify_event_t.self).window)
            return false
        default:
            return false
        }
    }

    /// A key on the window whose text the IM types: sent to it, or held until the request out is answered.
    private func key(_ event: xcb_key_press_event_t) -> Bool {
        guard opened, !plain, !serverHung, let canvas, canvas.window == event.event, (preedit.base ?? canvas.layers.textEntry) != nil,
              ic != nil || creating != 0 || busy else { return false }
        if event.response_type & 0x7f == UInt8(XCB_KEY_PRESS), !isModifier(event.detail) {
            if busy, let since = busySince, later(event.time, than: since) {
                serverHung = true
                typePlain(canvas)
                return false
            }
            if busy, busySince == nil { busySince = event.time }
            unanswered.append(event)
            if !busy, let ic, unanswered.count >= 3, later(event.time, than: unanswered[1].time) { askAlive(ic, at: event.time) }
        }
        if let ic, !busy, heldKeys.isEmpty {
            var key = event
            _ = xcb_xim_forward_event(im, ic, &key)
        } else {
            heldKeys.append(event)
        }
        return true
    }

    /// `time` is more than `answerBound` after `since` (X time wraps after 49 days).
    private func later(_ time: xcb_timestamp_t, than since: xcb_timestamp_t) -> Bool {
        time &- since > Self.answerBound && time &- since < 1 << 31
    }

    /// Keys went unanswered for a while: the spot sent again is a request the IM must answer.
    private func askAlive(_ ic: xcb_xic_t, at time: xcb_timestamp_t) {
        guard let spot else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        probing = true
        send {
            stylus_xim_set_spot(im, ic, spot.x, spot.y, { _, _, data in onMain(data, X11InputMethod.self) { $0.answer() } }, me)
        }
        if busy { busySince = time } else { probing = false }
        backend.flush()
    }

    /// Sends a request whose answer `answer` takes: busy until then. xcb-imdkit may call the
    /// callback before it returns (a send that failed), so busy is set first.
    private func send(_ request: () -> Bool) {
        busy = true
        busySince = nil
        if !request() { busy = false }
    }

    /// The IM did not answer: this text types plain keys, those it swallowed first, in order.
    private func typePlain(_ canvas: X11Canvas) {
        plain = true
        if !hungSaid {
            hungSaid = true
            canvas.owner.log("xim: @im=\(name) answered none of \(unanswered.count) keys nor a request: plain keys type until it answers")
        }
        let keys = unanswered
        unanswered = []
        heldKeys = []
        dropPreedit(canvas)
        for key in keys { handedBack(key) }
    }

    private func isModifier(_ keycode: UInt8) -> Bool {
        guard let keysym = backend.keymap.keysym(keycode) else { return true }
        // Shift_L … Hyper_R, ISO level and group shifts and locks, Mode_switch, Num_Lock.
        return (0xffe1...0xffee).contains(keysym) || (0xfe01...0xfe13).contains(keysym) || keysym == 0xff7e || keysym == 0xff7f
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
        if let entry {
            if self.canvas !== canvas || anchor != entry.anchor { begin(canvas, entry) }
            wantedSpot = caretSpot(canvas)
            pump()
        } else if self.canvas === canvas {
            end(canvas)
        }
    }

    /// A new text (a caret placed, a tap elsewhere while typing, another monitor's canvas): the
    /// old text's context is destroyed, and one asked for this one, one request after the other.
    private func begin(_ canvas: X11Canvas, _ entry: TextEntry) {
        if let old = self.canvas { end(old) }
        self.canvas = canvas
        anchor = entry.anchor
        plain = false
        spot = nil
    }

    private func end(_ canvas: X11Canvas) {
        guard canvas === self.canvas else { return }
        dropPreedit(canvas)
        if let ic {
            xcb_xim_unset_ic_focus(im, ic)
            doomed.append(ic)
            canvas.owner.log("xim: input context closed")
        }
        ic = nil
        self.canvas = nil
        anchor = nil
        spot = nil
        wantedSpot = nil
        heldKeys = []
        unanswered = []
        pump()
    }

    /// Asks what is wanted, one request at a time: old contexts destroyed, the text's context
    /// made, its spot moved; then the keys held meanwhile go to the IM, in order.
    private func pump() {
        defer { backend.flush() }
        guard opened, !busy else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        while let old = doomed.first {
            doomed.removeFirst()
            send { xcb_xim_destroy_ic(im, old, { _, _, data in onMain(data, X11InputMethod.self) { $0.answer() } }, me) }
            if busy { return }
        }
        guard let canvas, !plain else { return }
        guard let ic else {
            let spot = caretSpot(canvas)
            self.spot = spot
            creating = canvas.window
            var asked = false
            send {
                asked = stylus_xim_create_ic(im, canvas.window, spot.x, spot.y, { _, ic, data in
                    onMain(data, X11InputMethod.self) { $0.madeIC = ic; $0.answer() }
                }, me)
                return asked
            }
            if !asked {
                creating = 0
                plain = true
                canvas.owner.log("xim: the input context could not be asked for: plain keys type")
            }
            return
        }
        if let wanted = wantedSpot, spot.map({ $0 != wanted }) ?? true {
            spot = wanted
            send {
                stylus_xim_set_spot(im, ic, wanted.x, wanted.y, { _, _, data in onMain(data, X11InputMethod.self) { $0.answer() } }, me)
            }
            if busy { return }
        }
        let keys = heldKeys
        heldKeys = []
        for var key in keys { _ = xcb_xim_forward_event(im, ic, &key) }
    }

    /// The answer to the request out (in xcb-imdkit's callback: acted on after it returned).
    private func answer() {
        busy = false
        busySince = nil
        answered = true
        if serverHung {
            serverHung = false
            hungSaid = false
            backend.owner?.log("xim: @im=\(name) answers again: the next text goes through it")
        }
        if probing {
            probing = false
            // Alive: what it took without a word is its own (a candidate chosen, a mode toggled).
            unanswered = []
            backend.owner?.log("xim: @im=\(name) is alive: the keys it took without a word stay with it")
        }
        guard let made = madeIC else { return }
        madeIC = nil
        let window = creating
        creating = 0
        guard made != 0 else {
            // The server refused (XIM_ERROR) or the request failed: no context, so keys must not go to one.
            backend.owner?.log("xim: the server made no input context: plain keys type")
            if let canvas, canvas.window == window { typeHeldPlain(canvas) }
            return
        }
        guard let canvas, canvas.window == window, ic == nil else {
            // The text ended (or another began) before the server answered.
            doomed.append(made)
            return
        }
        ic = made
        xcb_xim_set_ic_focus(im, made)
        selectReleases(window)
        if let entry = preedit.base ?? canvas.layers.textEntry {
            canvas.owner.log("xim: input context for the text at (\(entry.anchor.x), \(entry.anchor.y))")
        }
    }

    /// No context for this text: what was held types as plain keys.
    private func typeHeldPlain(_ canvas: X11Canvas) {
        plain = true
        let keys = heldKeys
        heldKeys = []
        unanswered = []
        for key in keys where key.response_type & 0x7f == UInt8(XCB_KEY_PRESS) { handed.append(key) }
    }

    /// The canvas's window selects key releases too, once it has a context: XIM servers want both.
    private func selectReleases(_ window: xcb_window_t) {
        guard releasesSelected.insert(window).inserted else { return }
        let events = X11Canvas.events | XCB_EVENT_MASK_KEY_RELEASE.rawValue
        xcb_change_window_attributes(backend.connection, window, XCB_CW_EVENT_MASK.rawValue, [events])
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
        c.commit_string = { im, ic, flag, string, length, keysyms, count, data in
            var text = ""
            if flag & UInt32(XCB_XIM_LOOKUP_CHARS.rawValue) != 0, let string, let im {
                text = X11InputMethod.decode(im, string, Int(length))
            } else if flag & UInt32(XCB_XIM_LOOKUP_KEYSYM.rawValue) != 0, let keysyms, count > 0 {
                text = TextEntry.text(keysym: keysyms[0]) ?? ""
            }
            onMain(data, X11InputMethod.self) { if $0.current(ic, "commit") { $0.commit(text) } }
        }
        c.forward_event = { _, ic, event, data in
            guard let event else { return }
            let key = event.pointee
            onMain(data, X11InputMethod.self) { $0.keyBack(key, for: ic) }
        }
        c.preedit_draw = { im, ic, frame, data in
            guard let frame, let im else { return }
            let f = frame.pointee
            // Status bit 0: no string (only the feedback changed, or the range is deleted).
            let text = f.status & 1 != 0 || f.preedit_string == nil ? ""
                : X11InputMethod.decode(im, f.preedit_string!, Int(f.length_of_preedit_string))
            let first = Int(f.chg_first), length = Int(f.chg_length)
            onMain(data, X11InputMethod.self) { if $0.current(ic, "preedit") { $0.drawPreedit(first: first, length: length, text: text) } }
        }
        c.preedit_start = { _, ic, data in onMain(data, X11InputMethod.self) { _ = $0.current(ic, "preedit start") } }
        c.preedit_caret = { _, ic, _, data in onMain(data, X11InputMethod.self) { _ = $0.current(ic, "preedit caret") } }
        c.preedit_done = { _, ic, data in
            onMain(data, X11InputMethod.self) { if $0.current(ic, "preedit done") { $0.drawPreedit(first: 0, length: Int.max, text: "") } }
        }
        c.disconnected = { _, data in onMain(data, X11InputMethod.self) { $0.disconnected() } }
        return allocate(c)
    }()

    /// True when `ic` is the context of the text being typed (its keys are answered then);
    /// what comes late for a context left behind, or for a text typed plain, is dropped.
    private func current(_ ic: xcb_xic_t, _ what: String) -> Bool {
        guard let mine = self.ic, ic == mine, !plain else {
            backend.owner?.log("xim: dropped a \(what) for input context \(ic), not the text's")
            return false
        }
        unanswered = []
        return true
    }

    /// A key the IM hands back. One for a context whose text has ended, while no text is typed
    /// on its canvas now, is a canvas key ("abc" Escape "p" typed faster than the IM answers:
    /// Escape, handed back before it, ended the text, and "p" picks the pen as it would without
    /// an IM); into another text it would land where it was not typed, so it is dropped there.
    private func keyBack(_ key: xcb_key_press_event_t, for ic: xcb_xic_t) {
        if self.ic != ic, canvas == nil, let target = backend.canvases[key.event], target.layers.textEntry == nil {
            handed.append(key)
        } else if current(ic, "key") {
            handed.append(key)
        }
    }

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
        creating = 0
        doomed = []
        busy = false
        busySince = nil
        probing = false
        serverHung = false
        madeIC = nil
        canvas = nil
        anchor = nil
        opened = false
        heldKeys = []
        unanswered = []
        backend.owner?.log("xim: @im=\(name) went: plain keys type")
    }
}
