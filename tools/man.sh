#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/man.sh BIN_DIR OUT_DIR: man pages for stylusd and stylusctl, made
# from their argument parsers by swift-argument-parser's generate-manual
# tool. The tool comes from the package's own checkout, built by its plugin
# (offline); asking the plugin for its help builds the tool and nothing
# else. The hidden parse-config-child subcommand is left out, blank lines
# become paragraphs, and the date
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
    sed -e '/^\.It Em parse-config-child$/,/^\.El$/d' -e 's/^$/.Pp/' "$work/$program.1" > "$out/$program.1"
done
