#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layer-shell canvas under headless sway 1.7 (1280x800, pixman): `toggle`
on the socket -> the first frame of the fade-in on screen, read back with grim
(one pixel on a stroke, polled); the canvas's resident memory never shown,
shown with the bundled recording's strokes, and hidden again; and its context
switches over 5 s idle, minimized and open with no pen (an idle canvas should
make none). Part of `make bench-overlay`, which measures the X11 canvas under
Xvfb in the same run: the peer the issue allows when gromit-mpx cannot run on
sway's XWayland. A part that cannot be measured says why; it never fails.

Run as root it runs itself again as `nobody` (sway refuses root), like
Tests/overlay/layer_shell_test.py.

    python3 bench/layer_shell_bench.py [--bin .build/release] [--canvas PATH] [--rounds 30]
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "overlay"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import layer_shell_test as lt  # noqa: E402
import overlay_bench as ob  # noqa: E402
import overlay_test as ot  # noqa: E402


percentile, rss_kib = ob.percentile, ob.rss_kib


def context_switches(pid):
    """Every thread's voluntary and involuntary switches: each is a wakeup."""
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        with open(status) as f:
            total += sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
    return total


def pixel(sway, x, y):
    out = subprocess.run(["grim", "-g", f"{x},{y} 1x1", "-t", "ppm", "-"], env=sway.env, capture_output=True, check=True).stdout
    return ot.pixel(ot.parse_ppm(out), 0, 0)


def wait_until(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
    return False


def idle_wakeups(pid, seconds=5.0):
    before = context_switches(pid)
    time.sleep(seconds)
    return context_switches(pid) - before


def bench(args):
    with lt.Session() as s:
        pid = s.stack.overlay.pid
        strokes = s.stack.request("strokes")["strokes"]
        pen = max((t for t in strokes if t.get("tool") != "eraser"), key=lambda t: len(t["points"]))
        px, py = ot.screen_points([pen], lt.WIDTH, lt.HEIGHT)[len(pen["points"]) // 2]
        bare = lambda: pixel(s.sway, px, py) == lt.DESKTOP
        ot.check(bare(), "the probe pixel is not the desktop before opening")
        started = time.perf_counter()
        for _ in range(10):
            pixel(s.sway, px, py)
        grim_ms = (time.perf_counter() - started) * 100
        rss = {"never shown": rss_kib(pid)}
        wakeups = {"minimized": idle_wakeups(pid)}

        def last_open():
            time.sleep(0.5)
            rss["shown"] = rss_kib(pid)
            wakeups["open, no pen"] = idle_wakeups(pid)
        times = ob.toggle_rounds(s.stack.socket, args.rounds, bare, wait_until, last_open)
        time.sleep(0.5)
        rss["hidden again"] = rss_kib(pid)
        points = sum(len(t["points"]) for t in strokes)
        print(f"stylus-canvas (layer-shell, sway 1.7 headless): toggle -> first frame on screen, {len(times)} toggles: "
              f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms "
              f"(each look is a grim capture of one pixel: {grim_ms:.1f} ms)", flush=True)
        print(f"stylus-canvas (layer-shell) RSS: never shown {rss['never shown'] / 1024:.1f} MiB; shown with the recording's "
              f"{len(strokes)} strokes ({points} points) {rss['shown'] / 1024:.1f} MiB; hidden again {rss['hidden again'] / 1024:.1f} MiB",
              flush=True)
        print(f"stylus-canvas (layer-shell) context switches in 5 s idle: minimized {wakeups['minimized']}, "
              f"open with no pen {wakeups['open, no pen']}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    if os.getuid() == 0:
        return lt.as_unprivileged(args, os.path.join("bench", "layer_shell_bench.py"), ["--rounds", str(args.rounds)])
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    args.only = ""
    ot.ARGS = args
    try:
        lt.build_pointer(args.scratch)
        bench(args)
    except ot.Failure as error:
        print(f"layer-shell bench: NOT MEASURED: {error}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
