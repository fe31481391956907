#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz/run.sh SECONDS [TARGET…]: builds stylus-fuzz with libFuzzer and
# AddressSanitizer, seeds each corpus from the docs and fixtures, and fuzzes
# every target (protocol, evemu, config) for SECONDS. A finding fails the run
# and leaves its input in .build-fuzz/artifacts/; copy it into
# Tests/Fixtures/fuzz/TARGET/ so `make test` keeps it fixed.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: Fuzz/run.sh SECONDS [TARGET…]}
shift
targets=("${@:-protocol}")
[ $# -eq 0 ] && targets=(protocol evemu config)
swift=${SWIFT:-swift}

toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v "$swift")")")")
runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)
if [ -z "$runtime" ]; then
    echo "fuzz: no libclang_rt.fuzzer_no_main in $toolchain/lib/clang; this Swift toolchain has no libFuzzer" >&2
    exit 1
fi

# Coverage and ASan in every Swift module; libFuzzer's driver without its
# main(), since stylus-fuzz has its own to pick the target.
STYLUSD_FUZZ=1 "$swift" build -c release --scratch-path .build-fuzz --product stylus-fuzz \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 | grep -v "Cannot export local symbol" || exit 1
binary=.build-fuzz/release/stylus-fuzz
[ -x "$binary" ] || { echo "fuzz: the build left no $binary" >&2; exit 1; }

python3 Fuzz/seeds.py .build-fuzz/corpus || exit 1
mkdir -p .build-fuzz/artifacts .build-fuzz/logs
rm -f .build-fuzz/logs/*.status

declare -A max_len=([protocol]=8192 [evemu]=16384 [config]=4096)
# One target for SECONDS; its exit status goes to its log folder.
fuzz_target() {
    local target=$1 log=.build-fuzz/logs/$1.log
    # The Swift backtracer would race ASan's report on a crash.
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$PWD/Tests/sanitize/lsan.supp:print_suppressions=0 \
        "$binary" "$target" -max_total_time="$seconds" -max_len="${max_len[$target]:-8192}" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix=.build-fuzz/artifacts/"$target"- .build-fuzz/corpus/"$target" >"$log" 2>&1
    echo $? > ".build-fuzz/logs/$target.status"
}

# FUZZ_PARALLEL=1: every target at once (each for its full SECONDS), as CI runs them.
for target in "${targets[@]}"; do
    if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then fuzz_target "$target" & else fuzz_target "$target"; fi
done
wait

failed=()
for target in "${targets[@]}"; do
    log=.build-fuzz/logs/$target.log
    status=$(cat ".build-fuzz/logs/$target.status" 2>/dev/null || echo 1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ "$status" -eq 0 ]; then
        echo "fuzz $target: ${seconds} s, ${runs:-?} inputs, ${cov:-cov: ?}, no findings"
    else
        echo "fuzz $target: FAILED (status $status) after ${runs:-?} inputs; log: $log"
        grep -E -m 5 'ERROR|Fatal error|Assertion|stylus-fuzz' "$log" | sed 's/^/    /'
        grep -E 'Test unit written to' "$log" | sed 's/^/    /'
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]}; copy each artifact into Tests/Fixtures/fuzz/TARGET/ and fix it" >&2
    exit 1
fi
