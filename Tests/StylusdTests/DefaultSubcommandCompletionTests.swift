// SPDX-License-Identifier: MIT
import ArgumentParser
@testable import stylusd
import Testing

@Suite("stylusd's completion scripts complete the daemon's options without `run`")
struct DefaultSubcommandCompletionTests {
    static let names = ["run", "probe", "replay", "help"]

    @Test func bashGetsAWrapperRegisteredAfterTheGeneratedScript() {
        let changed = DefaultSubcommandCompletion.change("_stylusd() {\n:\n}\n", for: .bash, subcommandNames: Self.names)
        #expect(changed.missingAnchor == nil)
        #expect(changed.script.hasPrefix("_stylusd() {\n:\n}\n"))
        #expect(changed.script.contains("run|probe|replay|help) _stylusd \"$@\"; return ;;"))
        #expect(changed.script.hasSuffix("complete -o filenames -F _stylusd_default stylusd\n"))
    }

    @Test func zshAndFishRenameTheGeneratedFunctionAndPutAWrapperInItsPlace() {
        let zsh = DefaultSubcommandCompletion.change("#compdef stylusd\n_stylusd() {\n:\n}\n", for: .zsh, subcommandNames: Self.names)
        #expect(zsh.missingAnchor == nil)
        #expect(zsh.script.contains("\n_stylusd_as_typed() {\n:\n}\n"))
        #expect(zsh.script.contains("_stylusd() {\n    emulate -L zsh\n"))

        let fish = DefaultSubcommandCompletion.change(
            "\nfunction __stylusd_tokens\nend\ncomplete -c stylusd -n '__stylusd_should_offer_completions_for_positional \"stylusd\" -eq 1' -a run\n",
            for: .fish, subcommandNames: Self.names)
        #expect(fish.missingAnchor == nil)
        #expect(fish.script.contains("\nfunction __stylusd_tokens_as_typed\nend\n"))
        #expect(fish.script.contains("if contains -- $word run probe replay help\n"))
        #expect(fish.script.contains("complete -c stylusd -n '__stylusd_at_first_word' -a run\n"))
    }

    @Test func aScriptWithoutTheTextToChangeIsGivenAsGeneratedAndTheTextNamed() {
        let generated = "#compdef stylusd\n_stylusd_main() {\n}\n"
        let changed = DefaultSubcommandCompletion.change(generated, for: .zsh, subcommandNames: Self.names)
        #expect(changed.script == generated)
        #expect(changed.missingAnchor == "_stylusd() {")
    }

    /// Fails when an ArgumentParser upgrade changes the generated scripts under the text we rename.
    @Test(arguments: [CompletionShell.bash, .zsh, .fish])
    func theScriptsOfThisArgumentParserHoldWhatIsChanged(shell: CompletionShell) {
        let changed = DefaultSubcommandCompletion.change(Stylusd.completionScript(for: shell), for: shell, subcommandNames: Stylusd.subcommandNames)
        #expect(changed.missingAnchor == nil)
        #expect(changed.script != Stylusd.completionScript(for: shell))
    }
}
