#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/man.sh BIN_DIR OUT_DIR: man pages for stylusd and stylusctl, made
# from their argument parsers by swift-argument-parser's generate-manual
# tool. The tool comes from the package's own checkout, built by its plugin
# (offline); asking the plugin for its help builds the tool and nothing
# else. The hidden parse-config-child subcommand is left out, blank lines
# become paragraphs, packaging/man/PROGRAM.1.sections adds what the parser
# does not know (ENVIRONMENT, FILES, EXIT STATUS, SEE ALSO) in place of the
# generator's EXIT STATUS, Markdown's `code` becomes quoted text, and the date
# is the last commit's, so the same tree gives the same pages.
set -eu
bin=$1
out=$2
cd "$(dirname "$0")/.."
${SWIFT:-swift} package plugin generate-manual --help >/dev/null
tool=$(ls .build/*/debug/generate-manual-tool 2>/dev/null | head -n 1)
[ -x "$tool" ] || { echo "tools/man.sh: the generate-manual tool was not built" >&2; exit 1; }
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
work=.build/man
rm -rf "$work"
mkdir -p "$work" "$out"
for program in stylusd stylusctl; do
    "$tool" "$bin/$program" --date "$date" --output-directory "$work"
    # An empty line in a discussion (between paragraphs) is an mdoc warning: .Pp is mdoc's paragraph.
    # The help's `code` is Markdown, which man would show as it is: quotes instead.
    # stylusd runs the daemon without a subcommand, which the generator cannot know.
    optional=
    [ "$program" = stylusd ] && optional='/^\.Sh SYNOPSIS$/,/^\.Sh /s/^\.Ar subcommand$/.Op Ar subcommand/'
    sed -e '/^\.It Em parse-config-child$/,/^\.El$/d' -e 's/^$/.Pp/' -e 's/`\([^`]*\)`/\\(lq\1\\(rq/g' \
        ${optional:+-e "$optional"} "$work/$program.1" > "$work/$program.clean.1"
    # What the argument parser cannot know (ENVIRONMENT, FILES, EXIT STATUS, SEE ALSO) is
    # written by hand in packaging/man/, and goes in before the generated AUTHORS section.
    # The generator's EXIT STATUS (only "0 on success") gives way to the one written by hand.
    awk -v extra="packaging/man/$program.1.sections" '
        /^\.Sh "?EXIT STATUS"?$/ { exitstatus = 1; next }
        exitstatus && /^\.Sh / { exitstatus = 0 }
        exitstatus { next }
        !done && /^\.Sh (SEE ALSO|AUTHORS|HISTORY)/ { while ((getline line < extra) > 0) print line; done = 1 }
        /^\.Sh SEE ALSO/ { skip = 1; next }
        skip && /^\.Sh / { skip = 0 }
        !skip { print }
        END { if (!done) while ((getline line < extra) > 0) print line }
    ' "$work/$program.clean.1" > "$out/$program.1"
done
