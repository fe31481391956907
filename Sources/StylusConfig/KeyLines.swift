// SPDX-License-Identifier: MIT
/// Finds the line a key is set on: "interval_ms" at top level, "precision.curve"
/// under [precision]. Good enough for error messages; the TOML tree keeps no positions.
package struct KeyLines {
    private struct Entry: Hashable {
        var table: String
        var key: String
    }

    /// The first line of each: a file of many bad keys is answered in one pass, not one scan of the file per key.
    private var firstLine: [Entry: Int] = [:]

    package init(_ text: String) {
        var table = ""
        func record(_ entry: Entry, _ line: Int) {
            if firstLine[entry] == nil { firstLine[entry] = line }
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                table = String(line.dropFirst().prefix { $0 != "]" }).trimmingCharacters(in: " \t\"")
                record(Entry(table: "", key: table), index + 1)
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = String(line[..<equals]).trimmingCharacters(in: " \t\"")
                record(Entry(table: table, key: key), index + 1)
            }
        }
    }

    /// A key may hold dots (quoted) and so may a table name: every split of
    /// the path into table and key is tried, the first dot's first.
    /// "output.passthrough.BTN_STYLUS" set in an inline table gets the line
    /// of `passthrough` under [output].
    package func line(of path: String) -> Int? {
        for dot in path.indices where path[dot] == "." {
            let table = String(path[..<dot]), key = String(path[path.index(after: dot)...])
            if let line = firstLine[Entry(table: table, key: key)] { return line }
        }
        if let line = firstLine[Entry(table: "", key: path)] { return line }
        guard let last = path.lastIndex(of: "."), path[..<last].contains(".") else { return nil }
        return line(of: String(path[..<last]))
    }
}

extension String {
    package func trimmingCharacters(in set: String) -> String {
        let skip = Set(set)
        var s = Substring(self)
        while let c = s.first, skip.contains(c) { s = s.dropFirst() }
        while let c = s.last, skip.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
