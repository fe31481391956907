#!/bin/bash
# SPDX-License-Identifier: MIT
# Today's desktops for make test-desktops: the canvas suites inside the Debian 13 root
# of trixie_root.sh, with this machine's release builds (static Swift runtime; GTK 4,
# the compositors and the Shell are the root's):
#   gnome  GNOME Shell 48 with the 45 variant of the extension (gnome_shell_test.py)
#   sway   sway 1.10 (layer_shell_test.py, scale 1 and the 1.5 check)
#   kwin   KWin 6 nested in sway (kwin_test.py)
#   deb48  the Debian 12 .deb (STYLUS_DEB, or the one make deb left in .build-deb) installed
#          by dpkg in a throwaway overlay over the root (install_deb.sh checks the selected
#          variant and the trigger), then gnome_shell_test.py's extension tests on what it
#          installed: /usr/bin's programs and the system-wide extension GNOME 48 finds itself
# The root gets /proc, /sys, /dev, /dev/pts, /dev/shm, the repository read-only at
# /work/repo and a scratch folder as its /tmp and /var/tmp, in a mount namespace of
# this run's own, unmounted at the end. The suites run as root in it and drop to
# `nobody` themselves (compositors refuse root; stylusd refuses another user).
#   bench-sway   bench/layer_shell_bench.py on sway 1.10 (its probe built here)
#   bench-gnome  bench/gnome_bench.py on GNOME Shell 48 with the 45 variant
#   bench-kwin   bench/layer_shell_bench.py --compositor kwin: the canvas on KWin 6 nested in sway 1.10
#                (started as kwin_test.py starts it), seen by grim and the probe on the outer sway
#   (the benches are never run by default and never fail the run: make bench-desktops)
#   Tests/desktops/run.sh [gnome] [sway] [kwin] [deb48] [bench-sway] [bench-gnome] [bench-kwin]
#                                                             (the four suites when none is named)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
suites=${*:-gnome sway kwin deb48}

if [ "$(id -u)" != 0 ]; then
    echo "desktops: the suites run in a chroot with bind mounts, which needs root: sudo make test-desktops (or sudo make test)" >&2
    exit 1
fi
for f in .build-static/release/stylusd .build-static/release/stylusctl Overlay/.build-static/release/stylus-canvas \
         .build-gnome/45/stylus-canvas@stylusd/extension.js; do
    [ -e "$repo/$f" ] || { echo "desktops: $f is not built: make release overlay gnome-extension" >&2; exit 1; }
done
# Without the package deb48 fails with the reason; the other suites still run.
deb=${STYLUS_DEB:-$(ls -t "$repo"/.build-deb/stylusd_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -n 1 || true)}
root=$("$repo/Tests/desktops/trixie_root.sh")
grep -q '^nobody:x:65534:65534:' "$root/etc/passwd" || { echo "desktops: the root has no nobody (65534)" >&2; exit 1; }

scratch=$(mktemp -d /var/tmp/stylus-desktops.XXXXXX)
cleanup() { rm -rf "$scratch"; }
trap cleanup EXIT
mkdir -m 1777 "$scratch/tmp" "$scratch/vartmp"
if [[ " $suites " == *" deb48 "* ]] && [ -f "$deb" ]; then cp "$deb" "$scratch/vartmp/stylusd.deb"; fi
# The layer-shell suite's small Wayland clients, built here: the root has no compiler.
python3 "$repo/Tests/overlay/layer_shell_test.py" --build-tools "$scratch/vartmp/tools" >/dev/null
# and the layer-shell bench's screencopy probe next to them.
if [[ " $suites " == *" bench-sway "* || " $suites " == *" bench-kwin "* ]]; then
    python3 "$repo/bench/layer_shell_bench.py" --build-tools "$scratch/vartmp/tools" >/dev/null
fi

# Inside a mount namespace of its own: whatever happens, the mounts end with it.
inner=$(cat <<'INNER'
set -uo pipefail
repo=$1 root=$2 scratch=$3
shift 3
mounted=()
unmount() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null; done
}
trap unmount EXIT
bind() {   # SOURCE TARGET [ro]
    mkdir -p "$2"
    mount --bind "$1" "$2" && mounted+=("$2") || exit 1
    if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2" || exit 1; fi
}
enter() {   # ROOT: what the suites need mounted in it
    mount -t proc proc "$1/proc" && mounted+=("$1/proc") || exit 1
    for d in /sys /dev /dev/pts /dev/shm; do bind "$d" "$1$d"; done
    bind "$repo" "$1/work/repo" ro
    bind "$scratch/tmp" "$1/tmp"
    bind "$scratch/vartmp" "$1/var/tmp"
}
enter "$root"
current=$root

inside() {   # the command in the current root, as root, with a clean environment
    chroot "$current" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 HOME=/root \
        PYTHONDONTWRITEBYTECODE=1 ${OVERLAY_LOG:+OVERLAY_LOG=$OVERLAY_LOG} "$@"
}
bins=(--bin /work/repo/.build-static/release --canvas /work/repo/Overlay/.build-static/release/stylus-canvas --tools /var/tmp/tools)
status=0
for suite in "$@"; do
    started=$SECONDS
    current=$root
    case $suite in
    deb48)
        if [ ! -f "$scratch/vartmp/stylusd.deb" ]; then
            echo "desktops: deb48 needs the package: make deb (or STYLUS_DEB=FILE)" >&2; status=1; continue
        fi
        # Over the cached root, with its writes in the scratch folder: the cached root stays as built.
        current=$scratch/deb48/root
        mkdir -p "$scratch/deb48/upper" "$scratch/deb48/work" "$current"
        if ! mount -t overlay overlay -o "lowerdir=$root,upperdir=$scratch/deb48/upper,workdir=$scratch/deb48/work" "$current"; then
            echo "desktops: deb48: no overlay mount over $root here" >&2; status=1; continue
        fi
        mounted+=("$current")
        enter "$current"
        if "$repo/Tests/desktops/install_deb.sh" "$current" /var/tmp/stylusd.deb; then
            echo "desktops: $(inside gnome-shell --version) with what the package installed"
            inside python3 /work/repo/Tests/overlay/gnome_shell_test.py --bin /usr/bin --canvas /usr/bin/stylus-canvas --tools /var/tmp/tools \
                --extension /usr/share/gnome-shell/extensions/stylus-canvas@stylusd --system-wide --only extension || status=1
        else
            status=1
        fi
        if grep -q '^Package: stylusd$' "$root/var/lib/dpkg/status"; then
            echo "desktops: deb48 installed the package in the cached root $root itself" >&2; status=1
        fi ;;
    gnome)
        echo "desktops: $(inside gnome-shell --version) with the 45 variant of the extension"
        inside python3 /work/repo/Tests/overlay/gnome_shell_test.py "${bins[@]}" \
            --extension /work/repo/.build-gnome/45/stylus-canvas@stylusd || status=1 ;;
    sway)
        echo "desktops: $(inside sway --version)"
        inside python3 /work/repo/Tests/overlay/layer_shell_test.py "${bins[@]}" || status=1 ;;
    kwin)
        echo "desktops: $(inside sh -c 'kwin_wayland --version 2>/dev/null || dpkg-query -W kwin-wayland')"
        inside python3 /work/repo/Tests/desktops/kwin_test.py "${bins[@]}" || status=1 ;;
    bench-kwin)
        echo "desktops: bench-kwin: KWin $(inside dpkg-query -W -f '${Version}' kwin-wayland) nested in $(inside sway --version); host: $(uptime)"
        inside python3 /work/repo/bench/layer_shell_bench.py "${bins[@]}" --compositor kwin \
            || echo "desktops: bench-kwin: NOT MEASURED: the bench exited with $?" ;;
    bench-sway|bench-gnome)
        # A benchmark says what it could not measure; it never fails the run.
        echo "desktops: $suite: $(inside sh -c 'sway --version; gnome-shell --version' 2>/dev/null | grep -i "${suite#bench-}"); host: $(uptime)"
        if [ "$suite" = bench-sway ]; then
            inside python3 /work/repo/bench/layer_shell_bench.py "${bins[@]}"
        else
            inside python3 /work/repo/bench/gnome_bench.py "${bins[@]:0:4}" --extension /work/repo/.build-gnome/45/stylus-canvas@stylusd
        fi || echo "desktops: $suite: NOT MEASURED: the bench exited with $?" ;;
    *)
        echo "desktops: no suite $suite (gnome, sway, kwin, deb48, bench-sway, bench-gnome, bench-kwin)" >&2; status=1; continue ;;
    esac
    echo "desktops: $suite took $((SECONDS - started)) s"
done
exit $status
INNER
)
status=0
unshare --mount --propagation private /bin/bash -c "$inner" inner "$repo" "$root" "$scratch" $suites </dev/null || status=$?
exit $status
