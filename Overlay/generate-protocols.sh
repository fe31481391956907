#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the Wayland protocol glue stylus-canvas's layer-shell canvas is built
# with into Sources/CWayland/generated/: wayland-scanner (libwayland-bin) over
# the protocols' XML as Debian 12 ships it, xdg-shell, xdg-output, viewporter
# and fractional-scale from wayland-protocols, wlr-layer-shell from
# librust-wayland-protocols-dev (a data file there; no Rust involved), and
# wlr-screencopy from the same place, for snapshots on wlroots; tablet-v2 from
# wayland-protocols, bound so that the compositor sends the pen as tablet events;
# wlr-data-control from the wlr folder, for the clipboard on wlroots;
# text-input-v3 from wayland-protocols, for the text tool's input method.
# `make overlay` runs it; it regenerates only what is missing or older than its XML.
set -eu
out="$(dirname "$0")/Sources/CWayland/generated"
shared=/usr/share/wayland-protocols
wlr=$(ls -d /usr/share/cargo/registry/wayland-protocols-*/wlr-protocols/unstable 2>/dev/null | sort -V | tail -n 1)
[ -n "$wlr" ] || { echo "generate-protocols.sh: the wlr-layer-shell protocol XML is missing: install librust-wayland-protocols-dev" >&2; exit 1; }
command -v wayland-scanner >/dev/null || { echo "generate-protocols.sh: wayland-scanner is missing: install libwayland-bin" >&2; exit 1; }
mkdir -p "$out"
for xml in "$shared/stable/xdg-shell/xdg-shell.xml" \
           "$shared/unstable/xdg-output/xdg-output-unstable-v1.xml" \
           "$shared/stable/viewporter/viewporter.xml" \
           "$shared/staging/fractional-scale/fractional-scale-v1.xml" \
           "$shared/unstable/tablet/tablet-unstable-v2.xml" \
           "$shared/unstable/text-input/text-input-unstable-v3.xml" \
           "$wlr/wlr-layer-shell-unstable-v1.xml" \
           "$wlr/wlr-screencopy-unstable-v1.xml" \
           "$wlr/wlr-data-control-unstable-v1.xml"; do
    [ -r "$xml" ] || { echo "generate-protocols.sh: $xml is missing: install wayland-protocols" >&2; exit 1; }
    name=$(basename "$xml" .xml)
    if [ ! -e "$out/$name-protocol.c" ] || [ "$xml" -nt "$out/$name-protocol.c" ]; then
        wayland-scanner client-header "$xml" "$out/$name-client-protocol.h"
        wayland-scanner private-code "$xml" "$out/$name-protocol.c"
    fi
done
