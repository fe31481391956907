// SPDX-License-Identifier: MIT
/// Modifiers held while one key is pressed: "CTRL+SHIFT+Z". Each part is an
/// evdev key name with or without KEY_ ("LEFTCTRL", "KEY_Z") or one of the
/// common aliases (CTRL, SHIFT, ALT, ALTGR, SUPER, META, WIN, ESCAPE, RETURN,
/// DEL, INS, PGUP, PGDN, …), in any case.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// Evdev codes, pressed in this order and released in the reverse.
    public var modifiers: [UInt16]
    public var key: UInt16

    public init(modifiers: [UInt16], key: UInt16) {
        self.modifiers = modifiers
        self.key = key
    }

    /// Every code in press order: modifiers first, the key last.
    public var pressOrder: [UInt16] { modifiers + [key] }

    /// The canonical spelling: evdev names without KEY_, joined by "+".
    public var description: String {
        pressOrder.map { KeyChord.name(of: $0) ?? "\($0)" }.joined(separator: "+")
    }

    static let modifierCodes: Set<UInt16> = [29, 97, 42, 54, 56, 100, 125, 126]   // LEFT/RIGHT CTRL, SHIFT, ALT, META

    static let aliases: [String: String] = [
        "CTRL": "LEFTCTRL", "CONTROL": "LEFTCTRL", "SHIFT": "LEFTSHIFT", "ALT": "LEFTALT", "ALTGR": "RIGHTALT",
        "SUPER": "LEFTMETA", "META": "LEFTMETA", "WIN": "LEFTMETA", "LOGO": "LEFTMETA", "CMD": "LEFTMETA",
        "ESCAPE": "ESC", "RETURN": "ENTER", "DEL": "DELETE", "INS": "INSERT", "PGUP": "PAGEUP", "PGDN": "PAGEDOWN",
        "PAGE_UP": "PAGEUP", "PAGE_DOWN": "PAGEDOWN", "BKSP": "BACKSPACE", "PRINTSCREEN": "SYSRQ",
        "ARROWUP": "UP", "ARROWDOWN": "DOWN", "ARROWLEFT": "LEFT", "ARROWRIGHT": "RIGHT",
    ]

    private static let codesByName: [String: UInt16] = {
        var table: [String: UInt16] = [:]
        for (name, code) in KeyCodeTable.entries where table[name] == nil { table[name] = code }
        return table
    }()

    private static let namesByCode: [UInt16: String] = {
        var table: [UInt16: String] = [:]
        for (name, code) in KeyCodeTable.entries where table[code] == nil { table[code] = name }
        return table
    }()

    /// The evdev code of a key name or alias, nil for an unknown one. An
    /// evdev name wins over an alias of the same spelling (KEY_PRINT and PRINT
    /// are key 210, PRINTSCREEN is SYSRQ); a KEY_ name is never an alias.
    public static func code(named name: String) -> UInt16? {
        var upper = name.uppercased()
        if upper.hasPrefix("KEY_") {
            upper.removeFirst(4)
            return codesByName[upper]
        }
        return codesByName[upper] ?? aliases[upper].flatMap { codesByName[$0] }
    }

    /// The evdev name of a code, without KEY_.
    public static func name(of code: UInt16) -> String? { namesByCode[code] }

    public static func parse(_ text: String) -> Result<KeyChord, ActionError> {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard !text.isEmpty else { return .failure(ActionError("key: needs a key, e.g. \"key:CTRL+Z\"")) }
        if let empty = parts.firstIndex(where: \.isEmpty) {
            return .failure(ActionError("\"\(text)\" has an empty key name at part \(empty + 1); join keys with one \"+\" (\"CTRL+Z\"); the plus key itself is KPPLUS"))
        }
        var codes: [UInt16] = []
        for part in parts {
            guard let code = code(named: part) else {
                return .failure(ActionError("unknown key name \"\(part)\" in \"\(text)\"; use an evdev name (Z, F5, LEFTCTRL, KEY_ENTER) or CTRL, SHIFT, ALT, SUPER"))
            }
            guard !codes.contains(code) else { return .failure(ActionError("\"\(part)\" appears twice in \"\(text)\"")) }
            codes.append(code)
        }
        for (part, code) in zip(parts, codes).dropLast() where !modifierCodes.contains(code) {
            return .failure(ActionError("\"\(part)\" in \"\(text)\" is not a modifier; only the last key may be another key (CTRL+SHIFT+Z)"))
        }
        return .success(KeyChord(modifiers: Array(codes.dropLast()), key: codes.last!))
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
