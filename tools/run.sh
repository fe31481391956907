#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run`: the daemon from the build folder, in the foreground (Ctrl-C
# stops it). Without a login session (XDG_RUNTIME_DIR unset: root on a
# console, ssh as root, a container) the socket goes into a private 0700
# folder under the build folder. Once the daemon answers, the commands to
# try next are printed with paths that work from any folder.
set -eu
cd "$(dirname "$0")/.."
bin=$(pwd)/.build-static/release
if [ -z "${XDG_RUNTIME_DIR:-}" ] && [ -z "${STYLUSD_SOCKET:-}" ]; then
    XDG_RUNTIME_DIR=$(pwd)/.build/run
    mkdir -p "$XDG_RUNTIME_DIR"
    chmod 0700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
    echo "make run: XDG_RUNTIME_DIR is not set (no login session); using $XDG_RUNTIME_DIR (0700) for the socket and the state" >&2
    # The state beside the socket: not the state file of a daemon installed as a service.
    set -- --state-file "$XDG_RUNTIME_DIR/stylusd/state.json" "$@"
fi
socket=${STYLUSD_SOCKET:-$XDG_RUNTIME_DIR/stylusd/stylusd.sock}
case $socket in /*) ;; *) socket=$(pwd)/$socket ;; esac
export STYLUSD_SOCKET="$socket"
# Said once, before any hint: the hint below would otherwise find the other daemon answering.
if "$bin/stylusctl" status >/dev/null 2>&1; then
    echo "make run: cannot start: a stylusd already answers on $socket; stop it first (Ctrl-C in its terminal, or systemctl --user stop stylusd)" >&2
    exit 1
fi

# export and submit draw their PNGs with the canvas's renderer: the one built here
# (make overlay; make run builds it where there is a display), not one installed.
canvas=$(pwd)/Overlay/.build-static/release/stylus-canvas
if [ -z "${STYLUSD_RENDERER:-}" ] && [ -x "$canvas" ]; then
    export STYLUSD_RENDERER="$canvas"
fi

# A watcher that prints the next steps once the daemon answers; it gives
# up when the daemon (this shell's pid after exec) is gone. Started twice
# removed, so that it is not left a zombie child of the daemon.
daemon=$$
( (
    tries=0
    while [ $tries -lt 600 ] && kill -0 "$daemon" 2>/dev/null; do
        if "$bin/stylusctl" status >/dev/null 2>&1; then
            ctl="STYLUSD_SOCKET=$socket $bin/stylusctl"
            cat >&2 <<HINT

make run: stylusd is ready. In another terminal, try:
  $ctl status
  $ctl toggle
  $ctl watch
Ctrl-C here stops the daemon.
HINT
            exit 0
        fi
        sleep 0.1
        tries=$((tries + 1))
    done
) & )
# The canvas overlay, where there is a display and it is built (make run
# builds it then); started twice removed like the watcher, in this process
# group, so Ctrl-C stops it with the daemon. It waits for the socket itself.
# A daemon that ends by itself (a crash, a kill) ends make run too, and the
# overlay would stay behind, reconnecting: a guard stops it once the daemon is gone.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$canvas" ]; then
    echo "make run: starting the canvas overlay ($canvas)" >&2
    ( (
        "$canvas" &
        overlay=$!
        while kill -0 "$daemon" 2>/dev/null && kill -0 "$overlay" 2>/dev/null; do
            sleep 0.5
        done
        kill "$overlay" 2>/dev/null
        wait "$overlay"
    ) & )
fi
exec "$bin/stylusd" "$@"
