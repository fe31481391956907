// SPDX-License-Identifier: MIT
/// Changes one top-level key of a config.toml's text and keeps everything
/// else as it was: other lines, comments, and a comment after the value.
public enum ConfigEdit {
    /// `text` with `key = value`: the line that sets `key` (found as error
    /// messages find it, by `KeyLines`) gets the new value; without one, the
    /// key goes before the first table, where a top-level key must be.
    public static func setting(_ key: String, to value: String, in text: String, note: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let number = KeyLines(text).line(of: key), number <= lines.count {
            let old = lines[number - 1]
            let equals = old.firstIndex(of: "=")!
            var rest = Substring(old[old.index(after: equals)...])
            // A trailing comment stays; a `#` inside a quoted value is not one (interval_ms is a number, but be exact).
            var comment = ""
            var inString = false
            for i in rest.indices {
                if rest[i] == "\"" { inString.toggle() }
                if rest[i] == "#", !inString {
                    comment = "  " + rest[i...]
                    rest = rest[..<i]
                    break
                }
            }
            lines[number - 1] = old[..<equals] + "= " + value + comment
            return lines.joined(separator: "\n")
        }
        let firstTable = lines.firstIndex { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("[") } ?? lines.endIndex
        var inserted = ["# \(note)", "\(key) = \(value)"]
        if firstTable < lines.endIndex { inserted.append("") }
        if firstTable == lines.endIndex, lines.last == "" {
            lines.insert(contentsOf: inserted, at: lines.endIndex - 1)
        } else {
            lines.insert(contentsOf: inserted, at: firstTable)
        }
        return lines.joined(separator: "\n")
    }
}
