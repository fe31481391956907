#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The canvas's renderer at 1920×1080 with drawings of up to 100 000 points.
`export`: request sent → answer read, through a live daemon, as PNG
(stylus-canvas --render-png, the canvas's renderer) and as SVG (stylusd's own
helper); the median and the slowest of `--rounds`, and the file sizes. For the
100 000-point drawings also `stylus-canvas --render-bench`: a frame, undo, redo
and a clear taken back, each redraw checked against drawing afresh. Two
drawings of 200-point strokes: `waves` (2 000, 10 000, 100 000 points; pen,
highlighter, pen and eraser in turn, every stroke across the whole picture: the
worst case) and `handwriting` (100 000 points of word-sized strokes in lines,
with highlighters and eraser scrubs). Needs no display. Never fails the build
(issue 29's targets: export under 200 ms; a redraw within a frame).

    python3 bench/export_bench.py --bin .build-static/release --canvas Overlay/.build-static/release/stylus-canvas [--rounds 10]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from daemon import Daemon  # noqa: E402

POINTS = 200
TOOLS = ["pen", "highlighter", "pen", "eraser"]
COLOURS = ["#d61a1c", "#3465a4", "#edd400"]


def stroke(s, tool, xs, ys):
    n = len(xs)
    return {"device": 1, "tool": tool, "color": COLOURS[s % 3], "width": 8,
            "x": xs, "y": ys, "pressure": [0.3 + 0.7 * ((i * 7) % 10) / 10 for i in range(n)],
            "tilt_x": [0.0] * n, "tilt_y": [0.0] * n,
            "time_us": [1_000_000 + s * 10_000_000 + 5_000 * i for i in range(n)]}


def waves(count):
    """The worst case: every stroke crosses the whole picture (pen, highlighter, pen, eraser in turn)."""
    strokes = []
    for s in range(count):
        phase = s / 500
        xs = [i / (POINTS - 1) for i in range(POINTS)]
        ys = [0.5 + 0.45 * math.sin(2 * math.pi * (x * 3 + phase * 7)) * (0.3 + 0.7 * phase) for x in xs]
        strokes.append(stroke(s, TOOLS[s % len(TOOLS)], xs, ys))
    return strokes


def handwriting(count):
    """Notes: word-sized pen strokes in lines down the picture, every tenth a
    highlighter under a line's words, every tenth (another) an eraser scrub."""
    strokes = []
    per_line = 24
    for s in range(count):
        line, slot = (s // per_line) % 24, s % per_line
        x0, y0 = 0.02 + slot * 0.04, 0.03 + line * 0.04
        if s % 10 == 4:
            xs = [x0 + 0.12 * i / (POINTS - 1) for i in range(POINTS)]
            ys = [y0 + 0.03 + 0.002 * math.sin(i / 9) for i in range(POINTS)]
            strokes.append(stroke(s, "highlighter", xs, ys))
            continue
        t = [i / (POINTS - 1) for i in range(POINTS)]
        xs = [x0 + 0.03 * u + 0.006 * math.sin(2 * math.pi * 5 * u) for u in t]
        ys = [y0 + 0.012 + 0.01 * math.cos(2 * math.pi * 5 * u + s) for u in t]
        strokes.append(stroke(s, "eraser" if s % 10 == 9 else "pen", xs, ys))
    return strokes


DRAWINGS = {"waves": waves, "handwriting": handwriting}


def write_state(path, strokes):
    with open(path, "w") as f:
        json.dump({"canvas": "minimized", "precision_enabled": False, "version": 2,
                   "style": {"tool": "pen", "color": "#d61a1c", "width": 8}, "strokes": strokes}, f)


def render_bench(canvas, client, root, rounds):
    """stylus-canvas --render-bench over the daemon's own `strokes` answer: the
    renderer's frame, undo, redo and clear-taken-back costs, and its check that
    each redraw equals drawing afresh."""
    answer = os.path.join(root, "strokes.json")
    with open(answer, "w") as f:
        json.dump(client.request("strokes")["result"], f)
    with open(answer) as f:
        run = subprocess.run([canvas, "--render-bench", "1920x1080", str(rounds)], stdin=f, capture_output=True, text=True, timeout=600)
    for line in run.stdout.splitlines():
        print(f"  renderer: {line}", flush=True)
    if run.returncode != 0:
        print(f"  renderer: FAILED (exit {run.returncode}) {run.stderr.strip()}", flush=True)


def large_exports(canvas, client, root):
    """`stylus-canvas --render-png` at growing sizes, on the daemon's own `strokes` answer: time and
    peak resident memory (the child's own, from wait4). The renderer draws in bands of rows, so the
    peak should follow the width, not the area."""
    answer = json.dumps(client.request("strokes")["result"]).encode()
    for size in ("1920x1080", "3840x2160", "7680x4320", "8192x8192"):
        target = os.path.join(root, f"large-{size}.png")
        with open(os.path.join(root, "strokes.json"), "wb") as f:
            f.write(answer)
        with open(os.path.join(root, "strokes.json"), "rb") as stdin:
            start = time.monotonic()
            child = subprocess.Popen([canvas, "--render-png", target, "--size", size], stdin=stdin, stdout=subprocess.PIPE)
            _, status, usage = os.wait4(child.pid, 0)
            took = (time.monotonic() - start) * 1000
        if status != 0:
            print(f"  render-png {size}: FAILED {child.stdout.read().decode().strip()}", flush=True)
            continue
        print(f"  render-png {size}: {took:.0f} ms, peak RSS {usage.ru_maxrss / 1024:.1f} MiB, "
              f"{os.path.getsize(target) / 1024:.0f} KiB", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build-static", "release"))
    ap.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    for kind, count in (("waves", 10), ("waves", 50), ("waves", 500), ("handwriting", 500)):
        with tempfile.TemporaryDirectory(prefix="stylusd-export-bench-") as root:
            state = os.path.join(root, "state.json")
            write_state(state, DRAWINGS[kind](count))
            env = {"STYLUSD_RENDERER": a.canvas} if os.path.exists(a.canvas) else {}
            with Daemon([os.path.join(a.bin, "stylusd")], root, "--state-file", state, env=env) as d:
                c = d.connect()
                c.timeout = 60
                c.sock.settimeout(60)
                points = c.request("status")["result"]["canvas"]["point_count"]
                if count == 500 and env:
                    print(f"{kind}, {points} points in {count} strokes:", flush=True)
                    render_bench(a.canvas, c, root, 30)
                    large_exports(a.canvas, c, root)
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
                        print(f"export {fmt} 1920x1080, {kind}, {points} points in {count} strokes: median {statistics.median(times):.1f} ms, "
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
