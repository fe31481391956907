// SPDX-License-Identifier: MIT
/// The help's lines from a key table (the daemon's effective one, `status`
/// canvas.keys, or the spec's defaults): the help's own line first, then one line
/// per action in the order of its first key, its keys joined by ", ". The same
/// lines are `stylus-canvas --help`'s key table and docs/USAGE.md's (a test compares).
public struct HelpLine: Equatable, Sendable {
    public var keys: String
    public var label: String
    /// As config.toml writes it; "help" for the help's own line.
    public var action: String
    public init(keys: String, label: String, action: String) {
        self.keys = keys
        self.label = label
        self.action = action
    }
}

public enum HelpLines {
    public static func lines(_ table: [(key: String, action: String)]) -> [HelpLine] {
        var order: [String] = []
        var keys: [String: [String]] = [:]
        for entry in table where !CanvasSpec.helpKeys.contains(entry.key) && entry.action != "none" {
            if keys[entry.action] == nil { order.append(entry.action) }
            keys[entry.action, default: []].append(keyLabel(entry.key))
        }
        let own = HelpLine(keys: CanvasSpec.helpKeys.map(keyLabel).joined(separator: ", "), label: CanvasSpec.helpLabels["help"]!, action: "help")
        return [own] + order.map { HelpLine(keys: keys[$0]!.joined(separator: ", "), label: CanvasSpec.helpLabels[$0] ?? $0, action: $0) }
    }

    /// "ctrl+shift+z" is "Ctrl+Shift+Z", "plus" is "+"; "ctrl++" never comes (names are canonical).
    public static func keyLabel(_ name: String) -> String {
        name.split(separator: "+", omittingEmptySubsequences: false).map { part in
            let part = String(part)
            return CanvasSpec.helpKeyLabels[part] ?? (part.prefix(1).uppercased() + part.dropFirst())
        }.joined(separator: "+")
    }

    /// A key table as docs/USAGE.md holds it and `stylus-canvas --help` prints it: one row per
    /// key, as config.toml names it, with its label and action (the help groups keys by action).
    public static func rows(_ table: [(key: String, action: String)]) -> [(key: String, label: String, action: String)] {
        [(CanvasSpec.helpKeys.map(keyLabel).joined(separator: ", "), CanvasSpec.helpLabels["help"]!, "")]
            + table.filter { !CanvasSpec.helpKeys.contains($0.key) && $0.action != "none" }
            .map { ($0.key, CanvasSpec.helpLabels[$0.action] ?? $0.action, $0.action) }
    }

    public static func markdown(_ table: [(key: String, action: String)]) -> String {
        let body = rows(table).map { row in
            row.action.isEmpty ? "| \(row.key) | \(row.label) | (the canvas's own) |" : "| `\(row.key)` | \(row.label.replacingBars) | `\(row.action)` |"
        }
        return (["| Key | Does | Action |", "|---|---|---|"] + body).joined(separator: "\n")
    }

    public static func text(_ table: [(key: String, action: String)]) -> String {
        let rows = rows(table)
        let keyWidth = rows.map(\.key.count).max() ?? 0
        let labelWidth = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            let text = "  " + row.key.padded(keyWidth + 2) + row.label.padded(labelWidth + 2) + row.action
            return String(text.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }
}

private extension String {
    func padded(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
    var replacingBars: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
