// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol

extension PersistedState {
    /// The state file's bytes, written by hand, exactly as JSONEncoder with
    /// sorted keys writes them (`StateJSONTests` compares the two). The
    /// state writer encodes the whole drawing once a second while the pen
    /// draws; with JSONEncoder that was a quarter of the daemon's CPU in the
    /// test guest's flood (hil/flood.py), taken from the same two CPUs as the loop.
    /// nil when a value is not finite, which JSON cannot carry (JSONEncoder refuses it too).
    /// Its strings go through `JSONString`, which escapes as JSONEncoder does, its numbers through `JSONNumber`.
    func json() -> [UInt8]? {
        let points = strokes.reduce(0) { $0 + $1.x.count }
        var out: [UInt8] = []
        out.reserveCapacity(96 + strokes.count * 96 + points * 64)
        out.append(UInt8(ascii: "{"))
        if let background {
            out.append(contentsOf: #""background":"#.utf8)
            JSONString.appendQuoted(background, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: #""canvas":"#.utf8)
        JSONString.appendQuoted(canvas, to: &out)
        if let pens { guard Self.append(pens: pens, to: &out) else { return nil } }
        out.append(contentsOf: #","precision_enabled":"#.utf8)
        out.append(contentsOf: (precisionEnabled ? "true" : "false").utf8)
        out.append(contentsOf: #","strokes":["#.utf8)
        for (i, s) in strokes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            if let color = s.color {
                out.append(contentsOf: #""color":"#.utf8)
                JSONString.appendQuoted(color, to: &out)
                out.append(UInt8(ascii: ","))
            }
            out.append(contentsOf: #""device":"#.utf8)
            out.append(contentsOf: String(s.device).utf8)
            if let pen = s.pen {
                out.append(contentsOf: #","pen":"#.utf8)
                JSONString.appendQuoted(pen, to: &out)
            }
            out.append(contentsOf: #","pressure":"#.utf8)
            guard Self.append(s.pressure, to: &out) else { return nil }
            if let text = s.text {
                out.append(contentsOf: #","text":"#.utf8)
                JSONString.appendQuoted(text, to: &out)
            }
            if let size = s.textSize {
                out.append(contentsOf: #","text_size":"#.utf8)
                guard JSONNumber.append(size, to: &out) else { return nil }
            }
            out.append(contentsOf: #","tilt_x":"#.utf8)
            guard Self.append(s.tiltX, to: &out) else { return nil }
            out.append(contentsOf: #","tilt_y":"#.utf8)
            guard Self.append(s.tiltY, to: &out) else { return nil }
            out.append(contentsOf: #","time_us":["#.utf8)
            for (k, t) in s.timeUS.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: String(t).utf8)
            }
            out.append(contentsOf: #"],"tool":"#.utf8)
            JSONString.appendQuoted(s.tool, to: &out)
            if let width = s.width {
                out.append(contentsOf: #","width":"#.utf8)
                guard JSONNumber.append(width, to: &out) else { return nil }
            }
            out.append(contentsOf: #","x":"#.utf8)
            guard Self.append(s.x, to: &out) else { return nil }
            out.append(contentsOf: #","y":"#.utf8)
            guard Self.append(s.y, to: &out) else { return nil }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        if let style {
            out.append(contentsOf: #","style":{"color":"#.utf8)
            JSONString.appendQuoted(style.color, to: &out)
            out.append(contentsOf: #","tool":"#.utf8)
            JSONString.appendQuoted(style.tool, to: &out)
            out.append(contentsOf: #","width":"#.utf8)
            guard JSONNumber.append(style.width, to: &out) else { return nil }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #","version":"#.utf8)
        out.append(contentsOf: String(version).utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A column by `JSONNumber`'s rule, the one events and `status` follow;
    /// false for a value that is not finite: the file is then not written at
    /// all, rather than with a `null` it could not be read back from.
    private static func append(_ column: [Float], to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "["))
        for (k, value) in column.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            guard JSONNumber.append(value, to: &out) else { return false }
        }
        out.append(UInt8(ascii: "]"))
        return true
    }
}
