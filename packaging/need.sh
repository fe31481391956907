#!/bin/sh
# SPDX-License-Identifier: MIT
# packaging/need.sh TARGET PACKAGE...: the Debian packages TARGET needs. As
# root the missing ones are installed (apt-get update first, only then);
# otherwise the missing ones are named and the status is 77, so the caller
# can report why it did not run.
set -eu
target=$1
shift
missing=
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $package"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
    echo "$target: needs$missing, and only root installs packages here: sudo apt-get install$missing" >&2
    exit 77
fi
echo "$target: installing$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
