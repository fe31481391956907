# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: `key:` and `click:` bindings. A double press of the
scripted pen's button makes stylusd write to its virtual keyboard or
pointer; these tests read those nodes the way a compositor would. The
kernel releases whatever is down on a uinput device that goes away, so
kill -9 between press and release leaves nothing held: the test stops the
real daemon there from outside (hil/ptrace_stops.py)."""
import errno
import fcntl
import os
import re
import signal
import struct
import subprocess
import threading

from harness import CloneReader, Stylusd, VirtualPen, hover
from ptrace_stops import SYS_WRITE, SyscallStepper
from stylustest import check

EV_KEY, KEY_LEFTCTRL, KEY_Z, BTN_RIGHT = 1, 29, 44, 0x111
SYN_REPORT = (0, 0, 0)   # (type, code, value)
INPUT_EVENT_SIZE = 24    # struct input_event on x86-64
KEY_BYTES = 0x300 // 8   # KEY_CNT bits
EVIOCGKEY = (2 << 30) | (KEY_BYTES << 16) | (ord("E") << 8) | 0x18


def action_daemon(binding):
    """A pen, stylusd with `binding` on BTN_STYLUS2, one warm-up proximity
    cycle, and readers on the virtual keyboard and pointer."""
    pen, d, keyboard, pointer = action_daemon_nodes(binding)
    return pen, d, CloneReader(keyboard), CloneReader(pointer)


def action_daemon_nodes(binding):
    """A pen, stylusd with `binding` on BTN_STYLUS2, one warm-up proximity
    cycle, and the virtual keyboard's and pointer's nodes."""
    pen = VirtualPen()
    d = Stylusd("--bind", f"BTN_STYLUS2={binding}")
    d.wait_log("stylusd: ready", timeout=60)
    d.connect()
    d.wait_device("pen")
    line = next(l for l in d.log if "bindings write to the virtual keyboard" in l)
    keyboard, pointer = re.search(r"keyboard (/dev/input/event\d+) and pointer (/dev/input/event\d+)", line).groups()
    subprocess.run(["udevadm", "settle"], check=False)
    pen.warm_up()
    d.wait(lambda e: e["event"] == "proximity" and e["state"] == "out", what="warm-up proximity out")
    return pen, d, keyboard, pointer


class NodeReader:
    """Reads an evdev node in a thread, blocking, until the node fails:
    `events` (type, code, value) in order, then `end`, the error that ended it."""

    def __init__(self, node):
        self.fd = os.open(node, os.O_RDONLY | os.O_CLOEXEC)
        self.events, self.end = [], None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            while True:
                data = os.read(self.fd, INPUT_EVENT_SIZE * 64)
                for offset in range(0, len(data), INPUT_EVENT_SIZE):
                    self.events.append(struct.unpack_from("qqHHi", data, offset)[2:])
        except OSError as error:
            self.end = error
        finally:
            os.close(self.fd)


def held_keys(node_fd):
    """The keys the kernel holds down on an evdev node (EVIOCGKEY)."""
    bits = bytearray(KEY_BYTES)
    fcntl.ioctl(node_fd, EVIOCGKEY, bits)
    return {code for code in range(KEY_BYTES * 8) if bits[code // 8] >> (code % 8) & 1}


def uinput_writes_until_z_pressed(stepper):
    """Steps stylusd's loop from system call to system call and collects the
    input events it writes to /dev/uinput, until Z's press and the
    SYN_REPORT after it are on the device. Returns the events and the stop
    at that SYN_REPORT's write(2) exit, the loop held there; None for the
    stop if the loop ended first."""
    written, z_device = [], None
    while (stop := stepper.next()) is not None:
        if not (stop.entry and stop.nr == SYS_WRITE and stop.args[2] == INPUT_EVENT_SIZE):
            continue
        fd, buffer = stop.args[0], stop.args[1]
        if stepper.fd_target(fd) != "/dev/uinput":
            continue
        event = struct.unpack("qqHHi", stepper.read(buffer, INPUT_EVENT_SIZE))[2:]
        written.append(event)
        if event == (EV_KEY, KEY_Z, 1):
            z_device = fd
        elif fd == z_device and event == SYN_REPORT:
            return written, stepper.next()
    return written, None


def key_events(reader):
    with reader.lock:
        return [(c, v) for (_, ty, c, v) in reader.events if ty == 1]


def double_press_applies(pen, d, action):
    """A double press of BTN_STYLUS2, applied as `action`, and time for its events to arrive."""
    pen.enter()
    hover(pen, 0.2)
    pen.double_click("BTN_STYLUS2", gap=0.3)
    event = d.wait(lambda e: e["event"] == "double-press", what="double press")
    check(event["action"] == action and event["outcome"] == "applied", f"{event}")
    hover(pen, 0.3)


def finish(pen, d, *readers):
    for r in readers:
        r.close()
    d.stop()
    pen.destroy()


def test_action_key_ctrl_z_is_ctrl_down_z_down_z_up_ctrl_up():
    pen, d, keyboard, pointer = action_daemon("key:CTRL+Z")
    try:
        double_press_applies(pen, d, "key:LEFTCTRL+Z")
        keys = key_events(keyboard)
        check(keys == [(KEY_LEFTCTRL, 1), (KEY_Z, 1), (KEY_Z, 0), (KEY_LEFTCTRL, 0)], f"the keyboard got {keys}")
        check(key_events(pointer) == [], f"the pointer got {key_events(pointer)}")
        # stylusd's own devices are not input to it.
        names = [dev["name"] for dev in d.request("status")["result"]["input"]["devices"]]
        check(not any("(stylusd)" in n for n in names), f"stylusd took its own device for input: {names}")
        probe = d.request("devices")["result"]["nodes"]
        check(not any("Pen actions" in n["name"] for n in probe), f"the probe lists stylusd's own devices: {probe}")
    finally:
        finish(pen, d, keyboard, pointer)


def test_action_click_right_is_a_right_click_on_the_virtual_pointer():
    pen, d, keyboard, pointer = action_daemon("click:right")
    try:
        double_press_applies(pen, d, "click:right")
        check(key_events(pointer) == [(BTN_RIGHT, 1), (BTN_RIGHT, 0)], f"the pointer got {key_events(pointer)}")
        check(key_events(keyboard) == [], f"the keyboard got {key_events(keyboard)}")
    finally:
        finish(pen, d, keyboard, pointer)


def test_action_kill_9_between_press_and_release_leaves_nothing_held():
    """The real daemon is stopped from outside (ptrace) right after it wrote
    Z's press and its SYN_REPORT, before Z's release, and killed there. A
    reader of the keyboard's node sees Ctrl and Z pressed, then released by
    the kernel as the device goes away, then the node gone (ENODEV)."""
    pen, d, keyboard_node, _ = action_daemon_nodes("key:CTRL+Z")
    reader = NodeReader(keyboard_node)
    probe = os.open(keyboard_node, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    stepper = None
    try:
        pen.enter()
        hover(pen, 0.2)
        # From here each of the loop's system calls stops it: only the double press is left to send.
        stepper = SyscallStepper(d.proc.pid)   # the main thread: the loop
        presser = threading.Thread(target=pen.double_click, args=("BTN_STYLUS2", 0.3), daemon=True)
        presser.start()
        # If Z's press never comes, killing stylusd ends the wait for it.
        rescue = threading.Timer(30, os.kill, (d.proc.pid, signal.SIGKILL))
        rescue.start()
        try:
            written, at_release = uinput_writes_until_z_pressed(stepper)
        finally:
            rescue.cancel()
        check(at_release is not None, f"stylusd ended (or was killed after 30 s) before Z's press was written; it wrote {written}")
        check(at_release.rval == INPUT_EVENT_SIZE, f"writing Z's SYN_REPORT returned {at_release.rval}")
        check(written == [(EV_KEY, KEY_LEFTCTRL, 1), SYN_REPORT, (EV_KEY, KEY_Z, 1), SYN_REPORT],
              f"before its release stylusd wrote {written}")
        print(f"    stylusd held after Z's press, {stepper.stops} system call stops after the double press began")
        held = held_keys(probe)
        check(held == {KEY_LEFTCTRL, KEY_Z}, f"between press and release the keyboard holds {sorted(held)}")
        os.kill(d.proc.pid, signal.SIGKILL)   # while held: Z's release is never written
        d.proc.wait(timeout=5)
        presser.join(5)
        reader.thread.join(5)
        keys = [(code, value) for kind, code, value in reader.events if kind == EV_KEY]
        print(f"    after kill -9 a reader of the keyboard got {keys}, then {reader.end}")
        check(keys[:2] == [(KEY_LEFTCTRL, 1), (KEY_Z, 1)] and sorted(keys[2:]) == [(KEY_LEFTCTRL, 0), (KEY_Z, 0)],
              f"a reader of the keyboard got {keys}, not Ctrl and Z pressed then released")
        check(reader.end is not None and reader.end.errno == errno.ENODEV, f"the reader ended with {reader.end}")
        try:
            gone = None
            still_held = held_keys(probe)
        except OSError as error:
            gone = error
        check(gone is not None and gone.errno == errno.ENODEV,
              f"after kill -9 the keyboard's key state is {gone or sorted(still_held)}, not gone (ENODEV)")
    finally:
        if stepper is not None:
            stepper.detach()
        os.close(probe)
        finish(pen, d)
