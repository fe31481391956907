#!/bin/sh
# SPDX-License-Identifier: MIT
# The extension's tests under gjs, without GNOME Shell: builds it into a
# temporary folder, holds the pure modules to canvas-spec.json (spec_test.js),
# the mouse's and touch's `draw` requests (pointer_test.js), a PNG's size
# (png_test.js), the strokes fetched from an index (strokes_tail_test.js), then loads both formats (formats_test.js). Exits non-zero on any failure.
# Usage: gnome-extension/tests/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$here/../build.sh" "$out" >/dev/null
status=0
gjs -m "$here/spec_test.js" "$out/modules" "$here/../../Sources/CanvasModel/canvas-spec.json" || status=1
gjs -m "$here/pointer_test.js" "$out/modules" || status=1
gjs -m "$here/png_test.js" "$out/modules" || status=1
gjs -m "$here/strokes_tail_test.js" "$out/modules" || status=1
gjs -m "$here/text_entry_test.js" "$out/modules" || status=1
gjs -m "$here/formats_test.js" "$out" || status=1
exit $status
