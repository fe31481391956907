#!/bin/sh
# SPDX-License-Identifier: MIT
# packaging/build-deb.sh VERSION CANVAS_BIN OUT_DIR: the Debian package of
# stylusd, from the binaries `make install-build` made (.build-static) and a
# stylus-canvas built with the Swift runtime linked in (CANVAS_BIN). Called by
# `make deb`, which builds those first.
#
# What goes in is what `make install PREFIX=/usr` installs (one list of
# files for both), then the Debian parts: docs, copyright, changelog, the
# overlay's man page, the maintainer scripts, the trigger and the control file, whose
# Depends dpkg-shlibdeps computes from the binaries. lintian must report no
# error; its warnings and notes are printed.
set -eu
version=$1
canvas_bin=$2
out=$3
cd "$(dirname "$0")/.."
here=$(pwd)
# A Debian version of a native package: digits first, no revision.
echo "$version" | grep -Eq '^[0-9][A-Za-z0-9.+~]*$' \
    || { echo "build-deb: '$version' (StylusVersion.current) is not a Debian version" >&2; exit 1; }
deb=packaging/deb
maintainer=${DEB_MAINTAINER:-stylusd developers <dev@stylusd.invalid>}
arch=$(dpkg --print-architecture)
stage=$out/stylusd_${version}_$arch
package=$out/stylusd_${version}_$arch.deb
umask 022

# Reproducible: every file's time is the last commit's, and so is the changelog's.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

rm -rf "$stage" "$package"
mkdir -p "$stage/DEBIAN"

# -o: the binaries are already built (the overlay with the Swift runtime
# inside, not install-overlay's build, which links the toolchain's runtime).
# Debian's zsh reads vendor completions, not site-functions.
make --no-print-directory -o install-build -o overlay install \
    DESTDIR="$here/$stage" PREFIX=/usr OVERLAY_BIN="$canvas_bin" \
    ZSHCOMPLETIONSDIR=/usr/share/zsh/vendor-completions >/dev/null

bin=$stage/usr/bin
doc=$stage/usr/share/doc/stylusd
man1=$stage/usr/share/man/man1
for program in stylusd stylusctl stylus-canvas; do
    [ -x "$bin/$program" ] || { echo "build-deb: make install did not install usr/bin/$program" >&2; exit 1; }
done
# The GNOME Shell extension: both variants and the selector; the copy GNOME
# loads is not a file of the package (the postinst selects it, and again on
# the trigger when gnome-shell changes; the postrm removes it).
uuid=stylus-canvas@stylusd
for variant in 43 45; do
    [ -s "$stage/usr/share/stylusd/gnome-extension/$variant/$uuid/metadata.json" ] \
        || { echo "build-deb: make install did not install the GNOME $variant variant in usr/share/stylusd/gnome-extension" >&2; exit 1; }
done
[ -x "$stage/usr/lib/stylusd/select-gnome-extension" ] \
    || { echo "build-deb: make install did not install usr/lib/stylusd/select-gnome-extension" >&2; exit 1; }
[ ! -e "$stage/usr/share/gnome-shell/extensions/$uuid" ] \
    || { echo "build-deb: usr/share/gnome-shell/extensions/$uuid is in the staging folder; only the postinst puts it there" >&2; exit 1; }
grep -q '^variants=/usr/share/stylusd/gnome-extension$' "$stage/usr/lib/stylusd/select-gnome-extension" \
    && grep -q '^extdir=/usr/share/gnome-shell/extensions$' "$stage/usr/lib/stylusd/select-gnome-extension" \
    || { echo "build-deb: select-gnome-extension does not name the package's paths" >&2; exit 1; }
# install-overlay copies the unit as it is (ExecStart in /usr/local) and the
# binary unstripped; the package's unit runs the packaged binary.
sed -i 's|^ExecStart=/usr/local/bin/|ExecStart=/usr/bin/|' "$stage/usr/lib/systemd/user/stylus-canvas.service"
grep -q '^ExecStart=/usr/bin/stylus-canvas' "$stage/usr/lib/systemd/user/stylus-canvas.service" \
    || { echo "build-deb: stylus-canvas.service has no ExecStart=/usr/bin/stylus-canvas" >&2; exit 1; }
# bash-completion sources these files: a #! line only draws a lintian warning.
sed -i '1{/^#!/d}' "$stage/usr/share/bash-completion/completions/"*
for program in stylusd stylusctl stylus-canvas; do
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$bin/$program"
done

install -m644 $deb/stylus-canvas.1 "$man1/stylus-canvas.1"
gzip -9n "$man1"/*.1 "$stage/usr/share/man/man5"/*.5
install -m644 $deb/copyright "$doc/copyright"
for page in README.md docs/*.md; do
    gzip -9nc "$page" > "$doc/$(basename "$page").gz"
done
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
printf 'stylusd (%s) unstable; urgency=medium\n\n  * Built by make deb from the stylusd tree at commit %s.\n\n -- %s  %s\n' \
    "$version" "$commit" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"

install -m755 $deb/postinst $deb/postrm "$stage/DEBIAN/"
install -m644 $deb/triggers "$stage/DEBIAN/"
# The trigger must not fire on the package's own files.
if find "$stage/usr/bin" -name gnome-shell | grep -q .; then echo "build-deb: the package ships usr/bin/gnome-shell, its own trigger path" >&2; exit 1; fi
# Every file in /etc is a conffile: dpkg keeps the administrator's edits.
(cd "$stage" && find etc -type f | sed 's|^|/|' | sort) > "$stage/DEBIAN/conffiles"

# The shared libraries the three binaries need, with the versions their
# symbols require (dpkg-shlibdeps reads a debian/control, so it gets one).
# --warnings=1: "useless dependency" warnings (a library linked whose symbols
# another one already brings) say nothing here.
shlib=$(mktemp -d)
trap 'rm -rf "$shlib"' EXIT
mkdir "$shlib/debian"
printf 'Source: stylusd\n\nPackage: stylusd\nArchitecture: any\n' > "$shlib/debian/control"
depends=$(cd "$shlib" && dpkg-shlibdeps -O --warnings=1 -e"$here/$bin/stylusd" -e"$here/$bin/stylusctl" -e"$here/$bin/stylus-canvas" \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# A dependency that dpkg-shlibdeps must have found; if one is missing the
# binaries were not linked as expected.
for required in libinput10 libevdev2 libwacom9 libcairo2 libwayland-client0 libxcb1 libxcb-imdkit1 libc6; do
    echo "$depends" | grep -q "\\b$required\\b" || { echo "build-deb: $required missing from Depends: $depends" >&2; exit 1; }
done

# Packed relative relocations (DT_RELR, make install-build links with them)
# need glibc 2.36: an older loader refuses the program ("version
# GLIBC_ABI_DT_RELR not found"). dpkg-shlibdeps reads the symbols a binary
# uses, not that version, so it asks for less: raise libc6's minimum here.
if readelf -d "$here/$bin/stylusd" | grep -q '(RELR)'; then
    libc_min=$(echo "$depends" | sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p')
    if [ -z "$libc_min" ] || dpkg --compare-versions "$libc_min" lt 2.36; then
        depends=$(echo "$depends" | sed 's/libc6\( ([^)]*)\)\{0,1\}/libc6 (>= 2.36)/')
    fi
fi

# Not a library: stylusd.service reloads with /bin/kill, which is procps's
# (a minbase Debian 12 has none; `make test-deb` verifies the unit there).
depends="$depends, procps"

(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$size|" -e "s|@DEPENDS@|$depends|" $deb/control.in > "$stage/DEBIAN/control"

find "$stage" -type d -exec chmod 755 {} +
# xz's fastest level: 40 MB instead of 35, in a quarter of the time (~15 s of CPU).
dpkg-deb --root-owner-group -Zxz -z1 --build "$stage" "$package" >/dev/null
echo "built $package ($(du -k "$package" | cut -f1) KiB; Depends: $depends)"

# lintian's errors fail the build; its warnings are printed (docs/DEBIAN.md
# lists the notes, `lintian -I` shows them).
lintian --fail-on error "$package"
echo "lintian: no errors"
