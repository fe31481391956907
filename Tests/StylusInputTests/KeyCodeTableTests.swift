// SPDX-License-Identifier: MIT
import Testing
@testable import StylusCore
import StylusInput

/// `key:` bindings name keys from a table generated from the kernel's
/// header; libevdev's own table must agree with every entry.
@Suite("key names agree with libevdev")
struct KeyCodeTableTests {
    @Test func everyKeyNameHasLibevdevsCode() {
        #expect(KeyCodeTable.entries.count > 200)
        for (name, code) in KeyCodeTable.entries {
            #expect(EvdevNames.code(type: EV.key, name: "KEY_" + name) == code, "KEY_\(name)")
        }
    }

    @Test func theModifiersAreTheKernelsModifierKeys() {
        let names = KeyChord.modifierCodes.map { EvdevNames.name(type: EV.key, code: $0) ?? "?" }.sorted()
        #expect(names == ["KEY_LEFTALT", "KEY_LEFTCTRL", "KEY_LEFTMETA", "KEY_LEFTSHIFT",
                          "KEY_RIGHTALT", "KEY_RIGHTCTRL", "KEY_RIGHTMETA", "KEY_RIGHTSHIFT"])
    }

    @Test func pointerButtonsAreLibevdevs() {
        for button in PointerButton.allCases {
            #expect(EvdevNames.name(type: EV.key, code: button.code) == "BTN_" + button.rawValue.uppercased())
        }
    }
}
