#!/bin/bash
# SPDX-License-Identifier: MIT
# PID 1 in the guest: the host's root read-only, /tmp and /run in memory,
# results on /run/hil. Starts udev, runs the suite, powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
OUT=/run/hil
HIL_REPO=/run/hil-repo
. "$OUT/env"
date +%s > "$OUT/booted"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mkdir -p /run/udev/rules.d
# The rules vm.sh found running other packages' programs for every device (it says why).
while read -r rules; do
  ln -sf /dev/null "/run/udev/rules.d/$rules"
  echo "guest: masked the host's $rules (it runs a program for each device)"
done < "$OUT/masked-rules"
/lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add >/dev/null 2>&1
udevadm settle
echo "guest: kernel $(uname -r), udev running, /dev/uinput $( [ -c /dev/uinput ] && echo present || echo MISSING)"
cd "$HIL_REPO"
if [ "${HIL_SUITE:-tests}" = flood ]; then
  HIL_FLOOD_TARGETS=1 /usr/bin/python3 hil/tests/run.py --stylusd "$HIL_REPO/.build/release/stylusd" --only flood 2>&1 | tee "$OUT/tests.log"
elif [ "${HIL_SUITE:-tests}" = floodprofile ]; then
  HIL_FLOOD_PROFILE="$OUT" /usr/bin/python3 hil/tests/run.py --stylusd "$HIL_REPO/.build/release/stylusd" --only flood 2>&1 | tee "$OUT/tests.log"
elif [ "${HIL_SUITE:-tests}" = filterbench ]; then
  /usr/bin/python3 hil/bench/filter_bench.py --stylusd "$HIL_REPO/.build/release/stylusd" \
    --static-stylusd "$HIL_REPO/.build-static/release/stylusd" ${HIL_ONLY:+--only "$HIL_ONLY"} $HIL_BENCH_ARGS 2>&1 | tee "$OUT/filterbench.log"
elif [ "${HIL_SUITE:-tests}" = filterprofile ]; then
  /usr/bin/python3 hil/bench/filter_bench.py --stylusd "$HIL_REPO/.build/release/stylusd" --profile "$OUT" 2>&1 | tee "$OUT/filterbench.log"
elif [ "${HIL_SUITE:-tests}" = latency ]; then
  /usr/bin/python3 hil/bench/latency.py --stylusd "$HIL_REPO/.build/release/stylusd" 2>&1 | tee "$OUT/latency.log"
else
  /usr/bin/python3 hil/tests/run.py --stylusd "$HIL_REPO/${HIL_BIN:-.build-static/release}/stylusd" --only "$HIL_ONLY" 2>&1 | tee "$OUT/tests.log"
fi
status=${PIPESTATUS[0]}
echo "$status" > "$OUT/status"
sync
echo o > /proc/sysrq-trigger
sleep 10
