// SPDX-License-Identifier: MIT
public import StylusCore

/// A text being typed on the open canvas with the text tool: where a click or a
/// pen tap placed its caret, what was typed so far, and the colour and size it
/// will have (the style's when it began). Enter starts a new line, Backspace
/// takes back a character, and Escape or a click elsewhere ends it: `request`
/// is then the `text` command to send (nil when nothing but blanks was typed).
/// The limits are the daemon's (`StrokeText`), so what is typed is never refused.
public struct TextEntry: Equatable, Sendable {
    public var anchor: InkPoint
    public private(set) var string = ""
    public var color: StrokeColor
    /// In reference pixels (a drawing 1600 wide).
    public var size: Double
    /// How many Unicode scalars at the end of `string` are an input method's preedit: shown
    /// (underlined) but not typed yet, so never part of `request`. Any edit makes it 0.
    public private(set) var preeditLength = 0

    public init(anchor: InkPoint, style: InkStyle) {
        self.anchor = anchor
        color = style.color
        size = StrokeText.size(forWidth: style.width)
    }

    /// Adds typed text at the end; characters the daemon refuses (control characters)
    /// and what would pass a limit are dropped. True when anything was added.
    @discardableResult
    public mutating func type(_ typed: String) -> Bool {
        preeditLength = 0
        var added = false
        for scalar in typed.unicodeScalars {
            if scalar == "\n" {
                guard lineCount < StrokeText.maxLines else { continue }
            } else if scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) {
                continue
            }
            guard string.unicodeScalars.count < StrokeText.maxLength else { break }
            string.unicodeScalars.append(scalar)
            added = true
        }
        return added
    }

    /// Enter: a new line (none past the limit).
    @discardableResult
    public mutating func newLine() -> Bool { type("\n") }

    /// Backspace: the last character (as the user sees it) goes. False when there was none.
    @discardableResult
    public mutating func backspace() -> Bool {
        preeditLength = 0
        guard !string.isEmpty else { return false }
        string.removeLast()
        return true
    }

    /// The entry with an input method's `preedit` after its text (as much as the limits let in).
    public func showing(preedit: String) -> TextEntry {
        var entry = self
        let before = string.unicodeScalars.count
        entry.type(preedit)
        entry.preeditLength = entry.string.unicodeScalars.count - before
        return entry
    }

    /// The text without the preedit: what was typed.
    public var committed: String {
        String(String.UnicodeScalarView(string.unicodeScalars.dropLast(preeditLength)))
    }

    public var lineCount: Int { string.unicodeScalars.reduce(1) { $0 + ($1 == "\n" ? 1 : 0) } }

    /// The words as a stroke would carry them, for drawing them live.
    public var text: StrokeText { StrokeText(string: string, size: size) }

    /// The `text` command that keeps it; nil when there is nothing to keep.
    public var request: TextRequest? {
        let request = TextRequest(string: committed, x: min(max(anchor.x, 0), 1), y: min(max(anchor.y, 0), 1), size: size, color: color)
        return request.problem == nil ? request : nil
    }

    /// The printable text of an X keysym (X11, and Wayland's and GDK's, which share
    /// the numbers): Latin-1 directly, Unicode keysyms (0x1000000 + code point), the
    /// keypad's digits and operators; nil for a key that types nothing here.
    public static func text(keysym: UInt32) -> String? {
        let scalar: UInt32? = switch keysym {
        case 0x20...0x7e, 0xa0...0xff: keysym
        case 0x100_0100...0x110_ffff: keysym - 0x100_0000
        case 0xffb0...0xffb9: keysym - 0xffb0 + 0x30                       // KP_0-KP_9
        case 0xff80: 0x20                                                  // KP_Space
        case 0xffaa...0xffaf: [0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f][Int(keysym - 0xffaa)]   // KP_Multiply … KP_Divide
        case 0xffbd: 0x3d                                                  // KP_Equal
        default: nil
        }
        guard let scalar, let unicode = Unicode.Scalar(scalar) else { return nil }
        return String(Character(unicode))
    }
}
