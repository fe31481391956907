// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusTOML

extension ConfigParserChild {
    /// `[canvas.keys]`: key name = action, read like `[bindings]`. Two spellings
    /// of one key ("Ctrl+Z" and "control+z") are one key bound twice, which
    /// TOML's own duplicate check cannot see: the later line is refused.
    static func canvasKeys(_ value: TOMLValue, lines: KeyLines, report: (String, String) -> Void) -> [String: Action] {
        guard let table = value.table else {
            report("canvas.keys", "expected a table ([canvas.keys]) of key = action, e.g. q = \"tool:pen\"")
            return [:]
        }
        var bound: [String: (Action, line: Int, written: String)] = [:]
        // In the file's order, so that the second of two spellings is the one refused.
        let keys = table.keys.sorted { (lines.line(of: "canvas.keys.\($0)") ?? .max, $0) < (lines.line(of: "canvas.keys.\($1)") ?? .max, $1) }
        for written in keys {
            let path = "canvas.keys.\(written)"
            let name: CanvasKeyName
            switch CanvasKeyName.parse(written) {
            case .success(let n): name = n
            case .failure(let error):
                report(path, error.message)
                continue
            }
            guard name.description != "escape" else {
                report(path, "Escape is the canvas's own: it minimizes the canvas (and ends a text entry); bind minimize-canvas to another key for a second one")
                continue
            }
            guard name.description != "f1", name.description != "question" else {
                report(path, "F1 and ? are the canvas's own: they show the help overlay of the canvas's keys; bind another key")
                continue
            }
            guard let text = table[written]?.string else {
                report(path, "expected an action (a string), e.g. \"tool:pen\", or \"none\" to unbind the key; use \(Action.spelledOut)")
                continue
            }
            let action: Action
            switch Action.parse(text) {
            case .success(let a): action = a
            case .failure(let error):
                report(path, error.message)
                continue
            }
            if let refusal = CanvasKeyName.refusal(for: action) {
                report(path, refusal.message)
                continue
            }
            if let earlier = bound[name.description] {
                report(path, "the same key as \"\(earlier.written)\" on line \(earlier.line) (both are \(name)); bind each key once")
                continue
            }
            bound[name.description] = (action, lines.line(of: path) ?? 0, written)
        }
        return bound.mapValues(\.0)
    }
}
