#!/bin/bash
# SPDX-License-Identifier: MIT
# Tests/deb/test_deb.sh DEB: the package on a clean Debian 12 root, as a
# Debian user would meet it (`make test-deb`).
#
# The root is a minbase bookworm made by mmdebstrap, plus systemd (every
# Debian 12 system has it; systemd-analyze comes with it), kept as a tarball
# under .build-deb/ and unpacked afresh for each run. Inside it: dpkg -i, then
# apt-get -f install pulls the Depends from the archive; the programs run
# (--version, probe, a daemon answering stylusctl, the overlay's --help),
# systemd-analyze verifies the installed user units, and dpkg -r then dpkg -P
# leave nothing of the package behind.
#
# Needs root (chroot, mounts) and the Debian archive. Without the archive and
# without a cached root it prints SKIPPED and the reason; once the archive
# answers, any failure is a failure.
set -euo pipefail
self=$(realpath "$0")

if [ "${1:-}" = --inside ]; then
    inside=1
    shift
else
    inside=0
fi
deb=$(realpath "${1:?usage: Tests/deb/test_deb.sh DEB}")
cd "$(dirname "$self")/../.."
work=$(realpath -m "${DEB_TEST_DIR:-.build-deb}")
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
security=${DEB_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# The name says what is in it: another recipe gets another tarball.
tarball=$work/bookworm-minbase-systemd.tar
root=$work/root
archives=$work/apt-archives

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "  ok: $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL: $*"; }
# A step everything after it needs: its failure ends the test.
fatal() { echo "  FAIL: $*"; echo "test-deb: $passed passed, $((failed + 1)) failed"; exit 1; }
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

if [ $inside = 1 ]; then
    trap 'echo "test-deb: stopped by a failing command at line $LINENO of $self"' ERR
    # A private mount namespace (see below): these mounts end with it.
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --bind "$archives" "$root/var/cache/apt/archives"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    version=$(dpkg-deb -f "$deb" Version)
    cp "$deb" "$root/tmp/stylusd.deb"

    echo "test-deb: installing $(basename "$deb") on a clean Debian 12 root ($root)"
    in_root apt-get update -qq >/dev/null || fatal "apt-get update in the root"
    # dpkg -i stops at the missing libraries (libinput10, cairo ...); apt
    # installs them from the archive and finishes the configuration.
    in_root dpkg -i /tmp/stylusd.deb >"$work/dpkg-i.log" 2>&1 || true
    in_root env DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq --no-install-recommends >"$work/apt-f-install.log" 2>&1 \
        || fatal "apt-get -f install (see $work/apt-f-install.log)"
    # apt resolves a Depends it cannot satisfy by removing the package.
    status=$(in_root dpkg-query -W -f='${Status}' stylusd 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || fatal "after apt-get -f install, stylusd is '$status' (see $work/apt-f-install.log)"
    pass "dpkg -i + apt-get -f install: installed, $(grep -c '^Unpacking' "$work/apt-f-install.log" || true) packages pulled in by Depends"

    missing=$(in_root ldd /usr/bin/stylusd /usr/bin/stylusctl /usr/bin/stylus-canvas | grep 'not found' | paste -sd ' ' || true)
    [ -z "$missing" ] && pass "every shared library of the three programs is there" || fail "libraries not found: $missing"

    for program in stylusd stylusctl; do
        out=$(in_root $program --version 2>&1) && [ "$out" = "$version" ] \
            && pass "$program --version: $out" || fail "$program --version said '$out', not $version"
    done

    out=$(in_root stylusd probe 2>&1) && [ -n "$out" ] && pass "stylusd probe: ${out%%$'\n'*}" \
        || fail "stylusd probe: '$out'"

    # stylusctl parses config.toml in a child that is the installed stylusd
    # (`stylusd parse-config-child`; no parser program of its own): the
    # example passes, a duplicate key is named by its line.
    if out=$(in_root stylusctl config check /usr/share/doc/stylusd/examples/config.toml 2>&1); then
        pass "stylusctl config check, the packaged example: ${out##*/}"
    else
        fail "stylusctl config check of the packaged example: '$out'"
    fi
    printf 'interval_ms = 300\ninterval_ms = 400\n' >"$root/tmp/bad.toml"
    if out=$(in_root stylusctl config check /tmp/bad.toml 2>&1); then
        fail "stylusctl config check accepted a key set twice: '$out'"
    elif [[ $out == *"/tmp/bad.toml:2: "* ]]; then
        pass "stylusctl config check names a bad file's line: $out"
    else
        fail "stylusctl config check of a bad file: '$out'"
    fi

    # The installed daemon answers the installed client (no seat here: it
    # runs button-only).
    in_root mkdir -p /tmp/run
    # Not through in_root: a function in the background is a subshell, and $!
    # would be that shell; chroot and env exec, so $! is the daemon itself and
    # the kill below stops it (it outlived the test on the CI machine before).
    # Its state file goes to /tmp/run: a user's state under $HOME is the
    # user's, which the purge check below must not find.
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 XDG_STATE_HOME=/tmp/run \
        stylusd --socket /tmp/run/stylusd.sock >"$work/daemon.log" 2>&1 &
    daemon=$!
    for _ in $(seq 100); do [ -S "$root/tmp/run/stylusd.sock" ] && break; sleep 0.1; done
    if out=$(in_root stylusctl status --socket /tmp/run/stylusd.sock 2>&1); then
        pass "stylusctl status against the installed daemon: ${out%%$'\n'*}"
    else
        fail "stylusctl status: '$out' (daemon log: $work/daemon.log)"
    fi
    kill -TERM $daemon 2>/dev/null || true
    wait $daemon 2>/dev/null || true
    if pgrep -f "stylusd --socket /tmp/run/stylusd.sock" >/dev/null; then
        fail "the installed daemon still runs after SIGTERM"
    else
        pass "the installed daemon stopped on SIGTERM"
    fi

    # The overlay starts far enough to parse its options: cairo, GLib and the rest
    # are loaded by then. Its man page (written by hand) names every option.
    if usage=$(in_root stylus-canvas --help 2>&1); then
        page=$(in_root sh -c 'zcat /usr/share/man/man1/stylus-canvas.1.gz' | tr -d '\\')
        undocumented=$(grep -o -- '--[a-z-]*' <<<"$usage" | sort -u | while read -r option; do
            grep -q -- "$option" <<<"$page" || echo "$option"; done | paste -sd ' ')
        [ -z "$undocumented" ] && pass "stylus-canvas --help runs; its man page names every option" \
            || fail "stylus-canvas.1 lacks: $undocumented"
    else
        fail "stylus-canvas --help: $usage"
    fi

    in_root gzip -t /usr/share/man/man1/{stylusd,stylusctl,stylus-canvas}.1.gz /usr/share/man/man5/stylusd.toml.5.gz \
        && pass "man pages for stylusd, stylusctl, stylus-canvas and stylusd.toml" || fail "a man page is missing or broken"

    # GNOME Shell looks for system extensions in /usr/share/gnome-shell/extensions/UUID,
    # and loads one only when its metadata names the running GNOME. The package
    # carries both variants; its postinst copies there the one the installed
    # GNOME Shell loads, none without GNOME Shell (this root has none), and a
    # file trigger on /usr/bin/gnome-shell selects again when gnome-shell changes.
    ext=/usr/share/gnome-shell/extensions/stylus-canvas@stylusd
    variants=/usr/share/stylusd/gnome-extension
    if in_root grep -q '"43", "44"' $variants/43/stylus-canvas@stylusd/metadata.json \
        && in_root grep -q '"45", "46", "47", "48"' $variants/45/stylus-canvas@stylusd/metadata.json \
        && in_root test -s $variants/43/stylus-canvas@stylusd/extension.js && in_root test -s $variants/45/stylus-canvas@stylusd/extension.js; then
        pass "both GNOME Shell extension variants are in $variants (43-44 and 45-48)"
    else
        fail "the GNOME Shell extension variants in $variants are missing or list other versions"
    fi
    if in_root test -e $ext; then
        fail "without gnome-shell the postinst put $ext in place: $(in_root cat $ext/metadata.json | tr -d '\n')"
    else
        pass "no gnome-shell in the root: no extension selected into $ext"
    fi
    # A stand-in gnome-shell package (only /usr/bin/gnome-shell, which prints
    # the version): installed as 43, upgraded to 48 (Debian 12 to 13), removed
    # (the copy goes with GNOME) and installed again, and the selected copy each
    # time; it stays installed for the removal checks below.
    selected() { { in_root cat $ext/metadata.json 2>/dev/null || true; } | sed -n 's/.*"shell-version": *\[\(.*\)\].*/\1/p' | tr -d '" '; }
    for shell_version in 43.9 48.7 removed 48.7; do
        if [ $shell_version = removed ]; then
            in_root dpkg -r gnome-shell >"$work/dpkg-gnome-shell.log" 2>&1 || fatal "dpkg -r the stand-in gnome-shell (see $work/dpkg-gnome-shell.log)"
            if ! in_root test -e $ext && grep -q 'Processing triggers for stylusd' "$work/dpkg-gnome-shell.log"; then
                pass "gnome-shell removed: the trigger removed the selected copy"
            else
                fail "gnome-shell removed: $ext lists '$(selected)' (see $work/dpkg-gnome-shell.log)"
            fi
            continue
        fi
        fake=$work/gnome-shell-standin
        rm -rf "$fake"
        mkdir -p "$fake/DEBIAN" "$fake/usr/bin"
        printf 'Package: gnome-shell\nVersion: %s+standin\nArchitecture: all\nMaintainer: stylusd tests <dev@stylusd.invalid>\nDescription: stand-in for the trigger test\n' \
            "$shell_version" >"$fake/DEBIAN/control"
        printf '#!/bin/sh\necho "GNOME Shell %s"\n' "$shell_version" >"$fake/usr/bin/gnome-shell"
        chmod 755 "$fake/usr/bin/gnome-shell"
        dpkg-deb --root-owner-group --build "$fake" "$root/tmp/gnome-shell.deb" >/dev/null
        in_root dpkg -i /tmp/gnome-shell.deb >"$work/dpkg-gnome-shell.log" 2>&1 || fatal "dpkg -i the stand-in gnome-shell $shell_version (see $work/dpkg-gnome-shell.log)"
        want=$([ "${shell_version%%.*}" -ge 45 ] && echo 45,46,47,48 || echo 43,44)
        got=$(selected)
        if [ "$got" = "$want" ] && grep -q 'Processing triggers for stylusd' "$work/dpkg-gnome-shell.log"; then
            pass "gnome-shell $shell_version installed: the trigger selected the variant for GNOME $got"
        else
            fail "gnome-shell $shell_version installed: $ext lists '$got', not $want (see $work/dpkg-gnome-shell.log)"
        fi
    done

    # systemd-analyze reads the unit files where dpkg put them, checks every
    # key and that each ExecStart exists and is executable (a user manager's
    # paths: it needs a runtime directory). Any warning fails too.
    units=(/usr/lib/systemd/user/stylusd.service /usr/lib/systemd/user/stylusd.socket /usr/lib/systemd/user/stylus-canvas.service)
    in_root install -d -m700 /run/user/0
    if out=$(in_root env XDG_RUNTIME_DIR=/run/user/0 systemd-analyze --user verify "${units[@]}" 2>&1) && [ -z "$out" ]; then
        pass "systemd-analyze --user verify: ${units[*]##*/}"
    else
        fail "systemd-analyze --user verify: $out"
    fi
    # verify passes when a command exists by chance (a dependency might
    # happen to bring procps): each one must be the package's own or come
    # from a package it depends on.
    depends=$(in_root dpkg-query -W -f='${Depends}' stylusd | sed 's/ *([^)]*)//g; s/, */\n/g')
    unowned=$(in_root sh -c 'sed -n "s/^Exec[A-Za-z]*=[-@!+:]*\([^ ]*\).*/\1/p" "$@"' sh "${units[@]}" | sort -u | while read -r command; do
        owner=$(in_root dpkg -S "$command" 2>/dev/null | cut -d: -f1 || true)
        if [ "$owner" != stylusd ] && ! grep -qxF "$owner" <<<"$depends"; then echo "$command (${owner:-no package})"; fi
    done | paste -sd ' ')
    [ -z "$unowned" ] && pass "every command the units run is the package's or a dependency's" \
        || fail "the units run commands that no dependency provides: $unowned"
    enabled=$(in_root systemctl --global is-enabled stylusd.socket 2>&1 || true)
    [ "$enabled" = enabled ] && pass "the postinst enabled stylusd.socket for every user" \
        || fail "systemctl --global is-enabled stylusd.socket: $enabled"

    # What dpkg installed, to look for after removal (files and links, not
    # the folders it shares with other packages).
    in_root dpkg -L stylusd | while read -r path; do
        if [ -L "$root$path" ] || [ ! -d "$root$path" ]; then echo "$path"; fi
    done >"$work/installed-files"
    conffiles=$(dpkg-deb --info "$deb" conffiles)

    in_root dpkg -r stylusd >"$work/dpkg-r.log" 2>&1 || fatal "dpkg -r stylusd (see $work/dpkg-r.log)"
    status=$(in_root dpkg-query -W -f='${Status}' stylusd 2>/dev/null || true)
    left=$(while read -r path; do
        if ! grep -qxF "$path" <<<"$conffiles" && { [ -e "$root$path" ] || [ -L "$root$path" ]; }; then echo "$path"; fi
    done <"$work/installed-files" | paste -sd ' ')
    if in_root test -e $ext; then left="$left $ext (the selected GNOME extension)"; fi
    if [ "$status" = "deinstall ok config-files" ] && [ -z "$left" ]; then
        pass "dpkg -r: none of its $(wc -l <"$work/installed-files") files and links left but the conffile, nor the selected GNOME extension"
    else
        fail "dpkg -r left status '$status' and files: $left"
    fi

    in_root dpkg -P stylusd >"$work/dpkg-p.log" 2>&1 || fatal "dpkg -P stylusd (see $work/dpkg-p.log)"
    # Anything named after the package, anywhere: its files, the units'
    # enablement links, deb-systemd-helper's state.
    left=$(cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./tmp -o -path ./var/cache/apt \) -prune \
        -o -iname '*stylus*' -print | cut -c2- | while read -r path; do
            # Another package's file (libwacom's stylus database) is not a leftover.
            if ! in_root dpkg -S "$path" >/dev/null 2>&1; then echo "$path"; fi
        done | paste -sd ' ')
    status=$(in_root dpkg-query -W -f='${Status}' stylusd 2>/dev/null || true)
    if [ -z "$left" ] && { [ -z "$status" ] || [ "$status" = "unknown ok not-installed" ]; }; then
        pass "dpkg -P: nothing of the package left in the root (no file named stylus* that no package owns)"
    else
        fail "dpkg -P left status '$status' and: $left"
    fi

    echo "test-deb: $passed passed, $failed failed"
    if [ $failed != 0 ]; then exit 1; fi
    exit 0
fi

[ "$(id -u)" = 0 ] || { echo "test-deb: SKIPPED: a chroot needs root"; exit 0; }
[ -f "$deb" ] || { echo "test-deb: no package at $deb (make deb builds it)" >&2; exit 1; }
mkdir -p "$work" "$archives"
start=$SECONDS

if [ ! -f "$tarball" ]; then
    # Only an unreachable archive is a reason to skip.
    if ! python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=20)' \
        "$mirror/dists/bookworm/Release" 2>/dev/null; then
        echo "test-deb: SKIPPED: the Debian archive ($mirror) does not answer, and there is no cached root ($tarball)"
        exit 0
    fi
    command -v mmdebstrap >/dev/null || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
    } || { echo "test-deb: could not install mmdebstrap" >&2; exit 1; }
    echo "test-deb: making a clean Debian 12 root (mmdebstrap minbase + systemd, a few minutes, once)"
    mmdebstrap --quiet --format=tar --variant=minbase --include=systemd bookworm "$tarball.part" \
        "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main" \
        || { echo "test-deb: mmdebstrap failed" >&2; exit 1; }
    mv "$tarball.part" "$tarball"
    echo "test-deb: root made in $((SECONDS - start)) s, kept as $tarball"
fi

rm -rf "$root"
mkdir -p "$root"
tar -xpf "$tarball" --numeric-owner -C "$root"
# The checks run in a mount namespace of their own: whatever happens, its
# mounts (proc, sys, the apt cache) go with it, none is left on the host.
status=0
unshare --mount --propagation private "$self" --inside "$deb" || status=$?
echo "test-deb: $((SECONDS - start)) s"
exit $status
