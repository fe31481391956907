#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make run` from a terminal on a desktop: the canvas overlay starts beside the
daemon and stops with it.

The headless X11 desktop of the overlay tests (Xvfb, openbox, xcompmgr), and
`make run` started on it as a new user starts it: DISPLAY set, no login session
(Tests/firstrun/first_run.py's Make: its own process group, stopped by SIGINT to
that group as Ctrl-C in a terminal stops it).

- The overlay starts and follows the daemon: `stylusctl open` as make run
  printed it shows a window named stylus-canvas (xdotool, viewable) and the canvas
  opens by the overlay's ack, not by the daemon's timeout.
- Ctrl-C leaves nothing behind: no stylus-canvas process on this display and no
  stylus-canvas window, within 5 s.
- A daemon that dies by itself (SIGKILL) ends make run, and the overlay with it
  within 3 s.

    python3 Tests/overlay/make_run_test.py [--canvas Overlay/.build-static/release/stylus-canvas] [--no-install]

Standard library only."""
import argparse
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "firstrun"))   # first_run's Make; overlay_test puts Tests/support there
import overlay_test as ot  # noqa: E402
from first_run import Make  # noqa: E402
from stylusclient import Client  # noqa: E402
from stylustest import Failure, check, private_directory, run_tests  # noqa: E402

ARGS = None
DESKTOP = None


def processes(program, display=None, session=None):
    """Pids running `program` (a resolved path), on this display and in this session when given."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.path.realpath(f"/proc/{pid}/exe") != program or (session is not None and os.getsid(int(pid)) != session):
                continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue   # gone meanwhile, or not ours to read
        if display is None or f"DISPLAY={display}".encode() in environ:
            found.append(int(pid))
    return found


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def canvas_processes(canvas, display):
    """Pids of stylus-canvas processes of this build on this display."""
    return processes(canvas, display)


def canvas_windows(only_visible):
    argv = ["xdotool", "search"] + (["--onlyvisible"] if only_visible else []) + ["--name", "^stylus-canvas$"]
    return subprocess.run(argv, env=DESKTOP.env, capture_output=True, text=True).stdout.split()


def wait_until(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def interrupt(make, canvas):
    """Ctrl-C to make run; a process left holding its output (an overlay that did not stop) is
    named, then ended so that the test can finish."""
    try:
        return make.interrupt()
    except subprocess.TimeoutExpired:
        left = canvas_processes(canvas, DESKTOP.display)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        os.killpg(make.process.pid, signal.SIGKILL)
        make.process.wait(10)
        raise Failure(f"make run did not end within 30 s of Ctrl-C; stylus-canvas still ran there: pids {left}")


def next_canvas_state(watcher, state, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = watcher.read()
        if event.get("event") == "canvas" and event.get("state") == state:
            return event
    raise Failure(f"the canvas was not {state} within {seconds} s")


def test_make_run_starts_the_canvas_and_ctrl_c_stops_it(home):
    canvas = os.path.realpath(ARGS.canvas)
    check(not canvas_processes(canvas, DESKTOP.display), "a stylus-canvas already runs on the test's display")
    # The terminal's environment on this desktop: make run decides from DISPLAY.
    os.environ["DISPLAY"] = DESKTOP.display
    os.environ.pop("WAYLAND_DISPLAY", None)
    make = Make("run", home)
    try:
        match = make.wait_for(r"^\s+(STYLUSD_SOCKET=(\S+) \S+/stylusctl) status$")
        check(match, "make run never printed the stylusctl status command")
        check(any("starting the canvas overlay" in line for line in make.lines),
              "make run did not start the canvas overlay although DISPLAY is set")
        check(wait_until(lambda: canvas_processes(canvas, DESKTOP.display), 10),
              f"no {canvas} process on {DESKTOP.display}")
        stylusctl, socket_path = match.group(1), match.group(2)
        watcher = Client(socket_path)
        watcher.request("subscribe", topics=["canvas"])
        # As the user would, from another terminal: the command make run printed.
        ctl = lambda command: subprocess.run(["sh", "-c", f"{stylusctl} {command}"], cwd="/", env=make.env,
                                             capture_output=True, text=True, timeout=20)
        # A state left open by an earlier run opens open: minimized first, so that `open` has an event to give.
        probe = Client(socket_path)
        left_open = probe.request("status")["result"]["canvas"]["state"] != "minimized"
        probe.close()
        if left_open:
            ctl("minimize")
            next_canvas_state(watcher, "minimized")
        # The overlay connects on its own once the socket answers; an open before it
        # follows ends by the daemon's timeout: minimize and try again, for up to 15 s.
        deadline = time.monotonic() + 15
        causes = []
        while True:
            opening = ctl("open")
            check(opening.returncode == 0, f"`{stylusctl} open` gave {opening.returncode}: {opening.stderr}")
            opened = next_canvas_state(watcher, "open")
            causes.append(opened["cause"])
            if opened["cause"] == "ack" or time.monotonic() > deadline:
                break
            ctl("minimize")
            next_canvas_state(watcher, "minimized")
            time.sleep(1)
        check(causes[-1] == "ack", f"the canvas opened by {causes}, never by the overlay's ack: "
                                   "the overlay does not follow the daemon make run started")
        check(wait_until(lambda: canvas_windows(only_visible=True), 5), "no viewable stylus-canvas window after open")
        watcher.close()
        pids = canvas_processes(canvas, DESKTOP.display)
    finally:
        stopped = time.monotonic()
        lines = interrupt(make, canvas)
    check(any("stopping on SIGINT" in line for line in lines), "the daemon did not say it stopped on SIGINT")
    check(wait_until(lambda: not canvas_processes(canvas, DESKTOP.display), 5),
          f"stylus-canvas still runs 5 s after Ctrl-C: pids {canvas_processes(canvas, DESKTOP.display)}")
    check(wait_until(lambda: not canvas_windows(only_visible=False), 5),
          f"a stylus-canvas window is left 5 s after Ctrl-C: {canvas_windows(only_visible=False)}")
    print(f"  overlay pid {pids} started beside the daemon, opened by its ack; gone "
          f"within {time.monotonic() - stopped:.1f} s of Ctrl-C, window too", flush=True)


def test_a_daemon_that_dies_takes_the_canvas_with_it(home):
    """The daemon ends by itself (SIGKILL, as a crash would): make run ends with it, and the
    overlay it started must not stay behind on the desktop, reconnecting to nothing."""
    canvas = os.path.realpath(ARGS.canvas)
    os.environ["DISPLAY"] = DESKTOP.display
    os.environ.pop("WAYLAND_DISPLAY", None)
    make = Make("run", home)
    try:
        check(make.wait_for(r"^\s+STYLUSD_SOCKET=\S+ \S+/stylusctl status$"), "make run never printed the stylusctl status command")
        check(wait_until(lambda: canvas_processes(canvas, DESKTOP.display), 10), f"no {canvas} process on {DESKTOP.display}")
        # The daemon is make's child (run.sh execs it); its config parser child runs the same program.
        stylusd = processes(os.path.realpath(os.path.join(ROOT, ".build-static", "release", "stylusd")), session=make.process.pid)
        daemon = [pid for pid in stylusd if parent(pid) == make.process.pid]
        check(len(daemon) == 1, f"not one stylusd started by make run: {stylusd}")
        os.kill(daemon[0], signal.SIGKILL)
        killed = time.monotonic()
        try:
            make.process.wait(15)
        except subprocess.TimeoutExpired:
            raise Failure("make run still runs 15 s after its daemon was killed")
        check(wait_until(lambda: not canvas_processes(canvas, DESKTOP.display), 3),
              f"stylus-canvas still runs 3 s after make run's daemon died: pids {canvas_processes(canvas, DESKTOP.display)}")
        print(f"  make run ended with status {make.process.returncode}; the overlay gone "
              f"{time.monotonic() - killed:.1f} s after the daemon's SIGKILL", flush=True)
    finally:
        if make.process.poll() is None:
            interrupt(make, canvas)
        for pid in canvas_processes(canvas, DESKTOP.display):   # left by a failure above: ours to end
            os.kill(pid, signal.SIGKILL)


def main():
    global ARGS, DESKTOP
    parser = argparse.ArgumentParser()
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    parser.add_argument("--only", default="")
    parser.add_argument("--no-install", action="store_true")
    ARGS = parser.parse_args()
    if not ARGS.no_install:
        ot.install_missing()
    DESKTOP = ot.Desktop()
    try:
        return run_tests("make run with a display", [test_make_run_starts_the_canvas_and_ctrl_c_stops_it,
                                                       test_a_daemon_that_dies_takes_the_canvas_with_it], ARGS.only,
                         fixture=lambda: private_directory("stylusd-makerun-"))
    finally:
        DESKTOP.close()


if __name__ == "__main__":
    sys.exit(main())
