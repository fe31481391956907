// SPDX-License-Identifier: MIT
import CanvasModel
import CXcb
#if canImport(Glibc)
import Glibc
#endif

/// The server's core keyboard mapping: a key code's keysym, the shifted one
/// while Shift is held (Shift+= is "plus" on a US layout); the modifiers come
/// from the event's state.
struct X11Keymap {
    private var first: UInt8 = 0
    private var perKey = 0
    private var keysyms: [UInt32] = []
    /// The last key `canvasKey` read, for the text it types (`lastTyped`): the backend hands
    /// the canvas only the key's name, and a text being typed needs its character.
    private final class LastKey: @unchecked Sendable {
        var keycode: UInt8 = 0
        var state: UInt16 = 0
    }
    private let last = LastKey()

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

    func keysym(_ keycode: UInt8, shifted: Bool = false) -> UInt32? {
        let index = (Int(keycode) - Int(first)) * perKey
        guard keycode >= first, perKey > 0, index < keysyms.count else { return nil }
        // A key with one keysym (Escape, Delete) has none at the shifted level.
        if shifted, perKey > 1, keysyms[index + 1] != 0 { return keysyms[index + 1] }
        return keysyms[index]
    }

    /// What a key press with the modifiers of `state` (a core event's) is on the canvas.
    func canvasKey(_ keycode: UInt8, state: UInt16) -> CanvasKey? {
        (last.keycode, last.state) = (keycode, state)
        func held(_ mask: xcb_mod_mask_t) -> Bool { state & UInt16(mask.rawValue) != 0 }
        let shift = held(XCB_MOD_MASK_SHIFT)
        guard let keysym = keysym(keycode, shifted: shift) else { return nil }
        // Mod1 is Alt and Mod4 Super in every common X keymap.
        return CanvasKey(keysym: keysym, control: held(XCB_MOD_MASK_CONTROL), shift: shift, alt: held(XCB_MOD_MASK_1), super: held(XCB_MOD_MASK_4))
    }

    /// The character a key press types (Shift or Caps Lock giving the shifted level), or nil
    /// for one that types none or comes with Ctrl, Alt or Super (a shortcut, not text).
    func text(_ keycode: UInt8, state: UInt16) -> String? {
        let mask = UInt16(XCB_MOD_MASK_CONTROL.rawValue | XCB_MOD_MASK_1.rawValue | XCB_MOD_MASK_4.rawValue)
        guard state & mask == 0 else { return nil }
        let shifted = state & UInt16(XCB_MOD_MASK_SHIFT.rawValue | XCB_MOD_MASK_LOCK.rawValue) != 0
        return keysym(keycode, shifted: shifted).flatMap(TextEntry.text(keysym:))
    }

    /// What the key `canvasKey` read last types.
    var lastTyped: String? { text(last.keycode, state: last.state) }
}
