#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian 13 (trixie) root that today's desktops run in for make test-desktops:
# GNOME Shell 48, sway 1.10, KWin 6, with what the canvas suites need inside them.
# Built once with mmdebstrap from this machine's Debian mirror and cached outside the
# tree; built again only when it is missing or when the list below changes (the
# list's hash is kept inside the root). Built into a folder beside it and renamed at
# the end, so that a root is never half-built. Only root can build it (mmdebstrap
# in root mode): anyone else is told why and gets status 1.
# Prints the root's path on stdout.
#   Tests/desktops/trixie_root.sh [--check]   (--check: say whether it is cached, build nothing)
# STYLUS_DESKTOPS_ROOT: the root's path instead of the default cache.
set -eu
suite=trixie
# The suites run the release builds of this machine (Debian 12) inside: the
# libraries stylus-canvas links (GLib, cairo, xcb, wayland-client) come with GNOME
# Shell and sway (libxcb-imdkit1, the XIM client, is named). No compiler: the small Wayland clients of the layer-shell suite are built on the host.
packages="gnome-shell gjs mutter dbus dbus-user-session libglib2.0-bin python3 python3-gi gir1.2-gtk-4.0 foot
sway grim wtype xwayland kwin-wayland imagemagick libinput10 libevdev2 libwacom9 libgl1-mesa-dri
fonts-dejavu-core util-linux mount libxcb-imdkit1"

if [ -n "${STYLUS_DESKTOPS_ROOT:-}" ]; then
    root=$STYLUS_DESKTOPS_ROOT
elif [ "$(id -u)" = 0 ]; then
    root=/var/cache/stylusd-test/$suite
else
    root=${XDG_CACHE_HOME:-$HOME/.cache}/stylusd-test/$suite
fi

# The mirror apt uses here (deb822 or one-line sources), not the security one.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

stamp_file=etc/stylusd-test-root
stamp=$(printf '%s\n' "$suite" "$mirror" $packages | sha256sum | cut -c1-16)
if [ "$(cat "$root/$stamp_file" 2>/dev/null)" = "$stamp" ]; then
    echo "$root"
    exit 0
fi
if [ "${1:-}" = --check ]; then
    echo "trixie_root.sh: no $suite root of this package list at $root" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    if [ -d "$root" ]; then why="the cached $suite root at $root was built from another package list"; else why="no $suite root is cached at $root"; fi
    echo "trixie_root.sh: $why, and only root can build one (mmdebstrap): run sudo make test-desktops (or sudo make test)" >&2
    exit 1
fi
command -v mmdebstrap >/dev/null || { echo "trixie_root.sh: mmdebstrap is not installed: make deps-ci installs it" >&2; exit 1; }

parent=$(dirname "$root")
mkdir -p "$parent"
building=$(mktemp -d "$parent/.$(basename "$root").building.XXXXXX")
# --one-file-system: never into what mmdebstrap may have left mounted there (/proc, /dev)
trap 'rm -rf --one-file-system "$building"' EXIT INT TERM
started=$(date +%s)
echo "trixie_root.sh: building the $suite root from $mirror into $root" >&2
# apt's temporary files under /tmp can vanish while other jobs clean it: a folder of its own.
TMPDIR=$building.tmp
mkdir -p "$TMPDIR"
export TMPDIR
if ! mmdebstrap --quiet --variant=apt --include="$(echo $packages | tr ' ' ',')" "$suite" "$building" "$mirror" >&2; then
    rm -rf "$TMPDIR"
    echo "trixie_root.sh: mmdebstrap failed: no root built" >&2
    exit 1
fi
rm -rf "$TMPDIR"
echo "$stamp" > "$building/$stamp_file"
chmod 755 "$building"
if [ -e "$root" ]; then
    mv "$root" "$building.old"
fi
mv "$building" "$root"
rm -rf --one-file-system "$building.old"
trap - EXIT INT TERM
echo "trixie_root.sh: built in $(( $(date +%s) - started )) s ($(du -sh "$root" | cut -f1))" >&2
echo "$root"
