// SPDX-License-Identifier: MIT
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// The atoms the canvas window speaks with the window manager in (ICCCM, EWMH, Motif).
struct X11Atoms {
    let protocols, deleteWindow, state, fullscreen, above, name, utf8, motifHints, windowType, normalType, pid: xcb_atom_t
    /// `_NET_WM_CM_S<screen>`, the selection a compositing manager owns.
    let compositingManager: xcb_atom_t

    init(_ connection: OpaquePointer, screen: Int32) {
        let names = ["WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_ABOVE",
                     "_NET_WM_NAME", "UTF8_STRING", "_MOTIF_WM_HINTS", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NORMAL",
                     "_NET_WM_PID", "_NET_WM_CM_S\(screen)"]
        // All the requests first, then the replies: one round trip.
        let cookies = names.map { xcb_intern_atom(connection, 0, UInt16($0.utf8.count), $0) }
        let atoms = cookies.map { cookie -> xcb_atom_t in
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return 0 }
            defer { free(reply) }
            return reply.pointee.atom
        }
        (protocols, deleteWindow, state, fullscreen, above) = (atoms[0], atoms[1], atoms[2], atoms[3], atoms[4])
        (name, utf8, motifHints, windowType, normalType, pid) = (atoms[5], atoms[6], atoms[7], atoms[8], atoms[9], atoms[10])
        compositingManager = atoms[11]
    }
}
