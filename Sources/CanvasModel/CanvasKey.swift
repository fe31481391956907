// SPDX-License-Identifier: MIT
/// What a key does on the open canvas, the same on X11 (GDK keyvals) and
/// Wayland (xkb keysyms), which share the X keysym numbers.
public enum CanvasKey: Equatable, Sendable {
    case minimize, undo, redo

    /// Escape minimizes; Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo; anything else is not the canvas's.
    public init?(keysym: UInt32, control: Bool, shift: Bool) {
        switch keysym {
        case 0xff1b: self = .minimize                               // Escape
        case 0x7a where control, 0x5a where control: self = shift ? .redo : .undo   // z, Z (a where clause binds to one pattern)
        case 0x79 where control, 0x59 where control: self = .redo                   // y, Y
        default: return nil
        }
    }
}
