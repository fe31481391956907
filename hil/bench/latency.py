#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""End-to-end latency in the guest: from just before the uinput write of a
double press's second press to the moment a reader has the news.

stylusd: a client subscribed to `double-press` reads the event from the socket.
Today's pipeline: `libinput debug-events` piped into a small line-reading
script that reacts to BTN_STYLUS lines (as libinput-gestures and fusuma do).
Same guest, same virtual pen, one after the other. Times are CLOCK_MONOTONIC."""
import argparse
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(REPO, "hil"), os.path.join(REPO, "Tests", "support")]
import harness  # noqa: E402  (virtual pens, the daemon under test)
from harness import Stylusd, VirtualPen  # noqa: E402
from libevdev import InputEvent as E, EV_KEY  # noqa: E402
from measures import percentile  # noqa: E402
from stylusclient import Client  # noqa: E402

REACTOR = r'''
import sys, time
out = open(sys.argv[1], "w", buffering=1)
for line in sys.stdin:
    if "TABLET_TOOL_BUTTON" in line and "331" in line and "pressed" in line:
        out.write(f"{time.clock_gettime_ns(time.CLOCK_MONOTONIC)}\n")
'''


def presses(pen, trials, on_second_press):
    """Trials of press, release, press, release; `on_second_press` runs right after the second write."""
    for _ in range(trials):
        pen.frame(E(EV_KEY.BTN_STYLUS, 1), pause=0.06)
        pen.frame(E(EV_KEY.BTN_STYLUS, 0), pause=0.06)
        t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        pen.frame(E(EV_KEY.BTN_STYLUS, 1), pause=0)
        on_second_press(t0)
        time.sleep(0.04)
        pen.frame(E(EV_KEY.BTN_STYLUS, 0), pause=0.06)


def measure_stylusd(trials):
    # Only the measuring client connects: the harness's own subscriber (every
    # topic, pen samples included) would share this process's GIL.
    pen = VirtualPen(name="stylusd-hil latency pen")
    d = Stylusd()
    try:
        d.wait_log("stylusd: ready", timeout=20)
        client = Client(d.socket_path)
        client.request("subscribe", topics=["double-press", "device"])
        pen.warm_up()
        time.sleep(0.5)
        pen.enter()
        latencies = []

        def wait_for_event(t0):
            while True:
                if client.read().get("event") == "double-press":
                    latencies.append((time.clock_gettime_ns(time.CLOCK_MONOTONIC) - t0) / 1000)
                    return
        presses(pen, trials, wait_for_event)
        pen.leave()
        return latencies
    finally:
        d.stop()
        pen.destroy()


def measure_pipeline(trials):
    pen = VirtualPen(name="stylusd-hil latency pen")
    stamps = "/tmp/reactor.stamps"
    open(stamps, "w").close()
    libinput = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", pen.node],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    reactor = subprocess.Popen([sys.executable, "-c", REACTOR, stamps], stdin=libinput.stdout)
    try:
        time.sleep(2)
        pen.warm_up()
        pen.enter()
        sent = []

        def wait_for_line(t0):
            sent.append(t0)
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                with open(stamps) as fh:
                    count = sum(1 for _ in fh)
                if count >= 2 * len(sent):
                    return
                time.sleep(0.0005)
        presses(pen, trials, wait_for_line)
        pen.leave()
        with open(stamps) as fh:
            got = [int(l) for l in fh]
        # Every second pressed line is a second press.
        return [(got[2 * i + 1] - t0) / 1000 for i, t0 in enumerate(sent) if 2 * i + 1 < len(got)]
    finally:
        libinput.terminate()
        reactor.terminate()
        pen.destroy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stylusd", required=True)
    ap.add_argument("--trials", type=int, default=200)
    a = ap.parse_args()
    harness.STYLUSD = a.stylusd
    ours = measure_stylusd(a.trials)
    theirs = measure_pipeline(a.trials)
    for label, values in [("stylusd -> socket client (double-press event)", ours),
                          ("libinput debug-events | line-reading script (button line)", theirs)]:
        print(f"latency: {label}: n={len(values)} p50={percentile(values, 50):.0f} us "
              f"p99={percentile(values, 99):.0f} us max={max(values):.0f} us", flush=True)
    ratio50 = percentile(theirs, 50) / percentile(ours, 50)
    ratio99 = percentile(theirs, 99) / percentile(ours, 99)
    print(f"latency: pipeline/stylusd p50 ratio {ratio50:.2f}, p99 ratio {ratio99:.2f}; "
          f"stylusd first at p50 and p99: {'MET' if ratio50 > 1 and ratio99 > 1 else 'MISSED'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
