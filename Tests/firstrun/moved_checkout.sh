#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests/firstrun/moved_checkout.sh: `make release` in a checkout copied from
# another path, whose build folder SwiftPM made there (issue 40). Its module
# cache names the old path, and a real build would fail ("was compiled with
# module cache path"): the Makefile must clear it first. And SwiftPM's
# temporary folders (TemporaryDirectory.*) must go under the build folder and
# be gone afterwards, not in $TMPDIR. Cheap: `swift` is a stand-in that checks
# what the real one would meet and makes a temporary folder as SwiftPM does;
# the build itself is not run (a moved tree rebuilds everything, minutes).
set -eu
cd "$(dirname "$0")/../.."
checkout=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stylusd-moved-XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failed=1; }

# The stand-in: refuses, as the real toolchain would, a module cache made elsewhere.
mkdir -p "$work/toolchain" "$work/tmp"
cat > "$work/toolchain/swift" <<'SWIFT'
#!/bin/sh
for cache in .build-static/*/release/ModuleCache; do
    if [ -d "$cache" ] && grep -rqs "$OLD_PATH" "$cache"; then
        echo "error: precompiled file $cache/SwiftShims.pcm was compiled with module cache path '$OLD_PATH/$cache'" >&2
        exit 1
    fi
done
case "${TMPDIR:-}" in "$(pwd)"/.build-static/*) ;; *) echo "error: TMPDIR is ${TMPDIR:-unset}, not under the build folder" >&2; exit 1 ;; esac
mkdir "$(mktemp -d "$TMPDIR/TemporaryDirectory.XXXXXX")/x"
mkdir -p .build-static/release
SWIFT
chmod +x "$work/toolchain/swift"

# A checkout built at $work/old (its module cache and build plan name it), then moved to $work/new.
old=$work/old
mkdir -p "$old"
git ls-files -z | xargs -0 cp --parents -t "$old"
mkdir -p "$old/.build-static/x86_64-unknown-linux-gnu/release/ModuleCache/ABC"
echo "module cache path $old/.build-static/x86_64-unknown-linux-gnu/release/ModuleCache" \
    > "$old/.build-static/x86_64-unknown-linux-gnu/release/ModuleCache/ABC/SwiftShims-1.pcm"
echo "    inputs: [\"$old/.build-static/x86_64-unknown-linux-gnu/release/Modules/StylusCore.swiftmodule\"]" > "$old/.build-static/release.yaml"
mv "$old" "$work/new"

out=$(cd "$work/new" && OLD_PATH=$old TMPDIR=$work/tmp SWIFT=$work/toolchain/swift make --no-print-directory release 2>&1) \
    && pass "make release in a moved checkout" || fail "make release in a moved checkout: $out"
echo "$out" | grep -q "was built at another path: clearing its module cache" \
    && pass "it says that it clears the module cache" || fail "no word of the moved build folder: $out"
[ "$(cat "$work/new/.build-static/checkout-path" 2>/dev/null)" = "$work/new" ] \
    && pass "the build folder records its checkout" || fail "no checkout-path in the build folder"
# Each build's own folder under .build-static/tmp (named by its shell's pid) goes with the build.
left=$(ls -d "$work"/tmp/TemporaryDirectory.* "$work"/new/.build-static/tmp/* 2>/dev/null || true)
[ -z "$left" ] && pass "no temporary folder left behind" || fail "left behind: $left"
# Built where it is: nothing is cleared the next time.
mkdir -p "$work/new/.build-static/x86_64-unknown-linux-gnu/release/ModuleCache/DEF"
out=$(cd "$work/new" && OLD_PATH=$old TMPDIR=$work/tmp SWIFT=$work/toolchain/swift make --no-print-directory release 2>&1) || true
[ -d "$work/new/.build-static/x86_64-unknown-linux-gnu/release/ModuleCache/DEF" ] && ! echo "$out" | grep -q "another path" \
    && pass "a build folder made here keeps its module cache" || fail "the module cache of a build made here was cleared: $out"
[ $failed = 0 ] && echo "moved checkout: passed" || echo "moved checkout: FAILED"
exit $failed
