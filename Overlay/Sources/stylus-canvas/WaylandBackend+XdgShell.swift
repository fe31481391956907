// SPDX-License-Identifier: MIT
import CWayland

/// xdg_wm_base asks every client with an xdg surface whether it still answers;
/// one that does not pong is called unresponsive (weston greys its window).
extension WaylandBackend {
    func answerPings() {
        xdg_wm_base_add_listener(wmBase, Self.wmBaseListener, nil)
    }

    private static let wmBaseListener: UnsafeMutablePointer<xdg_wm_base_listener> = allocate({
        var l = xdg_wm_base_listener()
        l.ping = { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) }
        return l
    }())
}
