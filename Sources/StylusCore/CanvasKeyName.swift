// SPDX-License-Identifier: MIT
/// A key pressed on the open canvas, as `[canvas.keys]`, the `key` command and
/// the canvases spell it: "p", "ctrl+shift+z", "plus", "f1". Keys are named by
/// the symbol the keyboard layout gives them (X keysyms), not by their place,
/// so "plus" is the key that types "+" on the user's layout.
///
/// Shift is part of a name only for letters and keys that type nothing
/// (ctrl+shift+z, shift+delete): on a symbol or digit it was spent choosing
/// the symbol (Shift+= types "+" on a US layout, which is "plus", not "shift+equal").
public struct CanvasKeyName: Hashable, Sendable, Comparable, CustomStringConvertible {
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let ctrl = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let `super` = Modifiers(rawValue: 4)
        public static let shift = Modifiers(rawValue: 8)
        /// In the order a canonical name writes them.
        static let named: [(Modifiers, String)] = [(.ctrl, "ctrl"), (.alt, "alt"), (.super, "super"), (.shift, "shift")]
    }

    public let modifiers: Modifiers
    /// The key without modifiers: a letter, a digit, a symbol's name, a named key.
    public let key: String

    /// The canonical spelling: modifiers in the order ctrl, alt, super, shift, then the key.
    public var description: String {
        (Modifiers.named.filter { modifiers.contains($0.0) }.map(\.1) + [key]).joined(separator: "+")
    }

    public static func < (a: CanvasKeyName, b: CanvasKeyName) -> Bool { a.description < b.description }

    /// Symbols by name, with the character each types (config files may use either).
    public static let symbols: [(name: String, character: Character)] = [
        ("plus", "+"), ("minus", "-"), ("equal", "="), ("question", "?"), ("slash", "/"), ("backslash", "\\"),
        ("comma", ","), ("period", "."), ("semicolon", ";"), ("apostrophe", "'"), ("grave", "`"),
        ("bracketleft", "["), ("bracketright", "]"), ("asterisk", "*"),
    ]
    /// Keys that type nothing (Shift may be part of their name).
    public static let namedKeys: [String] =
        ["escape", "delete", "backspace", "return", "tab", "space", "insert", "home", "end", "pageup", "pagedown",
         "up", "down", "left", "right"] + (1...24).map { "f\($0)" }
    static let keyAliases: [String: String] = [
        "esc": "escape", "del": "delete", "enter": "return", "pgup": "pageup", "pgdn": "pagedown", "ins": "insert",
        "bksp": "backspace", "page_up": "pageup", "page_down": "pagedown",
    ]
    static let modifierAliases: [String: Modifiers] = [
        "ctrl": .ctrl, "control": .ctrl, "alt": .alt, "super": .super, "logo": .super, "win": .super, "meta": .super, "shift": .shift,
    ]

    private static func takesShift(_ key: String) -> Bool {
        key.count == 1 ? key.first!.isLetter : namedKeys.contains(key)
    }

    /// A name as a canvas builds it; nil where Shift cannot be part of it (see the type).
    public init?(modifiers: Modifiers, key: String) {
        guard Self.isKey(key), !modifiers.contains(.shift) || Self.takesShift(key) else { return nil }
        self.modifiers = modifiers
        self.key = key
    }

    private static func isKey(_ key: String) -> Bool {
        if key.count == 1, let c = key.unicodeScalars.first, key.unicodeScalars.count == 1 {
            return ("a"..."z").contains(c) || ("0"..."9").contains(c)
        }
        return namedKeys.contains(key) || symbols.contains { $0.name == key }
    }

    /// Reads a name as a person writes it: any case, "control" for "ctrl",
    /// "esc", "del", "enter", "+" for "plus", "?" for "question".
    public static func parse(_ text: String) -> Result<CanvasKeyName, ActionError> {
        let lower = text.lowercased()
        guard !lower.isEmpty else { return .failure(ActionError("an empty key name; name a key, e.g. \"p\", \"ctrl+z\", \"plus\"")) }
        // A trailing "+" is the plus key itself: "ctrl++".
        var parts = lower.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        if lower == "+" { parts = ["plus"] } else if lower.hasSuffix("++") { parts = Array(parts.dropLast(2)) + ["plus"] }
        var modifiers: Modifiers = []
        for part in parts.dropLast() {
            guard let modifier = modifierAliases[trimmed(part)] else {
                return .failure(ActionError("\"\(part)\" in \"\(text)\" is not a modifier; write ctrl, alt, super or shift before the key, joined by \"+\" (\"ctrl+shift+z\")"))
            }
            guard !modifiers.contains(modifier) else { return .failure(ActionError("\"\(part)\" appears twice in \"\(text)\"")) }
            modifiers.insert(modifier)
        }
        var key = trimmed(parts.last!)
        key = keyAliases[key] ?? symbols.first { String($0.character) == key }?.name ?? key
        guard isKey(key) else {
            return .failure(ActionError("unknown key name \"\(parts.last!)\" in \"\(text)\"; name a letter or digit, \(symbols.map(\.name).joined(separator: ", ")), or \(namedKeys.prefix(15).joined(separator: ", ")), f1 … f24"))
        }
        guard let name = CanvasKeyName(modifiers: modifiers, key: key) else {
            return .failure(ActionError("\"\(text)\": shift is spent choosing the symbol \(key) on the keyboard; name the symbol it types instead (\"plus\", not \"shift+equal\")"))
        }
        return .success(name)
    }

    /// The name of an X keysym (X11 and Wayland share the numbers, and so do GDK's
    /// keyvals and Clutter's) with these modifiers held; nil for a key the table cannot name.
    public init?(keysym: UInt32, modifiers: Modifiers) {
        var key: String
        switch keysym {
        case 0x61...0x7a: key = String(UnicodeScalar(UInt8(keysym)))                  // a-z
        case 0x41...0x5a: key = String(UnicodeScalar(UInt8(keysym + 0x20)))           // A-Z: the letter, Shift kept
        case 0x30...0x39: key = String(UnicodeScalar(UInt8(keysym)))                  // 0-9
        case 0xffb0...0xffb9: key = String(UnicodeScalar(UInt8(keysym - 0xffb0 + 0x30)))   // KP_0-KP_9
        case 0xffab: key = "plus"            // KP_Add
        case 0xffad: key = "minus"           // KP_Subtract
        case 0xffaa: key = "asterisk"        // KP_Multiply
        case 0xffaf: key = "slash"           // KP_Divide
        case 0xffbe...0xffd5: key = "f\(keysym - 0xffbe + 1)"
        default:
            if let named = Self.keysymNames[keysym] {
                key = named
            } else if keysym < 0x80, let symbol = Self.symbols.first(where: { $0.character.asciiValue == UInt8(keysym) }) {
                key = symbol.name
            } else {
                return nil
            }
        }
        self.init(modifiers: Self.takesShift(key) ? modifiers : modifiers.subtracting(.shift), key: key)
    }

    /// Why a key cannot be bound to `action`; nil when it can. The actions on the
    /// world outside (a preset, a command, a key, a click) belong to pen and pad
    /// bindings: a canvas key would send a key to the canvas that has the keyboard.
    public static func refusal(for action: Action) -> ActionError? {
        switch action.form {
        case .preset, .exec, .key, .click:
            ActionError("\(action.form.rawValue): actions are for pen and pad bindings ([bindings]), not canvas keys; use a canvas action (\(Action.Form.allCases.filter { ![.preset, .exec, .key, .click].contains($0) }.map(\.rawValue).joined(separator: ", ")))")
        default: nil
        }
    }

    private static func trimmed(_ s: String) -> String { String(s.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }

    static let keysymNames: [UInt32: String] = [
        0xff1b: "escape", 0xffff: "delete", 0xff9f: "delete", 0xff08: "backspace", 0xff0d: "return", 0xff8d: "return",
        0xff09: "tab", 0xfe20: "tab", 0x20: "space", 0xff63: "insert", 0xff50: "home", 0xff57: "end", 0xff55: "pageup",
        0xff56: "pagedown", 0xff51: "left", 0xff52: "up", 0xff53: "right", 0xff54: "down",
    ]
}
