# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: filter mode's safety. The pen is grabbed only while
nothing of it is near or held; kill -9 gives the pen back to the desktop at
once and removes the clone; a hung loop is released by the watchdog."""
import json
import os
import re
import subprocess
import time

from libevdev import InputEvent as E, EV_ABS, EV_KEY

from harness import GuestStalls, VirtualPen, hover, start
from kill9 import grabbed_filter_daemon, kill_9_figures, pending_events, try_grab
from ptrace_stops import StoppedThread
from stylustest import check

# The watchdog acts once the loop has not turned for 1 s (GrabWatchdog's stallLimit):
# a stall of the guest from a little before then on can hold it back.
WATCHDOG_S = 0.9


def frames(pen, count):
    """`count` hover frames, 10 ms apart (few enough for a reader's buffer); the ABS_X values sent."""
    sent = []
    for _ in range(count):
        pen.x += 1
        pen.frame(E(EV_ABS.ABS_X, pen.x))
        sent.append(pen.x)
    return sent



def test_filter_grab_waits_for_a_held_button_and_the_pen_to_leave():
    """stylusd starts while the pen hovers with its side button held: the
    node stays with the desktop (a reader of it gets the pen's events, and
    it can be grabbed by someone else) and the daemon says it waits. The
    release alone is not enough; once the pen leaves, the node is grabbed
    and the clone appears."""
    pen = VirtualPen()
    pen.warm_up()
    pen.enter()
    pen.press("BTN_STYLUS")
    node = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    d = start("--output", "filter")
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



def test_filter_kill_9_frees_the_node_and_removes_the_clone():
    """What a user relies on when stylusd dies in filter mode: the pen is the
    desktop's again and the virtual pen is gone, without anyone's help. Each
    round must see it within 3 s (`worst`), and stylusd within a second of a
    minimal grab-and-clone process (a helper process or thread keeping a
    descriptor would take seconds). How fast, against 100 ms, is a speed goal:
    `make bench-filter` (hil/bench/filter_bench.py) reports it from these same rounds."""
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
    pen, d, clone = grabbed_filter_daemon()
    node = os.open(pen.node, os.O_RDONLY | os.O_NONBLOCK)
    stopped = stalls = None
    try:
        stalls = GuestStalls()
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
        print(f"    the watchdog released the grab {released * 1000:.0f} ms after the loop stopped"
              f"{stalls.say(t0, t0 + released, WATCHDOG_S)}")
        # A stall of the emulator itself once the watchdog is due holds it back as much: allowed on top.
        check(released <= 2.0 + stalls.allowed(t0, t0 + released, WATCHDOG_S), f"released after {released * 1000:.0f} ms")
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
        if stalls:
            stalls.close()
        if stopped is not None:
            stopped.resume()
        os.close(node)
        d.stop()
        pen.destroy()
