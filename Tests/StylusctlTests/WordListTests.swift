// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl's words come from the protocol's lists")
struct WordListTests {
    /// A protocol command's stylusctl name: `subscribe` is `watch`; `unsubscribe`, `overlay`, `palette-regions` (a canvas's own reports), `key` (a canvas's keys) and `draw` (a canvas's strokes) have none.
    static let expectedNames = CommandName.allCases.compactMap { name -> String? in
        switch name {
        case .subscribe: "watch"
        case .unsubscribe, .overlay, .paletteRegions, .key, .draw, .shared: nil
        default: name.rawValue
        }
    } + ["monitor", "calibrate", "config", "completions"]

    /// The list itself, spelled out: a command added or renamed shows up here.
    @Test func theCommandNamesAreTheseWords() {
        #expect(Self.expectedNames == ["status", "toggle", "open", "minimize", "ack", "strokes", "clear", "undo",
                                       "redo", "tool", "export", "submit", "discard", "palette", "precision", "background", "watch", "devices", "reload", "output", "pens", "snapshot", "copy", "text", "monitor", "calibrate", "config", "completions"])
    }

    @Test func theSubcommandsAreTheCommandNames() {
        let names = Stylusctl.configuration.subcommands.filter { $0.configuration.shouldDisplay }
            .map { $0.configuration.commandName ?? "\($0)".lowercased() }
        #expect(names == Self.expectedNames)
        for name in CommandName.allCases {
            guard let type = name.subcommand else { continue }
            #expect(type.configuration.abstract == name.summary, "\(name)'s help text is its summary")
        }
    }

    @Test(arguments: [CompletionShell.bash, .zsh, .fish])
    func completionsOfferEveryWord(shell: CompletionShell) {
        let script = Stylusctl.completionScript(for: shell)
        for word in Self.expectedNames + Topic.allCases.map(\.rawValue) + PrecisionRequest.allCases.map(\.rawValue) + PaletteRequest.allCases.map(\.rawValue) {
            #expect(script.contains(word), "\(shell) completes \(word)")
        }
        #expect(!script.contains("unsubscribe"), "unsubscribe is not a stylusctl command")
    }
}
