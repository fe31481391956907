# SPDX-License-Identifier: MIT
"""What the hardware-in-the-loop tests (hil/tests/) and benchmarks
(hil/bench/) share, inside the QEMU guest (hil/vm.sh), where uinput exists:
the real stylusd under test, seen through its socket and its log; virtual
pens and pads made with python3-libevdev; a reader of the clone a daemon in
filter mode writes.

Virtual devices are tagged: named "stylusd-hil ...", with phys "stylusd-hil/N"
(what a udev rule or a desktop's device filter can match). They only ever
exist inside the guest, so a developer's desktop session never sees them.

STYLUSD, the daemon's path, is set by the program that runs the tests or the
benchmark (--stylusd). That program puts hil/ and Tests/support on sys.path
(the guest mounts the whole repository): the check, the runner, the launcher
and the socket client are the ones the other Python suites use."""
import errno
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import threading
import time

import libevdev
from libevdev import InputAbsInfo as Abs, InputEvent as E, EV_ABS, EV_KEY, EV_SYN

from daemon import Daemon
from stylusclient import Client
from stylustest import Failure, check

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDINGS = os.path.join(REPO, "Tests", "Fixtures", "recordings")
STYLUSD = None
SYN = E(EV_SYN.SYN_REPORT, 0)
EVIOCGRAB = 0x40044590            # _IOW('E', 0x90, int)
_serial = [0]


class Stylusd(Daemon):
    """The real daemon (STYLUSD, behind `prefix`), with its own runtime
    directory /tmp/hil-daemon-N (owned by `owner` when given), not waited
    for. Tests see it the way clients do: through its socket, subscribed to
    every topic; its log lines are collected from stderr."""

    _count = [0]

    def __init__(self, *args, prefix=(), owner=None):
        Stylusd._count[0] += 1
        root = f"/tmp/hil-daemon-{Stylusd._count[0]}"
        os.makedirs(root, mode=0o700, exist_ok=True)
        if owner is not None:
            os.chown(root, owner, owner)
        # These tests read the real node beside the daemon (evemu-record, libinput). The
        # daemon's default, auto, is filter here where /dev/uinput exists, and would grab
        # it: a test that means filter mode says --output itself.
        if not any(a == "--output" or a.startswith("--output=") for a in args):
            args = ("--output", "observe", *args)
        self.events = []
        self.client = None
        super().__init__([*prefix, STYLUSD], root, *args, runtime=root, wait=False)
        self.socket_path = self.socket

    def _add_event(self, message):
        with self._changed:
            self.events.append(message)
            self._changed.notify_all()

    def connect(self):
        """Subscribes to everything, pen samples included; events are
        collected as they come, on the client's own thread."""
        self.client = Client(self.socket_path)
        check(self.client.hello.get("event") == "hello", f"no hello: {self.client.hello}")
        self.client.listen(self._add_event)
        check(self.request("subscribe", topics=["canvas", "double-press", "precision", "device", "pen"])["ok"], "subscribe")

    def request(self, cmd, **fields):
        """The answer to a request (a connected daemon only)."""
        return self.client.request(cmd, **fields)

    def wait_device(self, kind, timeout=20):
        """A device present (startup enumeration happens before anyone can subscribe)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            devices = self.request("status")["result"]["input"]["devices"]
            if any(d["kind"] == kind for d in devices):
                return devices
            time.sleep(0.1)
        raise Failure(f"no {kind} device after {timeout} s; log: {self.log[-5:]}")

    def wait(self, predicate, timeout=10, what="an event"):
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                for e in self.events:
                    if predicate(e):
                        return e
                left = end - time.monotonic()
                if left <= 0:
                    shown = [e for e in self.events if e["event"] != "pen"][-8:]
                    raise Failure(f"timed out waiting for {what}; events: {shown}; log: {self.log[-5:]}")
                self._changed.wait(left)

    def of(self, kind, **fields):
        return [e for e in self.events if e.get("event") == kind and all(e.get(k) == v for k, v in fields.items())]

    def stop(self):
        # Not waiting for its log to end: a child it started may hold stderr open.
        status = super().stop(log_wait=0)
        if self.client:
            self.client.close()
        time.sleep(0.1)
        return status


def perf_top(data, sort="dso,symbol", children=False):
    """The heaviest entries (0.7 % of the samples or more) of a `perf record`
    file, one line each: share (with `children`, the share with callees and
    then the own share), then the `sort` keys (the profiles of
    HIL_SUITE=filterprofile and floodprofile)."""
    report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--children" if children else "--no-children",
                             "-g", "none", "--percent-limit", "0.7", "--sort", sort],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    width = (3 if children else 2) + sort.count(",") + 1
    return [" ".join(line.split()[:width])[:170] for line in report.splitlines()
            if line.strip() and not line.startswith("#")]


def destroy_uinput(device):
    """Removes a uinput device now. python-libevdev destroys it only when the
    garbage collector gets to it, which reference cycles can postpone."""
    clib = getattr(device, "_uinput", None)
    if clib is not None and clib._uinput_device is not None:
        clib._uinput_destroy(clib._uinput_device)
        clib._uinput_device = None


class VirtualPen:
    """A Wacom-style pen on uinput. One proximity in/out cycle at creation
    stops libinput 1.22 from forcing proximity-out while the pen hovers."""

    def __init__(self, name="stylusd-hil pen", buttons=("BTN_STYLUS", "BTN_STYLUS2"), direct=False,
                 vendor=0x056A, product=0x0357, eraser=True, serials=False):
        _serial[0] += 1
        d = libevdev.Device()
        d.name = name
        d.phys = f"stylusd-hil/{_serial[0]}"
        d.id = {"bustype": 0x03, "vendor": vendor, "product": product, "version": 1}
        keys = ["BTN_TOOL_PEN", "BTN_TOUCH", *buttons] + (["BTN_TOOL_RUBBER"] if eraser else [])
        for k in keys:
            d.enable(getattr(EV_KEY, k))
        d.enable(EV_ABS.ABS_X, Abs(minimum=0, maximum=44800, resolution=200))
        d.enable(EV_ABS.ABS_Y, Abs(minimum=0, maximum=29600, resolution=200))
        d.enable(EV_ABS.ABS_PRESSURE, Abs(minimum=0, maximum=8191))
        d.enable(EV_ABS.ABS_DISTANCE, Abs(minimum=0, maximum=63))
        d.enable(EV_ABS.ABS_TILT_X, Abs(minimum=-64, maximum=63, resolution=57))
        d.enable(EV_ABS.ABS_TILT_Y, Abs(minimum=-64, maximum=63, resolution=57))
        d.enable(libevdev.INPUT_PROP_DIRECT if direct else libevdev.INPUT_PROP_POINTER)
        if serials:
            # A Wacom pen's identity: its serial (MSC_SERIAL) and tool id (ABS_MISC), in each frame in proximity.
            d.enable(EV_ABS.ABS_MISC, Abs(minimum=0, maximum=0xFFFFFFF))
            d.enable(libevdev.EV_MSC.MSC_SERIAL)
        self.uinput = d.create_uinput_device()
        self.node = self.uinput.devnode
        self.x, self.y = 20000, 15000
        subprocess.run(["udevadm", "settle"], check=False)

    def frame(self, *events, pause=0.01):
        self.uinput.send_events(list(events) + [SYN])
        if pause:
            time.sleep(pause)

    def warm_up(self):
        self.enter()
        self.leave()

    def enter(self):
        self.frame(E(EV_ABS.ABS_X, self.x), E(EV_ABS.ABS_Y, self.y), E(EV_ABS.ABS_DISTANCE, 30),
                   E(EV_KEY.BTN_TOOL_PEN, 1), pause=0.05)

    def leave(self):
        self.frame(E(EV_KEY.BTN_TOOL_PEN, 0), pause=0.1)

    def press(self, button="BTN_STYLUS"):
        self.frame(E(getattr(EV_KEY, button), 1))

    def release(self, button="BTN_STYLUS"):
        self.frame(E(getattr(EV_KEY, button), 0))

    def click(self, button="BTN_STYLUS", hold=0.08):
        self.press(button)
        time.sleep(hold)
        self.release(button)

    def double_click(self, button="BTN_STYLUS", gap=0.3, hold=0.08):
        start = time.monotonic()
        self.click(button, hold)
        time.sleep(max(0, gap - (time.monotonic() - start)))
        self.click(button, hold)

    def pressure(self, value, touch=None):
        self.x += 40
        events = [E(EV_ABS.ABS_X, self.x), E(EV_ABS.ABS_PRESSURE, int(value * 8191))]
        if touch is not None:
            events.append(E(EV_KEY.BTN_TOUCH, 1 if touch else 0))
        self.frame(*events, pause=0.02)

    def destroy(self):
        destroy_uinput(self.uinput)


def pen_and_daemon(**pen_options):
    """A pen, then stylusd, then one proximity cycle that libinput sees, so
    that libinput stops forcing proximity-out while the pen hovers."""
    pen = VirtualPen(**pen_options)
    try:
        d = start()
    except BaseException:
        pen.destroy()
        raise
    try:
        d.wait_device("pen")
        pen.warm_up()
        d.wait(lambda e: e["event"] == "proximity" and e["state"] == "out", what="warm-up proximity out")
    except BaseException:
        d.stop()
        pen.destroy()
        raise
    with d._changed:
        d.events.clear()
    return pen, d


def start(*args):
    d = Stylusd(*args)
    try:
        # The first start in a fresh guest reads libinput's and libwacom's data
        # over 9p with a cold cache: under a loaded host that has taken over 20 s.
        d.wait_log("stylusd: ready", timeout=60)
        d.connect()
    except BaseException:
        # The caller never gets it to stop: a daemon left running keeps its grabs,
        # and every later test's pen would be busy.
        d.stop()
        raise
    return d


def make_pad(buttons=9):
    d = libevdev.Device()
    d.name = "stylusd-hil pad"
    d.phys = "stylusd-hil/pad"
    d.id = {"bustype": 0x03, "vendor": 0x056A, "product": 0x0357, "version": 1}
    for i in range(buttons):
        d.enable(getattr(EV_KEY, f"BTN_{i}"))
    # The kernel's Wacom pads look like this: BTN_STYLUS marks them as tablet
    # parts, ABS_X/Y/MISC are there for historical reasons.
    d.enable(EV_KEY.BTN_STYLUS)
    d.enable(EV_ABS.ABS_X, Abs(minimum=0, maximum=1))
    d.enable(EV_ABS.ABS_Y, Abs(minimum=0, maximum=1))
    d.enable(EV_ABS.ABS_MISC, Abs(minimum=0, maximum=1))
    pad = d.create_uinput_device()
    subprocess.run(["udevadm", "settle"], check=False)
    return pad


# ------------------------------------------------- evdev nodes, filter mode's clone

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


# EVIOCSCLOCKID, _IOW('E', 0xa0, int): the clock of a reader's event timestamps.
EVIOCSCLOCKID = 0x400445A0


class CloneReader:
    """Reads the clone's node in a thread: (time, type, code, value), where
    time is the kernel's timestamp of the event on CLOCK_MONOTONIC (the clock
    of time.monotonic()): when stylusd wrote it, not when this thread, which
    waits for Python's lock while the main thread writes the pen, got to it."""

    def __init__(self, node):
        self.fd = open(node, "rb")
        os.set_blocking(self.fd.fileno(), False)
        fcntl.ioctl(self.fd.fileno(), EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.dev = libevdev.Device(self.fd)
        self.events = []
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if not r:
                continue
            try:
                for e in self.dev.events():
                    with self.lock:
                        self.events.append((e.sec + e.usec / 1e6, e.type.value, e.code.value, e.value))
            except libevdev.EventsDroppedException:
                for e in self.dev.sync():
                    pass
            except OSError:
                return

    def keys(self, code_name):
        code = getattr(libevdev.EV_KEY, code_name).value
        with self.lock:
            return [(t, v) for (t, ty, c, v) in self.events if ty == 1 and c == code]

    def abs(self, code_name):
        code = getattr(libevdev.EV_ABS, code_name).value
        with self.lock:
            return [(t, v) for (t, ty, c, v) in self.events if ty == 3 and c == code]

    def close(self):
        self.running = False
        self.thread.join(1)
        self.fd.close()


# The watcher GuestStalls runs: a process of its own, so that waiting for the test's
# Python lock is not taken for a stall; one thread pinned to each CPU it is given.
_STALL_WATCHER = r"""
import os, sys, threading, time
step, noted = float(sys.argv[1]), float(sys.argv[2])
out = threading.Lock()
def say(line):
    with out:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
def watch(cpu):
    os.sched_setaffinity(0, {cpu})
    wakes = 0
    while True:
        before = time.monotonic()
        time.sleep(step)
        woke = time.monotonic()
        if woke - before - step > noted:
            say(f"stall {cpu} {woke!r} {woke - before - step!r}")
        wakes += 1
        if wakes % 10 == 1:
            say(f"awake {cpu} {woke!r}")
for cpu in map(int, sys.argv[3:]):
    threading.Thread(target=watch, args=(cpu,), daemon=True).start()
sys.stdin.read()
"""


class GuestStalls:
    """How long the guest itself stood still, to tell a late daemon from a
    late emulator. Under TCG on a loaded host (CI runs this stage beside the
    sanitizer builds) a vCPU can stop for hundreds of milliseconds, and
    whatever runs on it then, stylusd's timer included, runs that much late.
    A watcher process with a thread pinned to each guest CPU sleeps 5 ms at a
    time and notes every wake-up more than 30 ms late (below that is the
    guest's own scheduling). `allowed(t0, t1, due)` is what a check may allow
    on top of its margin for something due `due` seconds after t0 and seen at
    t1 (time.monotonic()): the stalls at its start (the test writing the
    press) and from its due time on, on the CPU that lost most. Stalls in
    between delay nothing, as stylusd's deadlines run on the kernel's clock."""

    STEP, NOTED = 0.005, 0.030

    def __init__(self):
        self.cpus = sorted(os.sched_getaffinity(0))
        self.stalls = {cpu: [] for cpu in self.cpus}    # cpu -> [(woke, lost seconds)]
        self.awake = {cpu: 0.0 for cpu in self.cpus}    # cpu -> the last wake-up it reported
        self.lock = threading.Lock()
        self.proc = subprocess.Popen([sys.executable, "-c", _STALL_WATCHER, str(self.STEP), str(self.NOTED),
                                      *map(str, self.cpus)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        started = time.monotonic()
        if not self._wait_awake(started, 20):
            self.close()
            raise Failure("the guest's stall watcher did not start within 20 s")

    def _read(self):
        for line in self.proc.stdout:
            kind, cpu, woke, *lost = line.split()
            with self.lock:
                if kind == "stall":
                    self.stalls[int(cpu)].append((float(woke), float(lost[0])))
                self.awake[int(cpu)] = max(self.awake[int(cpu)], float(woke))

    def _wait_awake(self, t, seconds):
        """Whether every watcher has reported a wake-up after `t` (so its stalls up to t are in)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with self.lock:
                if all(w >= t for w in self.awake.values()):
                    return True
            time.sleep(0.01)
        return False

    def during(self, t0, t1):
        """Seconds the guest lost between t0 and t1, on the CPU that lost most."""
        self._wait_awake(t1, 0.5)
        with self.lock:
            return max((sum(max(0.0, min(woke, t1) - max(woke - lost, t0)) for woke, lost in noted)
                        for noted in self.stalls.values()), default=0.0)

    def allowed(self, t0, t1, due=0.0):
        """What a check of something due `due` s after t0, seen at t1, may allow for stalls."""
        if due <= 0.025:
            return self.during(t0, t1)
        return self.during(t0, t0 + 0.02) + self.during(t0 + due - 0.005, t1)

    def say(self, t0, t1, due=0.0):
        """' (the guest stood still N ms)' when it did: for a test's figure line."""
        lost = self.allowed(t0, t1, due)
        return f" (the guest stood still {lost * 1000:.0f} ms)" if lost else ""

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.terminate()
            self.proc.wait(5)


def settle_until(condition, timeout=3.0):
    """Until `condition()` holds, for at most `timeout` s: before a check that
    something reached the clone. It arrives in a few ms, but an emulated guest
    on a loaded host can stand still for hundreds (GuestStalls), so a fixed
    wait would fail there; the caller's check decides either way."""
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.01)


def filter_daemon(*args, buttons=("BTN_STYLUS", "BTN_STYLUS2")):
    """A pen, stylusd in filter mode, the clone's node, a reader on it."""
    pen = VirtualPen(buttons=buttons)
    d = start("--output", "filter", *args)
    d.wait_device("pen")
    d.wait_log("filter: grabbed", timeout=10)
    line = next(l for l in d.log if "is cloned as" in l)
    clone = re.search(r"cloned as (/dev/input/event\d+)", line).group(1)
    subprocess.run(["udevadm", "settle"], check=False)
    reader = CloneReader(clone)
    return pen, d, clone, reader


def hover(pen, seconds, every=0.01):
    """Real pens report every few ms while hovering."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pen.x += 1
        pen.frame(E(EV_ABS.ABS_X, pen.x), pause=every)
