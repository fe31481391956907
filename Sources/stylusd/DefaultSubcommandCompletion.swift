// SPDX-License-Identifier: MIT
import ArgumentParser

/// ArgumentParser's completion scripts know the daemon's options only
/// after `run`, but stylusd with no subcommand is the daemon too. Each
/// script is changed so that, until a subcommand is typed, it completes
/// as if `run` had been, and the first word also offers the subcommands:
/// bash gets a wrapper function registered in place of the generated one;
/// zsh and fish get one generated function renamed and a wrapper of ours
/// under its old name (fish also a new test for when the subcommands are
/// offered). Where ArgumentParser's script no longer holds the text we
/// rename (a newer ArgumentParser), the script is given as generated and
/// stylusd says so on stderr: the daemon's options then complete only after `run`.
enum DefaultSubcommandCompletion {
    /// `script`, ArgumentParser's for `shell`, changed as above; or as it
    /// was, with the text it lacks (newlines left out) as `missingAnchor`.
    static func change(_ script: String, for shell: CompletionShell, subcommandNames: [String]) -> (script: String, missingAnchor: String?) {
        let replacements: [(old: String, new: String)]
        switch shell {
        case .bash: return (script + bash(subcommandNames: subcommandNames), nil)
        case .zsh: replacements = [("\n_stylusd() {\n", zsh(subcommandNames: subcommandNames) + "\n_stylusd_as_typed() {\n")]
        case .fish: replacements = [
            ("\nfunction __stylusd_tokens\n", fish(subcommandNames: subcommandNames) + "\nfunction __stylusd_tokens_as_typed\n"),
            ("'__stylusd_should_offer_completions_for_positional \"stylusd\" -eq 1'", "'__stylusd_at_first_word'"),
        ]
        default: return (script, nil)
        }
        var changed = script
        for (old, new) in replacements {
            guard changed.contains(old) else { return (script, old.filter { $0 != "\n" }) }
            changed = changed.replacing(old, with: new)
        }
        return (changed, nil)
    }

    /// zsh: `words` and `CURRENT` are what the generated `_stylusd` completes
    /// from; inserting `run` into them is typing it.
    static func zsh(subcommandNames: [String]) -> String {
        #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        _stylusd() {
            emulate -L zsh
            local word
            for word in "${(@)words[2,CURRENT-1]}"; do
                case "${word}" in
                \#(subcommandNames.joined(separator: "|"))) _stylusd_as_typed "$@"; return ;;
                esac
            done
            local -i ret=1
            if (( CURRENT == 2 )) && [[ "${PREFIX}" != -* ]]; then
                # The subcommands; _arguments rewrites words and CURRENT, so they are put back after.
                local -a typed=("${words[@]}")
                _stylusd_as_typed "$@" && ret=0
                words=("${typed[@]}")
                CURRENT=2
            fi
            words=("${words[1]}" run "${(@)words[2,-1]}")
            (( CURRENT++ ))
            _stylusd_as_typed "$@" && ret=0
            return "${ret}"
        }

        """#
    }

    /// fish: every generated condition parses the command line from
    /// `__stylusd_tokens`; inserting `run` into what it returns is typing it.
    static func fish(subcommandNames: [String]) -> String {
        #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        function __stylusd_tokens
            if contains -- -t $argv
                __stylusd_tokens_as_typed $argv
                return
            end
            set -l tokens (__stylusd_tokens_as_typed $argv)
            for word in (__stylusd_tokens_as_typed -pc)[2..]
                if contains -- $word \#(subcommandNames.joined(separator: " "))
                    string join \n -- $tokens
                    return
                end
            end
            string join \n -- $tokens[1] run $tokens[2..]
        end

        # The subcommands are offered as the first word, where no subcommand is typed yet.
        function __stylusd_at_first_word
            test (count (__stylusd_tokens_as_typed -pc)) -eq 1
        end

        """#
    }

    /// bash: the wrapper is registered in place of the generated function
    /// and calls it with `run` inserted into COMP_WORDS and COMP_LINE.
    static func bash(subcommandNames: [String]) -> String {
        #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        _stylusd_default() {
            local -i i
            for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                \#(subcommandNames.joined(separator: "|"))) _stylusd "$@"; return ;;
                esac
            done
            local -a subcommands=()
            if ((COMP_CWORD == 1)); then
                _stylusd "$@"
                subcommands=("${COMPREPLY[@]}")
                COMPREPLY=()
            fi
            local -a words=("${COMP_WORDS[@]}")
            local line="${COMP_LINE}"
            COMP_WORDS=("${words[0]}" run "${words[@]:1}")
            COMP_CWORD=$((COMP_CWORD + 1))
            COMP_LINE="${words[0]} run${line#"${words[0]}"}"
            COMP_POINT=$((COMP_POINT + 4))
            _stylusd "$1" "$2" "${COMP_WORDS[COMP_CWORD - 1]}"
            COMPREPLY=("${subcommands[@]}" "${COMPREPLY[@]}")
        }

        complete -o filenames -F _stylusd_default stylusd

        """#
    }
}
