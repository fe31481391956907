#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/startup-order.sh BINARY OUT: the functions the daemon runs from exec
# until it idles (and answers one `status`), in the link order file that
# `make install-build` hands to lld (--symbol-ordering-file). lld puts them
# together at the start of .text, so the idle daemon's code is a few hundred
# contiguous pages instead of pages spread over the whole binary, each pulling
# in its neighbours through the kernel's fault-around (docs/PERFORMANCE.md,
# section 6). BINARY is an unstripped `make install-build` stylusd.
#
# Run by `make startup-order` after a change that moves start-up code; a stale
# file only costs memory (names that no longer exist are skipped, new start-up
# functions land wherever the linker puts them), which `make bench` shows.
set -eu
binary=$1
out=$2
command -v valgrind >/dev/null || { echo "tools/startup-order.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d /tmp/stylusd-order.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
# Valgrind cannot read the DWARF the Swift compiler writes; the symbol table is enough.
strip --strip-debug -o "$work/stylusd" "$binary"
export XDG_RUNTIME_DIR="$work" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
unset STYLUSD_SOCKET NOTIFY_SOCKET || true
# Observe mode: as root on a machine with a tablet, auto would grab the real pen
# under valgrind, and the list would depend on that machine.
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
    "$work/stylusd" --socket "$work/s.sock" --output observe >"$work/log" 2>&1 &
daemon=$!
# Under valgrind the start takes seconds: wait for the socket, bounded.
tries=0
until [ -S "$work/s.sock" ]; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ] || ! kill -0 $daemon 2>/dev/null; then
        echo "tools/startup-order.sh: the daemon did not start under valgrind; its output:" >&2
        cat "$work/log" >&2
        exit 1
    fi
    sleep 0.1
done
python3 - "$work/s.sock" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(60)   # a daemon stalled under valgrind fails the script instead of hanging it
s.connect(sys.argv[1])
f = s.makefile("rb")
f.readline()                      # hello
s.sendall(b'{"id":1,"cmd":"status"}\n')
f.readline()
EOF
kill -TERM $daemon
wait $daemon || true
# callgrind names a function once ("fn=(N) name") and by number after; keep
# those run inside the daemon's own object, without recursion marks ('2).
python3 - "$work/callgrind.out" "$work/stylusd" >"$work/order" <<'EOF'
import re, sys
objects, names, current, ran = {}, {}, None, []
for line in open(sys.argv[1]):
    m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        kind, number, name = m.groups()
        if name:
            objects[number] = name
        if kind == "ob":
            current = objects.get(number)
        continue
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        kind, number, name = m.groups()
        if name:
            names[number] = name
        if kind == "fn" and current == sys.argv[2]:
            ran.append(number)
symbols = {names[n].split("'")[0] for n in ran}
for symbol in sorted(s for s in symbols if not s.startswith("0x") and s != "(below main)"):
    print(symbol)
EOF
# Replaced only by a complete list: an empty one would still link, quietly.
[ -s "$work/order" ] || { echo "tools/startup-order.sh: callgrind listed no function of the daemon" >&2; exit 1; }
mv "$work/order" "$out"
echo "$(wc -l <"$out") functions written to $out"
