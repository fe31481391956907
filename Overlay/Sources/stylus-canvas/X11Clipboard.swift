// SPDX-License-Identifier: MIT
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// The CLIPBOARD selection held by the canvas process: an unmapped window owns
/// it and answers TARGETS and image/png from the PNG it keeps, until another
/// program takes the selection or the process ends (the server drops it then).
/// One ChangeProperty per answer, no INCR: a picture larger than the server's
/// largest request is refused when it is copied, with the size, so a paste
/// never fails half way (BIG-REQUESTS allows 16 MiB on Xorg and Xvfb, more
/// than a 4K screen's PNG).
@MainActor
final class X11Clipboard {
    private let connection: OpaquePointer
    private let window: xcb_window_t
    private let clipboard, targets, png: xcb_atom_t
    private var held: [UInt8]?

    init(connection: OpaquePointer, root: xcb_window_t) {
        self.connection = connection
        window = xcb_generate_id(connection)
        xcb_create_window(connection, 0, window, root, -10, -10, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0, 0, nil)
        let names = ["CLIPBOARD", "TARGETS", "image/png"]
        let cookies = names.map { xcb_intern_atom(connection, 0, UInt16($0.utf8.count), $0) }
        let atoms = cookies.map { cookie -> xcb_atom_t in
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return 0 }
            defer { free(reply) }
            return reply.pointee.atom
        }
        (clipboard, targets, png) = (atoms[0], atoms[1], atoms[2])
    }

    /// Takes the selection with `bytes` as its image/png; nil, or why not.
    func hold(_ bytes: [UInt8]) -> String? {
        let most = Int(xcb_get_maximum_request_length(connection)) * 4 - 64
        guard bytes.count <= most else {
            return "the PNG is \(bytes.count) bytes, more than the X server takes in one request (\(most)); the canvas does not send pictures in parts (INCR)"
        }
        held = bytes
        xcb_set_selection_owner(connection, window, clipboard, UInt32(XCB_CURRENT_TIME))
        guard let reply = xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, clipboard), nil) else {
            return "the X server did not say who owns the clipboard"
        }
        defer { free(reply) }
        guard reply.pointee.owner == window else {
            held = nil
            return "another program kept the clipboard"
        }
        return nil
    }

    /// Handles a SelectionRequest or SelectionClear for this window; false for any other event.
    func handle(_ type: UInt8, _ raw: UnsafeRawPointer) -> Bool {
        switch Int32(type) {
        case XCB_SELECTION_CLEAR:
            let e = raw.load(as: xcb_selection_clear_event_t.self)
            guard e.owner == window else { return false }
            held = nil   // another program copied: what we held is no longer the clipboard
            return true
        case XCB_SELECTION_REQUEST:
            let e = raw.load(as: xcb_selection_request_event_t.self)
            guard e.owner == window else { return false }
            answer(e)
            return true
        default:
            return false
        }
    }

    private func answer(_ e: xcb_selection_request_event_t) {
        // An obsolete client names no property: the target's name is the property then (ICCCM).
        var property = e.property == 0 ? e.target : e.property
        let replace = UInt8(XCB_PROP_MODE_REPLACE.rawValue)
        if e.selection == clipboard, let held {
            if e.target == targets {
                let offered = [targets, png]
                xcb_change_property(connection, replace, e.requestor, property, XCB_ATOM_ATOM.rawValue, 32, UInt32(offered.count), offered)
            } else if e.target == png {
                xcb_change_property(connection, replace, e.requestor, property, png, 8, UInt32(held.count), held)
            } else {
                property = 0
            }
        } else {
            property = 0
        }
        var notify = xcb_selection_notify_event_t()
        notify.response_type = UInt8(XCB_SELECTION_NOTIFY)
        notify.time = e.time
        notify.requestor = e.requestor
        notify.selection = e.selection
        notify.target = e.target
        notify.property = property
        withUnsafeBytes(of: &notify) { bytes in
            // SendEvent takes 32 bytes whatever the event's own size.
            var event = [CChar](repeating: 0, count: 32)
            for i in 0..<min(32, bytes.count) { event[i] = CChar(bitPattern: bytes[i]) }
            xcb_send_event(connection, 0, e.requestor, 0, event)
        }
        xcb_flush(connection)
    }
}
