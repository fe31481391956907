#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: filter mode (issue 10). stylusd grabs the scripted
pen and writes what the desktop should see to a virtual clone; these tests
read the clone's node the way a compositor would and check what arrives.

tests.py imports the tests from here (`from uinput_tests import *`); they
import the harness (`import tests`) only when they run."""
import fcntl
import os
import re
import signal
import subprocess
import threading
import time

__all__ = [
    "test_filter_double_press_never_reaches_the_clone",
    "test_filter_single_click_arrives_late_by_at_most_the_interval",
    "test_filter_hold_arrives_as_a_hold_and_a_button_drag_works",
    "test_filter_unbound_button_passes_at_once",
]

INTERVAL_S = 0.5
EVIOCGRAB = 0x40044590


# EVIOCSCLOCKID, _IOW('E', 0xa0, int): the clock of a reader's event timestamps.
EVIOCSCLOCKID = 0x400445A0


class CloneReader:
    """Reads the clone's node in a thread: (time, type, code, value), where
    time is the kernel's timestamp of the event on CLOCK_MONOTONIC (the clock
    of time.monotonic()): when stylusd wrote it, not when this thread, which
    waits for Python's lock while the main thread writes the pen, got to it."""

    def __init__(self, node):
        import fcntl
        import struct
        import libevdev
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
        import select
        import libevdev
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
        import libevdev
        code = getattr(libevdev.EV_KEY, code_name).value
        with self.lock:
            return [(t, v) for (t, ty, c, v) in self.events if ty == 1 and c == code]

    def abs(self, code_name):
        import libevdev
        code = getattr(libevdev.EV_ABS, code_name).value
        with self.lock:
            return [(t, v) for (t, ty, c, v) in self.events if ty == 3 and c == code]

    def close(self):
        self.running = False
        self.thread.join(1)
        self.fd.close()


def filter_daemon(*args, buttons=("BTN_STYLUS", "BTN_STYLUS2")):
    """A pen, stylusd in filter mode, the clone's node, a reader on it."""
    import tests
    pen = tests.VirtualPen(buttons=buttons)
    d = tests.start("--output", "filter", *args)
    d.wait_device("pen")
    d.wait_log("filter: grabbed", timeout=10)
    line = next(l for l in d.log if "is cloned as" in l)
    clone = re.search(r"cloned as (/dev/input/event\d+)", line).group(1)
    subprocess.run(["udevadm", "settle"], check=False)
    reader = CloneReader(clone)
    return pen, d, clone, reader


def finish(pen, d, reader):
    reader.close()
    d.stop()
    pen.destroy()


def hover(pen, seconds, every=0.01):
    """Real pens report every few ms while hovering."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pen.x += 1
        pen.frame(tests_E("ABS_X", pen.x), pause=every)


def tests_E(name, value):
    import libevdev
    return libevdev.InputEvent(getattr(libevdev.EV_ABS, name), value)



def test_filter_double_press_never_reaches_the_clone():
    from tests import check
    pen, d, clone, reader = filter_daemon()
    try:
        pen.enter()
        hover(pen, 0.2)
        pen.double_click("BTN_STYLUS", gap=0.3)
        d.wait(lambda e: e["event"] == "double-press", what="double press")
        hover(pen, 0.8)
        check(reader.keys("BTN_STYLUS") == [], f"the clone saw {reader.keys('BTN_STYLUS')}")
        check(len(reader.abs("ABS_X")) > 10, "hover motion did not reach the clone")
    finally:
        finish(pen, d, reader)


def test_filter_single_click_arrives_late_by_at_most_the_interval():
    from tests import check
    pen, d, clone, reader = filter_daemon()
    try:
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.click("BTN_STYLUS", hold=0.08)
        hover(pen, 0.9)
        keys = reader.keys("BTN_STYLUS")
        check([v for _, v in keys] == [1, 0], f"clone got {keys}")
        late = keys[0][0] - t0
        print(f"    click reached the clone {late * 1000:.1f} ms after the press (interval {INTERVAL_S * 1000:.0f} ms)")
        check(late <= INTERVAL_S + 0.010 + 0.010, f"{late * 1000:.1f} ms late")   # + the press's own frame pause
    finally:
        finish(pen, d, reader)


def test_filter_hold_arrives_as_a_hold_and_a_button_drag_works():
    import libevdev
    from tests import check, E, EV_ABS, EV_KEY
    pen, d, clone, reader = filter_daemon()
    try:
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.press("BTN_STYLUS")
        hover(pen, 1.0)
        t1 = time.monotonic()
        pen.release("BTN_STYLUS")
        hover(pen, 0.2)
        keys = reader.keys("BTN_STYLUS")
        check([v for _, v in keys] == [1, 0], f"hold: clone got {keys}")
        check(keys[0][0] - t0 < INTERVAL_S + 0.05 and keys[1][0] >= t1 - 0.001, f"hold timing {keys} vs {t0}, {t1}")
        print(f"    hold: press after {(keys[0][0] - t0) * 1000:.0f} ms, held {(keys[1][0] - keys[0][0]) * 1000:.0f} ms")
        # Button-drag: press, touch 50 ms later: the press goes out before the tip.
        hover(pen, 0.6)
        pen.press("BTN_STYLUS")
        time.sleep(0.05)
        pen.frame(E(EV_ABS.ABS_PRESSURE, 3000), E(EV_KEY.BTN_TOUCH, 1))
        for _ in range(10):
            pen.pressure(0.4)
        pen.frame(E(EV_ABS.ABS_PRESSURE, 0), E(EV_KEY.BTN_TOUCH, 0))
        pen.release("BTN_STYLUS")
        hover(pen, 0.2)
        with reader.lock:
            seq = [(c, v) for (_, ty, c, v) in reader.events
                   if ty == 1 and c in (EV_KEY.BTN_STYLUS.value, EV_KEY.BTN_TOUCH.value)][2:]
        check(seq[:2] == [(EV_KEY.BTN_STYLUS.value, 1), (EV_KEY.BTN_TOUCH.value, 1)], f"drag order {seq}")
    finally:
        finish(pen, d, reader)


def test_filter_unbound_button_passes_at_once():
    from tests import check
    pen, d, clone, reader = filter_daemon(buttons=("BTN_STYLUS", "BTN_STYLUS2", "BTN_STYLUS3"))
    try:
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.click("BTN_STYLUS3", hold=0.08)
        hover(pen, 0.2)
        keys = reader.keys("BTN_STYLUS3")
        check([v for _, v in keys] == [1, 0], f"clone got {keys}")
        print(f"    unbound press reached the clone {(keys[0][0] - t0) * 1000:.1f} ms after it was written")
        check(keys[0][0] - t0 < 0.05, f"{(keys[0][0] - t0) * 1000:.1f} ms")
    finally:
        finish(pen, d, reader)
