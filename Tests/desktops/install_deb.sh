#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian 12 package as a Debian 13 user with GNOME 48 installs it, for the deb48
# suite of run.sh: into ROOT, a throwaway overlay over the cached trixie root with
# /proc and /dev mounted (run.sh mounts it; the cached root itself is never written).
#   Tests/desktops/install_deb.sh ROOT DEB   (DEB: a path inside ROOT)
# Checked: dpkg -i leaves it installed with no package from the network (the root
# already has every Depends: a missing one is named, with what apt would pull in);
# its postinst put in /usr/share/gnome-shell/extensions the variant that lists the
# root's GNOME Shell; and its file trigger on /usr/bin/gnome-shell, activated as a
# gnome-shell upgrade activates it, replaces a copy for another GNOME (a Debian 12
# system's 43 variant) with that one again. Status 1 and the reason on the first failure.
set -euo pipefail
root=${1:?usage: install_deb.sh ROOT DEB}
deb=${2:?usage: install_deb.sh ROOT DEB}
uuid=stylus-canvas@stylusd
selected=/usr/share/gnome-shell/extensions/$uuid
variants=/usr/share/stylusd/gnome-extension

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }
fail() { echo "deb48: $*" >&2; exit 1; }
# The majors a copy's metadata.json lists, "45,46,47,48".
lists() { in_root sed -n 's/.*"shell-version": *\[\(.*\)\].*/\1/p' "$1/metadata.json" 2>/dev/null | tr -d '" '; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! in_root dpkg -i "$deb" >"$log" 2>&1 || [ "$(in_root dpkg-query -W -f='${Status}' stylusd 2>/dev/null)" != "install ok installed" ]; then
    # No network here: what the root lacks is named, for trixie_root.sh's package list.
    pulled=$(in_root apt-get -s -f install 2>/dev/null | sed -n 's/^Inst \([^ ]*\).*/\1/p' | paste -sd ' ')
    fail "dpkg -i $(basename "$deb") did not install it: $(tail -n 5 "$log" | paste -sd ' ')${pulled:+; apt would pull in: $pulled (add them to trixie_root.sh)}"
fi
shell=$(in_root gnome-shell --version | sed -n 's/.*Shell \([0-9]*\).*/\1/p')
[ -n "$shell" ] || fail "gnome-shell --version in the root says no version"
want=""
for v in $(in_root ls $variants); do
    case ",$(lists $variants/$v/$uuid)," in *",$shell,"*) want=$v ;; esac
done
[ -n "$want" ] || fail "no variant in $variants lists GNOME Shell $shell"
got=$(lists $selected)
[ "$got" = "$(lists $variants/$want/$uuid)" ] || fail "dpkg -i put in $selected a copy for GNOME '$got', not the $want variant for GNOME $shell"
in_root cmp -s $variants/$want/$uuid/extension.js $selected/extension.js || fail "$selected/extension.js is not the $want variant's"
echo "deb48: dpkg -i $(basename "$deb"): installed, nothing pulled in; the postinst selected the $want variant for GNOME Shell $shell"

# A Debian 12 system's copy, then gnome-shell's package changing (what dpkg does for a
# file of the trigger's path in an unpacked package): the trigger selects again.
other=$(in_root ls $variants | grep -vx "$want" | head -n 1)
if [ -n "$other" ]; then
    in_root cp $variants/$other/$uuid/extension.js $variants/$other/$uuid/metadata.json $selected/
    in_root dpkg-trigger --no-await /usr/bin/gnome-shell || fail "dpkg-trigger /usr/bin/gnome-shell"
    in_root dpkg --triggers-only --pending >"$log" 2>&1 || fail "dpkg --triggers-only: $(tail -n 5 "$log" | paste -sd ' ')"
    grep -q 'Processing triggers for stylusd' "$log" || fail "gnome-shell's trigger did not run stylusd's postinst: $(paste -sd ' ' "$log")"
    got=$(lists $selected)
    [ "$got" = "$(lists $variants/$want/$uuid)" ] || fail "after the trigger $selected lists GNOME '$got': the $other variant stayed"
    echo "deb48: the $other variant in its place, then gnome-shell's trigger: the $want variant selected again"
fi
