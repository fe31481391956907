#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`export` of a canvas at 1920×1080: request sent → answer read, through a
live daemon, as PNG (stylus-canvas --render-png, the canvas's renderer) and as
SVG (stylusd's own helper). The drawings are state files of 2 000, 10 000 and
100 000 points: strokes of 200 points, pen, highlighter, pen and eraser in turn,
waves crossing the whole picture. Reports the median and the slowest of
`--rounds` exports of each, and the file sizes. Needs no display. Never fails
the build (issue 29's target: under 200 ms).

    python3 bench/export_bench.py --bin .build-static/release --canvas Overlay/.build-static/release/stylus-canvas [--rounds 10]
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from stylustest import Daemon  # noqa: E402

POINTS = 200


def full_state(path, strokes_wanted=500):
    tools = ["pen", "highlighter", "pen", "eraser"]
    strokes = []
    for s in range(strokes_wanted):
        phase = s / 500
        xs = [i / (POINTS - 1) for i in range(POINTS)]
        ys = [0.5 + 0.45 * math.sin(2 * math.pi * (x * 3 + phase * 7)) * (0.3 + 0.7 * phase) for x in xs]
        strokes.append({"device": 1, "tool": tools[s % len(tools)], "color": ["#d61a1c", "#3465a4", "#edd400"][s % 3], "width": 8,
                        "x": xs, "y": ys, "pressure": [0.3 + 0.7 * ((i * 7) % 10) / 10 for i in range(POINTS)],
                        "tilt_x": [0.0] * POINTS, "tilt_y": [0.0] * POINTS,
                        "time_us": [1_000_000 + s * 10_000_000 + 5_000 * i for i in range(POINTS)]})
    with open(path, "w") as f:
        json.dump({"canvas": "minimized", "precision_enabled": False, "version": 2,
                   "style": {"tool": "pen", "color": "#d61a1c", "width": 8}, "strokes": strokes}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build-static", "release"))
    ap.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    for count in (10, 50, 500):
        with tempfile.TemporaryDirectory(prefix="stylusd-export-bench-") as root:
            state = os.path.join(root, "state.json")
            full_state(state, count)
            env = {"STYLUSD_RENDERER": a.canvas} if os.path.exists(a.canvas) else {}
            with Daemon([os.path.join(a.bin, "stylusd")], root, "--state-file", state, env=env) as d:
                c = d.connect()
                c.timeout = 60
                c.sock.settimeout(60)
                points = c.request("status")["result"]["canvas"]["point_count"]
                for fmt in ("png", "svg"):
                    if fmt == "png" and not env:
                        print(f"export png: SKIPPED (no renderer at {a.canvas}; make overlay)")
                        continue
                    target = os.path.join(root, f"full.{fmt}")
                    times = []
                    for _ in range(a.rounds):
                        start = time.monotonic()
                        r = c.request("export", path=target, width=1920, height=1080)
                        times.append((time.monotonic() - start) * 1000)
                        if not r.get("ok"):
                            print(f"export {fmt}: FAILED {r}")
                            break
                    else:
                        size = os.path.getsize(target) / 1024
                        print(f"export {fmt} 1920x1080, {points} points in {count} strokes: median {statistics.median(times):.1f} ms, "
                              f"slowest {max(times):.1f} ms over {a.rounds} ({size:.0f} KiB)", flush=True)
                    # The loop meanwhile: `status` from another client while an export runs.
                    other = d.connect()
                    rid = c.send("export", path=target, width=1920, height=1080)
                    waits = []
                    while True:
                        start = time.monotonic()
                        other.request("status")
                        waits.append((time.monotonic() - start) * 1000)
                        c.sock.settimeout(0.005)
                        try:
                            if any(m.get("id") == rid for m in c.read_available()):
                                break
                        except (TimeoutError, OSError):
                            pass
                        finally:
                            c.sock.settimeout(60)
                    print(f"  status during that export: {len(waits)} answered, slowest {max(waits):.1f} ms", flush=True)


if __name__ == "__main__":
    main()
