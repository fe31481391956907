// SPDX-License-Identifier: MIT
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// The server's core keyboard mapping: a key code's unshifted keysym is all
/// the canvas needs (Escape, z, y; Shift and Control come from the event's state).
struct X11Keymap {
    private var first: UInt8 = 0
    private var perKey = 0
    private var keysyms: [UInt32] = []

    /// Asks the server for the mapping (again after a MappingNotify).
    mutating func load(_ connection: OpaquePointer) {
        let setup = xcb_get_setup(connection)!.pointee
        first = setup.min_keycode
        let count = UInt8(Int(setup.max_keycode) - Int(setup.min_keycode) + 1)
        guard let reply = xcb_get_keyboard_mapping_reply(connection, xcb_get_keyboard_mapping(connection, first, count), nil) else { return }
        defer { free(reply) }
        perKey = Int(reply.pointee.keysyms_per_keycode)
        let length = Int(xcb_get_keyboard_mapping_keysyms_length(reply))
        keysyms = Array(UnsafeBufferPointer(start: xcb_get_keyboard_mapping_keysyms(reply), count: length))
    }

    func keysym(_ keycode: UInt8) -> UInt32? {
        let index = (Int(keycode) - Int(first)) * perKey
        guard keycode >= first, perKey > 0, index < keysyms.count else { return nil }
        return keysyms[index]
    }
}
