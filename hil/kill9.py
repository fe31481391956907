# SPDX-License-Identifier: MIT
"""kill -9 of stylusd in filter mode, timed from outside: how long until the
desktop reads the pen again, the clone's reader hangs up, its node is
deleted, the real node can be grabbed and the process has exited, beside
the same for a minimal grab-and-clone process (the kernel's own share).
Used by the filter-mode safety test (hil/tests/filter_safety_tests.py),
which bounds these times, and by the filter benchmark
(hil/bench/filter_bench.py), which compares them with the 100 ms goal."""
import ctypes
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import time

from libevdev import InputEvent as E, EV_ABS

from harness import VirtualPen, filter_daemon, pending_events, try_grab
from stylustest import check

IN_DELETE = 0x200
IN_CLOEXEC = 0o2000000
IN_NONBLOCK = 0o4000
_libc = ctypes.CDLL(None, use_errno=True)


def watch_deletions(folder):
    """An inotify descriptor that becomes readable when a file in `folder` is deleted."""
    fd = _libc.inotify_init1(IN_CLOEXEC | IN_NONBLOCK)
    if fd < 0 or _libc.inotify_add_watch(fd, folder.encode(), IN_DELETE) < 0:
        raise OSError(ctypes.get_errno(), "inotify")
    return fd


def deleted_names(inotify_fd):
    names = []
    try:
        data = os.read(inotify_fd, 65536)
    except BlockingIOError:
        return names
    offset = 0
    while offset < len(data):
        _, _, _, length = struct.unpack_from("iIII", data, offset)
        names.append(data[offset + 16:offset + 16 + length].rstrip(b"\0").decode())
        offset += 16 + length
    return names


def grabbed_filter_daemon(*args):
    """A pen, stylusd in filter mode with the pen grabbed, and the clone's node."""
    pen, d, clone, reader = filter_daemon(*args)
    reader.close()
    return pen, d, clone


# The same thing stylusd does to a pen, in the fewest lines: grab the node,
# clone it through uinput, wait. Killing it shows what the kernel alone needs.
GRAB_AND_CLONE = """
import fcntl, sys, time, libevdev
node = open(sys.argv[1], "rb")
fcntl.ioctl(node, 0x40044590, 1)
device = libevdev.Device(node)
device.name += " (stylusd)"
print(device.create_uinput_device().devnode, flush=True)
time.sleep(3600)
"""
EVIOCSCLOCKID = 0x400445A0
CLOCK_MONOTONIC = 1


def kill_and_time(pid, pen, clone):
    """SIGKILLs `pid`, which grabs `pen` and writes `clone`, and returns the
    milliseconds, from just before the signal, until each of: a reader of
    the real node (where the desktop reads) gets the pen's events again,
    taken from the kernel's stamp on the first event it gets (the pen
    writes a frame every millisecond or so); the clone's reader hangs up
    (what a compositor sees); the clone's node is deleted (inotify); an
    EVIOCGRAB from here succeeds; the process has exited (pidfd)."""
    desktop = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(desktop, EVIOCSCLOCKID, struct.pack("i", CLOCK_MONOTONIC))
    grabber = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    reader = os.open(clone, os.O_RDONLY | os.O_NONBLOCK)
    deletions = watch_deletions("/dev/input")
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    for fd in (pidfd, reader, deletions, desktop):
        poller.register(fd, select.POLLIN)
    times = {}
    try:
        pending_events(desktop)
        t0 = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        while len(times) < 5 and time.monotonic() - t0 < 3:
            pen.x += 1
            pen.frame(E(EV_ABS.ABS_X, pen.x), pause=0)
            for fd, revents in poller.poll(1):
                now = time.monotonic() - t0
                if fd == pidfd:
                    times.setdefault("exited", now)
                    poller.unregister(pidfd)
                elif fd == reader:
                    times.setdefault("clone hung up", now)
                    poller.unregister(reader)
                elif fd == desktop:
                    data = os.read(desktop, 24)
                    seconds, micros = struct.unpack_from("qq", data)
                    times.setdefault("desktop reads the pen", seconds + micros / 1e6 - t0)
                    poller.unregister(desktop)
                elif os.path.basename(clone) in deleted_names(deletions):
                    times.setdefault("clone node deleted", now)
            # Only once the desktop reads the pen: EVIOCGRAB waits for the node's
            # lock, which the dying process holds through a grace period, and no
            # frame would be written meanwhile.
            if "desktop reads the pen" in times and "node grabbable" not in times and try_grab(grabber):
                times["node grabbable"] = time.monotonic() - t0
    finally:
        for fd in (desktop, grabber, reader, deletions, pidfd):
            os.close(fd)
    return {k: v * 1000 for k, v in times.items()}


MEASURES = ("desktop reads the pen", "clone hung up", "clone node deleted", "node grabbable", "exited")


def kill_rounds(count):
    """`count` rounds of kill -9: a minimal grab-and-clone process, then stylusd."""
    rounds = {"minimal": [], "stylusd": []}
    for _ in range(count):
        pen = VirtualPen()
        minimal = subprocess.Popen([sys.executable, "-c", GRAB_AND_CLONE, pen.node], stdout=subprocess.PIPE, text=True)
        clone = minimal.stdout.readline().strip()
        subprocess.run(["udevadm", "settle"], check=False)
        rounds["minimal"].append(kill_and_time(minimal.pid, pen, clone))
        minimal.wait()
        pen.destroy()
        pen, d, clone = grabbed_filter_daemon()
        try:
            rounds["stylusd"].append(kill_and_time(d.proc.pid, pen, clone))
            d.proc.wait(5)
        finally:
            pen.destroy()
    return rounds


def worst(rounds, label):
    """The slowest of the rounds, per measure and process; printed with every round."""
    slowest = {}
    for who, runs in rounds.items():
        for run in runs:
            check(all(m in run for m in MEASURES), f"{label}, {who}: not everything within 3 s: {run}")
        slowest[who] = {m: max(run[m] for run in runs) for m in MEASURES}
        print(f"    {label}, {who} (ms; {' / '.join(MEASURES)}): "
              + "; ".join(" / ".join(f"{run[m]:.0f}" for m in MEASURES) for run in runs))
    return slowest


def kill_9_figures():
    """kill -9 of stylusd in filter mode, each time beside the same for a
    minimal grab-and-clone Python process (the kernel's own share), with the
    kernel's default RCU grace periods and then with expedited ones:
    ({"minimal"/"stylusd": {measure: worst ms}} default, the same expedited).

    Each evdev or uinput descriptor the kernel closes waits for RCU grace
    periods (evdev_ungrab, evdev_detach_client, input_close_device,
    input_unregister_handle). Under this guest's emulated CPUs a grace
    period takes tens of milliseconds, so a minimal process needs 130-620 ms
    here too; with expedited grace periods (/sys/kernel/rcu_expedited) it
    needs about 30 ms."""
    default = worst(kill_rounds(1), "default RCU")
    with open("/sys/kernel/rcu_expedited") as f:
        before = f.read().strip()
    try:
        with open("/sys/kernel/rcu_expedited", "w") as f:
            f.write("1")
        expedited = worst(kill_rounds(2), "expedited RCU")
    finally:
        with open("/sys/kernel/rcu_expedited", "w") as f:
            f.write(before)
    return default, expedited
