#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: a recorded pen session drives a live stylusd, and its events
# are shown as a client sees them (stylusctl watch), once, in one format.
# The demo has its own socket, state and configuration under .build/demo/,
# so a real daemon and the user's canvas are never touched, and it starts
# from an empty canvas every time. Ctrl-C stops the watcher and the daemon.
# Extra arguments go to stylusd (e.g. --speed 4).
set -eu
cd "$(dirname "$0")/.."
bin=$(pwd)/.build-static/release
demo=$(pwd)/.build/demo
recording=Tests/Fixtures/recordings/Wacom_Cintiq_22HDT_Pen.events
mkdir -p "$demo"
chmod 0700 "$demo"
rm -f "$demo/state.json" "$demo/stylusd.log"
socket=$demo/stylusd.sock
ctl="STYLUSD_SOCKET=$socket $bin/stylusctl"

# submit draws its PNG with the canvas's renderer: the one built here, as in make run.
canvas=$(pwd)/Overlay/.build-static/release/stylus-canvas
if [ -z "${STYLUSD_RENDERER:-}" ] && [ -x "$canvas" ]; then
    export STYLUSD_RENDERER="$canvas"
fi

# No configuration file of the user's: the defaults.
XDG_CONFIG_HOME=$demo/config "$bin/stylusd" --replay "$recording" --loop --socket "$socket" \
    --state-file "$demo/state.json" "$@" >/dev/null 2>"$demo/stylusd.log" &
daemon=$!
overlay=
stop() {
    trap - INT TERM EXIT
    [ -z "$overlay" ] || kill -TERM "$overlay" 2>/dev/null || true
    kill -TERM "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
    [ -z "$overlay" ] || wait "$overlay" 2>/dev/null || true
    echo "make demo: stopped; the daemon's log is $demo/stylusd.log" >&2
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

tries=0
until STYLUSD_SOCKET=$socket "$bin/stylusctl" status >/dev/null 2>&1; do
    if ! kill -0 "$daemon" 2>/dev/null || [ $tries -ge 100 ]; then
        cat "$demo/stylusd.log" >&2
        echo "make demo: stylusd did not start (above: its log)" >&2
        exit 1
    fi
    sleep 0.1
    tries=$((tries + 1))
done
# The recording's double presses open and minimize the canvas: shown where there is a
# display and the canvas is built (make demo builds it then), as make run shows it.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$canvas" ]; then
    echo "make demo: starting the canvas overlay ($canvas; its log is $demo/stylus-canvas.log)" >&2
    STYLUSD_SOCKET=$socket "$canvas" >/dev/null 2>"$demo/stylus-canvas.log" &
    overlay=$!
fi
# The recording's pen is added as its replay starts: the watcher's first line then says pen, as status does.
tries=0
while [ $tries -lt 30 ] && ! STYLUSD_SOCKET=$socket "$bin/stylusctl" status | grep -q '^input *pen'; do
    sleep 0.1
    tries=$((tries + 1))
done
cat >&2 <<TEXT
make demo: a recorded Wacom Cintiq 22HDT session (81 s, in a loop) drives stylusd: its
side-button double presses open and minimize the canvas, and its strokes are kept.
Its own socket, state and log are in $demo/; your canvas is untouched.
From another terminal:  $ctl status
Canvas and double-press events follow. Ctrl-C stops the demo.

TEXT
STYLUSD_SOCKET=$socket "$bin/stylusctl" watch canvas double-press
