#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests/sanitize/sanitize.sh [address|thread…]: the Swift test suite, then the socket
# contract against a live daemon and stylusctl, each built with the
# sanitizer. Any report a sanitizer writes (log_path below), even one that
# did not fail a test, fails the run.
set -uo pipefail
cd "$(dirname "$0")/../.."
swift=${SWIFT:-swift}
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(address thread)

failed=()
for sanitizer in "${sanitizers[@]}"; do
    scratch=.build-$sanitizer
    reports=$PWD/$scratch/reports
    rm -rf "$reports"; mkdir -p "$reports"
    # LeakSanitizer: TOMLKit, the TOML tests' oracle, never frees what it parses (Tests/sanitize/lsan.supp).
    export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1"
    export LSAN_OPTIONS="suppressions=$PWD/Tests/sanitize/lsan.supp:print_suppressions=0"
    export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=1"
    # The Swift backtracer would race the sanitizer's own report.
    export SWIFT_BACKTRACE=enable=no
    status=0
    "$swift" test --scratch-path "$scratch" --sanitize="$sanitizer" --disable-xctest >"$scratch/swift-test.log" 2>&1 || status=$?
    summary=$(grep -E 'Test run with' "$scratch/swift-test.log" | tail -n 1)
    echo "sanitize $sanitizer: swift test: ${summary:-no summary} (status $status; log $scratch/swift-test.log)"
    if [ $status -ne 0 ]; then
        failed+=("$sanitizer: swift test")
        # The log stays in the build folder; CI keeps only what is printed.
        # Each issue with its message, and a property test's seed (its shrunk input can be long: cut).
        grep -E -A1 'recorded an issue|error:' "$scratch/swift-test.log" | cut -c1-400 | head -n 40 | sed 's/^/    /'
        grep -E 'fixedSeed' "$scratch/swift-test.log" | head -n 5 | sed 's/^/    /'
    fi
    for product in stylusd stylusctl; do
        "$swift" build --scratch-path "$scratch" --sanitize="$sanitizer" --product $product >>"$scratch/swift-test.log" 2>&1 \
            || { failed+=("$sanitizer: build $product"); continue 2; }
    done
    python3 Tests/contract/socket_contract.py --sanitized --bin "$scratch/debug" >"$scratch/contract.log" 2>&1 || failed+=("$sanitizer: contract")
    echo "sanitize $sanitizer: $(tail -n 1 "$scratch/contract.log") (log $scratch/contract.log)"
    if compgen -G "$reports/*" >/dev/null; then
        echo "sanitize $sanitizer: reports written:"
        for report in "$reports"/*; do echo "  $report"; head -n 20 "$report" | sed 's/^/    /'; done
        failed+=("$sanitizer: reports")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    printf 'sanitize: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
