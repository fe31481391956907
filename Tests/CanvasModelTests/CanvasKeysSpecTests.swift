// SPDX-License-Identifier: MIT
import CanvasModel
import Foundation
import StylusCore
import Testing

@Suite("The canvas's default keys (canvas-spec.json constants.keys)")
struct CanvasKeysSpecTests {
    @Test func theTableIsTheSpecs() {
        let spec = CanvasSpecFile.constant("keys") as! [String: String]
        #expect(spec == Dictionary(uniqueKeysWithValues: CanvasSpec.keys.map { ($0.key, $0.action) }))
        #expect(CanvasSpec.keyTable.count == spec.count, "no two spellings of one key")
    }

    /// docs/USAGE.md's table is this one, row by row in this order.
    @Test func theUsageTableIsTheSpecs() throws {
        let usage = try String(contentsOf: CanvasSpecFile.url.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/USAGE.md"), encoding: .utf8)
        let section = try #require(usage.components(separatedBy: "### Keys on the open canvas").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        #expect(rows == CanvasSpec.keys.map { [$0.key, $0.action] })
    }

    @Test func everyNameIsCanonicalAndEveryActionParses() {
        for (key, action) in CanvasSpec.keys {
            #expect((try? CanvasKeyName.parse(key).get())?.description == key)
            #expect((try? Action.parse(action).get())?.rawValue == action)
        }
    }

    @Test func theColourKeysAreThePalettesInOrder() {
        let digits = CanvasSpec.keys.filter { $0.key.count == 1 && $0.key.first!.isNumber }
        // The palette's places, so the keys follow a palette [canvas] palette sets.
        #expect(digits.map(\.action) == (1...9).map { "color:\($0)" })
        #expect(digits.map(\.key) == (1...9).map(String.init))
    }

    @Test func escapeIsTheCanvassOwnAndTheOtherKeysGoToTheTable() {
        func action(_ key: CanvasKey?) -> Action? {
            guard case .forward(let name)? = key else { return nil }
            return CanvasSpec.keyTable[name]
        }
        #expect(CanvasKey(keysym: 0xff1b, control: false, shift: false) == .minimize)
        #expect(CanvasKey(keysym: 0xff1b, control: true, shift: false) != .minimize, "ctrl+escape is a key of the table")
        #expect(action(CanvasKey(keysym: 0x7a, control: true, shift: false)) == .undo)
        #expect(action(CanvasKey(keysym: 0x5a, control: true, shift: true)) == .redo)
        #expect(action(CanvasKey(keysym: 0x79, control: true, shift: false)) == .redo)
        #expect(action(CanvasKey(keysym: 0x70, control: false, shift: false)) == .style(.set(tool: .pen, color: nil, width: nil)))
        #expect(action(CanvasKey(keysym: 0x7a, control: false, shift: false)) == nil, "a plain z is bound to nothing")
    }

    @Test(arguments: [
        // keysym, modifiers, name (nil: not a key the table can name)
        (UInt32(0x70), CanvasKeyName.Modifiers(), "p"),
        (0x50, [.shift], "shift+p"),
        (0x5a, [.ctrl, .shift], "ctrl+shift+z"),
        (0x7a, [.ctrl], "ctrl+z"),
        (0x2b, [.shift], "plus"),             // Shift+= on a US layout
        (0xffab, [], "plus"),                 // KP_Add
        (0x2d, [], "minus"),
        (0x3f, [.shift], "question"),
        (0xffff, [.shift], "shift+delete"),
        (0xffbe, [], "f1"),
        (0xffb3, [], "3"),                    // KP_3
        (0x31, [.shift], "1"),                // a layout whose digits need Shift
        (0x21, [.shift], nil),                // "!" is not in the table
    ] as [(UInt32, CanvasKeyName.Modifiers, String?)])
    func aKeysymIsNamedAsTheConfigWritesIt(keysym: UInt32, modifiers: CanvasKeyName.Modifiers, name: String?) {
        #expect(CanvasKeyName(keysym: keysym, modifiers: modifiers)?.description == name)
    }

    @Test(arguments: [
        ("P", "p"), ("Ctrl+Shift+Z", "ctrl+shift+z"), ("shift+control+z", "ctrl+shift+z"), ("+", "plus"), ("-", "minus"),
        ("ctrl++", "ctrl+plus"), ("?", "question"), ("Esc", "escape"), ("del", "delete"), ("F12", "f12"), ("super+1", "super+1"),
    ])
    func aWrittenNameReadsAsItsCanonicalOne(text: String, canonical: String) {
        #expect((try? CanvasKeyName.parse(text).get())?.description == canonical)
    }

    @Test(arguments: ["", "hyper+p", "ctrl+ctrl+z", "shift+plus", "shift+1", "f25", "pp", "é", "ctrl+"])
    func aBadNameIsRefusedWithWhy(text: String) {
        guard case .failure(let error) = CanvasKeyName.parse(text) else { Issue.record("\(text) read"); return }
        #expect(!error.message.isEmpty)
    }
}
