// SPDX-License-Identifier: MIT
import CWayland

/// The pen is never drawn twice. A compositor turns a tablet tool's motion and
/// taps into wl_pointer events for a client that has not bound the tablet
/// protocol, and the canvas would draw them as a mouse stroke on top of the
/// daemon's, which already draws the pen from its own stream. A client with a
/// tablet seat gets the pen as zwp_tablet_tool_v2 events instead, which the
/// canvas leaves unheard (no listeners: libwayland drops their events). Where
/// the compositor offers no tablet-v2, its pointer emulation stays, as before.
extension WaylandPointerInput {
    /// Takes the seat's tablets once both the manager and the seat are known (either may come first).
    func claimTablets(seat: OpaquePointer?) {
        guard tabletSeat == nil, let tabletManager, let seat else { return }
        tabletSeat = zwp_tablet_manager_v2_get_tablet_seat(tabletManager, seat)
    }

    /// Said once, at the first opening (the owner's log does not exist while the globals are bound).
    func tellTablets(_ owner: CanvasOverlay) {
        guard !toldTablets else { return }
        toldTablets = true
        owner.log(tabletSeat != nil ? "tablet seat bound: the pen comes as tablet events, not as the pointer"
                                    : "no tablet-v2: the compositor may send the pen as the pointer too")
    }
}
