#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: filter mode's safety (issue 10). The pen is grabbed
only while nothing of it is near or held; kill -9 gives the pen back to the
desktop at once; a hung loop is released by the watchdog.

tests.py imports the tests from here (`from filter_safety_tests import *`);
they import the harness (`import tests`) only when they run."""
import ctypes
import errno
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import time

from ptrace_stops import StoppedThread
from uinput_tests import hover

__all__ = [
    "test_filter_grab_waits_for_a_held_button_and_the_pen_to_leave",
    "test_filter_kill_9_frees_the_node_and_removes_the_clone",
    "test_filter_watchdog_releases_the_pen_of_a_hung_loop_within_2_s",
]

EVIOCGRAB = 0x40044590
IN_DELETE = 0x200
IN_CLOEXEC = 0o2000000
IN_NONBLOCK = 0o4000
_libc = ctypes.CDLL(None, use_errno=True)


def try_grab(node_fd):
    """True when EVIOCGRAB succeeds (nobody else holds the node); the grab is given back at once."""
    try:
        fcntl.ioctl(node_fd, EVIOCGRAB, 1)
    except OSError as error:
        if error.errno == errno.EBUSY:
            return False
        raise
    fcntl.ioctl(node_fd, EVIOCGRAB, 0)
    return True


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


def pending_events(fd):
    """(type, code, value) of what a reader of `fd` (an evdev node) has received."""
    events = []
    while True:
        try:
            data = os.read(fd, 24 * 64)
        except BlockingIOError:
            return events
        for offset in range(0, len(data), 24):
            _, _, kind, code, value = struct.unpack_from("qqHHi", data, offset)
            events.append((kind, code, value))


def frames(pen, count):
    """`count` hover frames, 10 ms apart (few enough for a reader's buffer); the ABS_X values sent."""
    from tests import E, EV_ABS
    sent = []
    for _ in range(count):
        pen.x += 1
        pen.frame(E(EV_ABS.ABS_X, pen.x))
        sent.append(pen.x)
    return sent


def filter_daemon(*args):
    """A pen, stylusd in filter mode with the pen grabbed, and the clone's node."""
    import uinput_tests
    pen, d, clone, reader = uinput_tests.filter_daemon(*args)
    reader.close()
    return pen, d, clone


def test_filter_grab_waits_for_a_held_button_and_the_pen_to_leave():
    """stylusd starts while the pen hovers with its side button held: the
    node stays with the desktop (a reader of it gets the pen's events, and
    it can be grabbed by someone else) and the daemon says it waits. The
    release alone is not enough; once the pen leaves, the node is grabbed
    and the clone appears."""
    import json
    import tests
    from tests import check, EV_ABS, EV_KEY
    pen = tests.VirtualPen()
    pen.warm_up()
    pen.enter()
    pen.press("BTN_STYLUS")
    node = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    d = tests.start("--output", "filter")
    try:
        d.wait_device("pen")
        d.wait_log(f"filter: waiting to grab {pen.node}")
        check(d.request("subscribe", topics=["output"])["ok"], "subscribe output")
        status = d.request("status")["result"]
        check(pen.node in json.dumps(status["output"]), f"status does not say it waits for {pen.node}: {status['output']}")
        # The pen still reaches the desktop: an overlay must take pointer input.
        check(status["output"]["captures_pen"] is False, f"captures_pen while a node waits: {status['output']}")

        def still_the_desktops(what):
            pending_events(node)
            sent = frames(pen, 10)
            got = [e[2] for e in pending_events(node) if e[0] == EV_ABS.ABS_X.type.value and e[1] == EV_ABS.ABS_X.value]
            check(got == sent, f"{what}: a reader of the real node got ABS_X {got}, the pen sent {sent}")
            check(try_grab(node), f"{what}: the real node is grabbed")
            check(not any("filter: grabbed" in l for l in d.log), f"{what}: stylusd grabbed the node: {d.log}")

        still_the_desktops("button held at start")
        pen.release("BTN_STYLUS")
        still_the_desktops("button released, pen still in proximity")
        t0 = time.monotonic()
        pen.leave()
        d.wait_log(f"filter: grabbed {pen.node}", timeout=5)
        grabbed_after = time.monotonic() - t0
        event = d.wait(lambda e: e["event"] == "output" and e.get("captures_pen") is True, what="the output event saying the pen is captured")
        check(d.request("status")["result"]["output"]["captures_pen"] is True, "status after the grab")
        line = next(l for l in d.log if "is cloned as" in l)
        clone = re.search(r"cloned as (/dev/input/event\d+)", line).group(1)
        check(os.path.exists(clone), f"no clone node {clone}")
        check(not try_grab(node), "the node is not grabbed after the pen left")
        print(f"    grabbed {grabbed_after * 1000:.0f} ms after the pen left proximity; clone {clone}")
        # From now on the pen reaches the desktop through the clone only.
        subprocess.run(["udevadm", "settle"], check=False)
        reader = os.open(clone, os.O_RDONLY | os.O_NONBLOCK)
        try:
            pending_events(node)
            pen.enter()
            hover(pen, 0.3)
            on_clone = pending_events(reader)
            check(not pending_events(node), "a reader of the grabbed node still gets events")
            check((EV_KEY.BTN_TOOL_PEN.type.value, EV_KEY.BTN_TOOL_PEN.value, 1) in on_clone, f"the clone did not get the pen: {on_clone[:10]}")
            pen.leave()
        finally:
            os.close(reader)
        if "output" in status:
            check(pen.node not in json.dumps(d.request("status")["result"]["output"]), "status still says it waits")
    finally:
        os.close(node)
        d.stop()
        pen.destroy()


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
    from tests import E, EV_ABS
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
    import tests
    rounds = {"minimal": [], "stylusd": []}
    for _ in range(count):
        pen = tests.VirtualPen()
        minimal = subprocess.Popen([sys.executable, "-c", GRAB_AND_CLONE, pen.node], stdout=subprocess.PIPE, text=True)
        clone = minimal.stdout.readline().strip()
        subprocess.run(["udevadm", "settle"], check=False)
        rounds["minimal"].append(kill_and_time(minimal.pid, pen, clone))
        minimal.wait()
        pen.destroy()
        pen, d, clone = filter_daemon()
        try:
            rounds["stylusd"].append(kill_and_time(d.proc.pid, pen, clone))
            d.proc.wait(5)
        finally:
            pen.destroy()
    return rounds


def worst(rounds, label):
    """The slowest of the rounds, per measure and process; printed with every round."""
    from tests import check
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


def test_filter_kill_9_frees_the_node_and_removes_the_clone():
    """What a user relies on when stylusd dies in filter mode: the pen is the
    desktop's again and the virtual pen is gone, without anyone's help. Each
    round must see it within 3 s (`worst`), and stylusd within a second of a
    minimal grab-and-clone process (a helper process or thread keeping a
    descriptor would take seconds). How fast, against 100 ms, is a speed goal:
    `make bench-filter` (filter_bench.py) reports it from these same rounds."""
    from tests import check
    default, expedited = kill_9_figures()
    for m in ("desktop reads the pen", "clone hung up"):
        for label, figures in (("default RCU", default), ("expedited RCU", expedited)):
            extra = figures["stylusd"][m] - figures["minimal"][m]
            check(extra <= 1000, f"{label}: {m} {extra:.0f} ms later than for a minimal process")


def test_filter_watchdog_releases_the_pen_of_a_hung_loop_within_2_s():
    """The loop's thread is stopped (ptrace) while the pen hovers: its
    events wait on the grabbed node, read by nobody. Within 2 s the
    watchdog thread releases the grab, says why, and the pen's events reach
    a reader of the real node (where the desktop's libinput reads). Once the
    loop runs again and the pen leaves, stylusd grabs the node again."""
    from tests import check, EV_ABS
    pen, d, clone = filter_daemon()
    node = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    stopped = None
    try:
        threads = sorted(int(t) for t in os.listdir(f"/proc/{d.proc.pid}/task"))
        check(len(threads) == 2, f"stylusd runs {len(threads)} threads, not the loop and its watchdog")
        pen.warm_up()
        pen.enter()
        hover(pen, 0.3)
        check(not pending_events(node) and not try_grab(node), "the node is not grabbed before the hang")
        stopped = StoppedThread(d.proc.pid)   # the main thread: the loop
        t0 = time.monotonic()
        released = None
        while released is None and time.monotonic() - t0 < 4:
            hover(pen, 0.02)
            if try_grab(node):
                released = time.monotonic() - t0
        check(released is not None, f"the node was still grabbed 4 s after the loop stopped; log {d.log[-3:]}")
        print(f"    the watchdog released the grab {released * 1000:.0f} ms after the loop stopped")
        check(released <= 2.0, f"released after {released * 1000:.0f} ms")
        d.wait_log("watchdog: the event loop has not turned", timeout=2)
        print(f"    {next(l for l in d.log if 'watchdog:' in l)}")
        pending_events(node)
        sent = frames(pen, 10)
        xs = [e[2] for e in pending_events(node) if e[0] == EV_ABS.ABS_X.type.value and e[1] == EV_ABS.ABS_X.value]
        check(xs == sent, f"after the release a reader of the real node got ABS_X {xs}, the pen sent {sent}")
        stopped.resume()
        d.wait_log("filter: the loop runs again after the watchdog released", timeout=5)
        check(sum("filter: grabbed" in l for l in d.log) == 1, "grabbed again while the pen is in proximity")
        pen.leave()
        end = time.monotonic() + 5
        while sum("filter: grabbed" in l for l in d.log) < 2:
            check(time.monotonic() < end, f"not grabbed again after the pen left: {d.log[-3:]}")
            time.sleep(0.05)
        check(not try_grab(node), "the node is not grabbed again")
        check(d.alive(), "stylusd died")
    finally:
        if stopped is not None:
            stopped.resume()
        os.close(node)
        d.stop()
        pen.destroy()
