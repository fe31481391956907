#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots a QEMU guest with Debian's stock kernel (it has uinput; this host has
# none) on the host's own root filesystem, shared read-only over virtio-9p, and
# runs hil/guest.sh there as PID 1. Exits with the guest's test status, or 77
# with "SKIPPED: <reason>" when no guest can be started here at all.
#
#   hil/vm.sh          prepare (once) and run the suite
#   hil/vm.sh prepare  only install packages and build the kernel + initramfs
#
# Environment: HIL_CACHE (default .hil), HIL_SHARED_CACHE (the kernel prepared once for every
# clone on this machine; default ~/.cache/stylusd/hil-kernel), HIL_TIMEOUT seconds (default 1800: the whole suite, filter mode included, takes about 11 min),
# HIL_MEM MiB (default 1024), HIL_ONLY (a test name filter passed to the guest; with
# HIL_SUITE=filterbench, the forwarders measured), HIL_BIN (the folder, relative to the
# repository, whose stylusd the test suite runs; default .build-static/release), HIL_SUITE: tests (default), flood
# (make bench-flood), filterbench (make bench-filter), latency (make bench-latency),
# and two profiles with perf in the guest, which keep their data in the cache's out/:
# filterprofile (filter mode at 1 kHz) and floodprofile (the daemon during the flood);
# HIL_BENCH_ARGS: more options for hil/bench/filter_bench.py (see its --help).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${HIL_CACHE:-$REPO/.hil}
SHARED_CACHE=${HIL_SHARED_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/stylusd/hil-kernel}
OUT=$CACHE/out
PACKAGES="qemu-system-x86 busybox-static udev cpio xz-utils python3-libevdev evemu-tools libinput-tools kmod"
MODULES="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p uinput evdev"

say() { echo "hil: $*" >&2; }
skip() { echo "SKIPPED: hardware-in-the-loop tests: $*"; exit 77; }
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

install_packages() {
  local missing="" p
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  say "installing$missing"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; } > "$CACHE/apt.log" 2>&1 || { cat "$CACHE/apt.log" >&2; return 1; }
}

# Debian's generic kernel, unpacked (never installed): the uncompressed ELF
# boots through QEMU's PVH entry, seconds faster under emulation than bzImage.
prepare_kernel() {
  [ -s "$CACHE/vmlinux" ] && [ -d "$CACHE/modules" ] && return 0
  local pkg work
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
  [ -n "$pkg" ] || { $SUDO apt-get update -qq; pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}'); }
  [ -n "$pkg" ] || { say "no linux-image package found"; return 1; }
  # A kernel prepared before, by any clone on this machine, keyed by the package's
  # version and the module list: a fresh clone skips the download and unpacking.
  local version key
  version=$(apt-cache show "$pkg" 2>/dev/null | awk '/^Version:/{print $2; exit}')
  key="$SHARED_CACHE/$pkg-${version:-unknown}-$(echo "$MODULES" | md5sum | cut -c1-12)"
  if [ -s "$key/vmlinux" ] && [ -d "$key/modules" ]; then
    rm -rf "$CACHE/modules" && cp -r "$key/modules" "$CACHE/modules" && cp "$key/vmlinux" "$CACHE/vmlinux.tmp" \
      && mv "$CACHE/vmlinux.tmp" "$CACHE/vmlinux" && return 0
  fi
  work=$(mktemp -d)
  chmod 755 "$work"
  (cd "$work" && apt-get download -qq "$pkg" 2>/dev/null) || { rm -rf "$work"; say "cannot download $pkg"; return 1; }
  mkdir -p "$work/root"
  dpkg-deb --fsys-tarfile "$work"/*.deb | tar -x -C "$work/root" --wildcards './boot/vmlinuz-*' './lib/modules/*' \
    || { rm -rf "$work"; return 1; }
  rm -rf "$CACHE/modules"; mkdir -p "$CACHE/modules"
  local m name
  for name in $MODULES; do
    m=$(find "$work/root/lib/modules" -name "$name.ko*" | head -1)
    [ -n "$m" ] || { say "module $name missing from $pkg"; rm -rf "$work"; return 1; }
    case "$m" in
      *.xz) xz -dc "$m" > "$CACHE/modules/$name.ko" ;;
      *.zst) zstd -qdc "$m" > "$CACHE/modules/$name.ko" ;;
      *) cp "$m" "$CACHE/modules/$name.ko" ;;
    esac
  done
  local image offset
  image=$(ls "$work"/root/boot/vmlinuz-*)
  offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$image" | head -1 | cut -d: -f1)
  tail -c +$((offset + 1)) "$image" | xz -dc > "$CACHE/vmlinux.tmp" 2>/dev/null
  if [ "$(head -c 4 "$CACHE/vmlinux.tmp" | od -An -tx1 | tr -d ' \n')" != 7f454c46 ]; then
    say "could not extract an ELF kernel from $image"; rm -rf "$work"; return 1
  fi
  mv "$CACHE/vmlinux.tmp" "$CACHE/vmlinux"
  rm -rf "$work"
  # Kept for the next clone; a cache that cannot be written costs only the next download.
  if mkdir -p "$key.tmp" 2>/dev/null && cp -r "$CACHE/modules" "$CACHE/vmlinux" "$key.tmp/" 2>/dev/null; then
    rm -rf "$key" && mv "$key.tmp" "$key"
  else
    rm -rf "$key.tmp"
  fi
  return 0
}

prepare_initramfs() {
  [ -s "$CACHE/initramfs.gz" ] && [ "$CACHE/initramfs.gz" -nt "$REPO/hil/vm.sh" ] && return 0
  local t; t=$(mktemp -d)
  mkdir -p "$t"/{bin,dev,proc,sys,newroot,modules}
  cp /bin/busybox "$t/bin/"
  for a in sh mount insmod sleep mkdir switch_root echo cat; do ln -s busybox "$t/bin/$a"; done
  cp "$CACHE"/modules/*.ko "$t/modules/"
  cat > "$t/init" <<INIT
#!/bin/sh
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
echo "initramfs: guest started"
mount -t proc proc /proc
mount -t sysfs sysfs /sys
for m in $MODULES; do insmod /modules/\$m.ko || echo "initramfs: insmod \$m failed"; done
opts=trans=virtio,version=9p2000.L,msize=512000
n=0
until mount -t 9p -o ro,\$opts,cache=loose hostroot /newroot 2>/dev/null; do
  n=\$((n + 1)); [ \$n -gt 100 ] && { echo "initramfs: cannot mount the host's root"; echo o > /proc/sysrq-trigger; }
  sleep 0.1
done
mount -t tmpfs -o mode=755 tmpfs /newroot/run
mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp
mkdir -p /newroot/run/hil
mount -t 9p -o \$opts hilout /newroot/run/hil || { echo "initramfs: cannot mount the results share"; echo o > /proc/sysrq-trigger; }
mkdir -p /newroot/run/hil-repo
mount -t 9p -o ro,\$opts,cache=loose hilrepo /newroot/run/hil-repo || { echo "initramfs: cannot mount the repository"; echo o > /proc/sysrq-trigger; }
mount -o move /dev /newroot/dev
mount -o move /proc /newroot/proc
mount -o move /sys /newroot/sys
exec switch_root /newroot /bin/bash /run/hil-repo/hil/guest.sh
INIT
  chmod 755 "$t/init"
  (cd "$t" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initramfs.gz.tmp" && mv "$CACHE/initramfs.gz.tmp" "$CACHE/initramfs.gz"
  rm -rf "$t"
}

mkdir -p "$CACHE"
install_packages || skip "the packages it needs ($PACKAGES) cannot be installed"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not available"
prepare_kernel || skip "no Debian kernel with uinput could be prepared (apt-get download failed)"
prepare_initramfs || skip "the initramfs could not be built"
[ "${1:-}" = prepare ] && exit 0

rm -rf "$OUT"; mkdir -p "$OUT"
printf 'HIL_ONLY=%q\nHIL_SUITE=%q\nHIL_BENCH_ARGS=%q\nHIL_BIN=%q\n' "${HIL_ONLY:-}" "${HIL_SUITE:-tests}" "${HIL_BENCH_ARGS:-}" "${HIL_BIN:-.build-static/release}" > "$OUT/env"
# The host's other packages' udev rules that run their programs for every device the tests
# create (input-remapper's, a Python program, costs about 6 s per device under TCG, doubling
# the suite's time): the guest masks them; udev's, systemd's and dmsetup's are kept. Found
# here, where the scan takes milliseconds: in the guest, its hundreds of greps under TCG
# took 90 s of every boot (300 s under a loaded CI machine).
for rules in /lib/udev/rules.d/*.rules /usr/lib/udev/rules.d/*.rules; do
  [ -f "$rules" ] || continue
  if grep -o 'RUN+="[^"]*' "$rules" | sed 's/^RUN+="//' | awk '{print $1}' \
      | grep -q -v -E '^(\$env\{|/(usr/)?lib/(udev|systemd)/|/(usr/)?s?bin/(udevadm|loginctl|dmsetup)$|[a-z_]+$)'; then
    basename "$rules"
  fi
done | sort -u > "$OUT/masked-rules"
# KVM only where it is real hardware virtualisation; otherwise emulate (TCG).
if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
  accel=(-enable-kvm -cpu host)
else
  accel=(-accel tcg -cpu max)
fi
say "booting the guest (${accel[1]})"
timeout -k 5 "${HIL_TIMEOUT:-1800}" qemu-system-x86_64 "${accel[@]}" -smp 2 -m "${HIL_MEM:-1024}" \
  -nodefaults -no-user-config -display none -serial stdio -no-reboot \
  -kernel "$CACHE/vmlinux" -initrd "$CACHE/initramfs.gz" \
  -append "console=ttyS0 panic=-1 quiet loglevel=3" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$OUT",mount_tag=hilout,security_model=none,multidevs=remap \
  -virtfs local,path="$REPO",mount_tag=hilrepo,security_model=none,readonly=on,multidevs=remap \
  | tee "$OUT/console.log"
qemu_status=${PIPESTATUS[0]}
if [ -f "$OUT/status" ]; then
  exit "$(cat "$OUT/status")"
fi
if ! grep -q "initramfs: guest started" "$OUT/console.log"; then
  skip "QEMU could not start a guest on this machine (qemu exit status $qemu_status)"
fi
say "the guest booted but left no test status (qemu exit status $qemu_status; 124 = timeout)"
exit 1
