# SPDX-License-Identifier: MIT
"""The README's pictures: a person annotating real application windows, scripted.

Each overlay suite (X11, sway, GNOME) puts a text window or two on its desktop,
opens the canvas and calls `annotate`: a highlighter along one line of text, a
circle round another, the words "Ship it!" handwritten beside them and an arrow
from the words to the circle, all sent as the mouse's strokes (the `draw`
command, source `pointer`, in the pen's normalised space). It then checks the
screenshot: the ink is where it was drawn and the windows show through
unchanged away from it; and with a path, saves the picture there.

The handwriting is polyline glyphs of our own, smoothed and slanted as a hand
writes; a fixed seed keeps the jitter, and so the picture, the same each run."""
import json
import math
import os
import random
import subprocess

import canvas_spec

RED = (0xd6, 0x1a, 0x1c)
YELLOW = (0xed, 0xd4, 0x00)
HIGHLIGHT_ALPHA = canvas_spec.spec()["constants"]["width"]["highlighterOpacity"]

# Glyphs in a box one unit high: y 0 the top of a capital, 1 the baseline, 1.4 a descender's foot;
# each a list of polylines and the advance to the next glyph.
GLYPHS = {
    "S": ([[(0.58, 0.12), (0.42, 0.0), (0.16, 0.04), (0.08, 0.24), (0.26, 0.45), (0.52, 0.6),
            (0.6, 0.8), (0.46, 0.98), (0.18, 1.0), (0.0, 0.86)]], 0.78),
    "h": ([[(0.08, -0.05), (0.0, 1.0)],
           [(0.02, 0.72), (0.16, 0.52), (0.34, 0.48), (0.44, 0.6), (0.44, 1.0)]], 0.62),
    "i": ([[(0.06, 0.48), (0.02, 1.0)], [(0.1, 0.26), (0.12, 0.28)]], 0.3),
    "p": ([[(0.08, 0.48), (0.0, 1.42)],
           [(0.05, 0.6), (0.2, 0.48), (0.4, 0.52), (0.48, 0.72), (0.36, 0.96), (0.16, 1.0), (0.04, 0.9)]], 0.66),
    "t": ([[(0.18, 0.08), (0.12, 0.9), (0.2, 1.0), (0.34, 0.96)], [(0.0, 0.44), (0.38, 0.42)]], 0.48),
    "!": ([[(0.12, 0.0), (0.06, 0.74)], [(0.04, 0.95), (0.06, 0.97)]], 0.3),
    " ": ([], 0.38),
}


def smooth(points, per_segment=8):
    """A Catmull-Rom curve through `points`: a hand draws curves, not corners."""
    if len(points) < 3:
        a, b = points[0], points[-1]
        n = max(2, per_segment)
        return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]
    padded = [points[0]] + points + [points[-1]]
    out = []
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1:i + 3]
        for k in range(per_segment):
            t = k / per_segment
            out.append(tuple(0.5 * (2 * p1[j] + (-p0[j] + p2[j]) * t + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * t * t
                                    + (-p0[j] + 3 * p1[j] - 3 * p2[j] + p3[j]) * t ** 3) for j in (0, 1)))
    out.append(points[-1])
    return out


def handwriting(text, left, top, size, rng, slant=0.22):
    """`text` written from (`left`, `top`) with capitals `size` px high: a list of polylines in screen pixels."""
    strokes, x = [], left
    for ch in text:
        lines, advance = GLYPHS[ch]
        for line in lines:
            wobble = [(px + rng.uniform(-0.02, 0.02), py + rng.uniform(-0.02, 0.02)) for px, py in line]
            strokes.append([(x + (px + (1 - py) * slant) * size, top + py * size) for px, py in smooth(wobble)])
        x += (advance + rng.uniform(-0.03, 0.03)) * size
    return strokes


def loop(cx, cy, rx, ry, rng):
    """A hand-drawn ellipse round (`cx`, `cy`): it starts up right, wavers and overshoots its start."""
    start, turn = -2.3, 2 * math.pi + 0.45
    n = 90
    points = []
    for i in range(n + 1):
        a = start + turn * i / n
        grow = 1 + 0.06 * i / n + rng.uniform(-0.008, 0.008)
        points.append((cx + rx * grow * math.cos(a), cy + ry * grow * math.sin(a)))
    return points


def text_lines(image, rect, pixel):
    """The rows of text in `rect` (x, y, w, h) of a screenshot, as (top, bottom, left, right) of each
    line's ink: bands of rows where many pixels differ from the window's own colour (its commonest);
    a row with a descender's few pixels only is the gap between two lines."""
    x0, y0, w, h = rect
    counts = {}
    for y in range(y0, y0 + h, 4):
        for x in range(x0, x0 + w, 4):
            p = pixel(image, x, y)
            counts[p] = counts.get(p, 0) + 1
    paper = max(counts, key=counts.get)
    rows = []
    for y in range(y0 + 2, y0 + h - 2):
        rows.append((y, [x for x in range(x0 + 2, x0 + w - 2) if sum(abs(a - b) for a, b in zip(pixel(image, x, y), paper)) > 120]))
    busiest = max((len(xs) for _, xs in rows), default=0)
    bands, current = [], None
    for y, xs in rows:
        if xs and len(xs) >= 0.15 * busiest:
            current = [y, y, min(xs), max(xs)] if current is None else [current[0], y, min(current[2], min(xs)), max(current[3], max(xs))]
        elif current is not None:
            bands.append(tuple(current))
            current = None
    return [b for b in bands if b[1] - b[0] >= 4]


def plan(lines, windows, width, height, rng):
    """The session's strokes, as (tool, colour, width in a 1600-wide drawing's pixels, polyline in screen px):
    the highlighter along the third line of text, the fifth line circled, "Ship it!" written below the
    text where its window has room (else to the right of the circle) and an arrow from the words to the circle."""
    scale = 1600 / width
    marked, circled = lines[2], lines[4]
    # The highlighter's ink is its width times the spec's factor: one line's height, no more.
    band = (marked[1] - marked[0] + 4) / canvas_spec.spec()["constants"]["width"]["highlighterFactor"]
    highlight = [(marked[2] - 4 + (marked[3] - marked[2] + 8) * i / 24, (marked[0] + marked[1]) / 2 + rng.uniform(-0.6, 0.6))
                 for i in range(25)]
    cx, cy = (circled[2] + circled[3]) / 2, (circled[0] + circled[1]) / 2
    rx, ry = (circled[3] - circled[2]) / 2 + 24, (circled[1] - circled[0]) / 2 + 9
    rx = min(rx, (cx - 6) / 1.07)   # text at the screen's edge: the loop (which grows 6 %) stays on it
    size = 58
    words_left, words_top = cx + rx + 90, cy + 40
    tail, head = (words_left - 12, words_top + 0.3 * size), (cx + rx * 0.8, cy + ry * 0.75)
    text_bottom = windows[0][1] + windows[0][3]
    if text_bottom - lines[-1][1] > 3 * size or words_left + 5.2 * size > width - 20:
        # Room under the text (or none on the right): below the circle, the arrow up to it.
        words_left, words_top = cx - 0.2 * rx, min(cy + ry + 90, height - 1.6 * size)
        tail, head = (words_left - 14, words_top - 6), (cx - 0.45 * rx, cy + ry * 1.05)
    words = handwriting("Ship it!", words_left, words_top, size, rng)
    # The arrow tool draws from the stroke's first point to its last, whatever the hand did between.
    shaft = [(tail[0] + (head[0] - tail[0]) * t, tail[1] + (head[1] - tail[1]) * t) for t in (i / 12 for i in range(13))]
    return ([("highlighter", YELLOW, band * scale, highlight),
             ("pen", RED, 5 * scale, loop(cx, cy, rx, ry, rng))]
            + [("pen", RED, 4 * scale, s) for s in words]
            + [("arrow", RED, 4 * scale, shaft)])


def send(request, strokes, width, height):
    """Each stroke as the canvas would stream a mouse drag: its style, then down, moves and up."""
    def norm(p, pressure):
        return [min(1.0, max(0.0, p[0] / width)), min(1.0, max(0.0, p[1] / height)), pressure]
    for tool, colour, line_width, points in strokes:
        request("tool", tool=tool, color="#%02x%02x%02x" % colour, width=round(min(64.0, max(1.0, line_width)), 1))
        pressure = [1.0 if tool != "pen" else 0.75 + 0.25 * math.sin(math.pi * i / max(1, len(points) - 1))
                    for i in range(len(points))]
        request("draw", source="pointer", phase="down", points=[norm(points[0], pressure[0])], aspect=height / width)
        for i in range(1, len(points), 40):
            request("draw", source="pointer", phase="move", points=[norm(p, q) for p, q in zip(points[i:i + 40], pressure[i:i + 40])])
        request("draw", source="pointer", phase="up", points=[norm(points[-1], pressure[-1])])


def near_mask(strokes, width, height, reach):
    """Every pixel within `reach` of a drawn point (a square), as a bytearray of width*height."""
    mask = bytearray(width * height)
    for _, _, _, points in strokes:
        dense = []
        for a, b in zip(points, points[1:]):
            n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 3))
            dense += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n)]
        dense.append(points[-1])
        for x, y in dense:
            x, y = int(x), int(y)
            lo, hi = max(0, x - reach), min(width, x + reach + 1)
            for yy in range(max(0, y - reach), min(height, y + reach + 1)):
                mask[yy * width + lo:yy * width + hi] = b"\x01" * (hi - lo)
    return mask


def check_scene(below, over, strokes, windows, pixel, check):
    """The ink where it was drawn, the windows unchanged away from it: the picture tells the truth."""
    width, height, _ = over

    def close(p, want, tolerance=70):
        return sum(abs(a - b) for a, b in zip(p, want)) <= tolerance
    pen = [(int(x), int(y)) for tool, _, _, points in strokes if tool != "highlighter" for x, y in points[::2]]
    missing = [(x, y) for x, y in pen
               if not any(close(pixel(over, xx, yy), RED) for yy in range(max(0, y - 3), min(height, y + 4))
                          for xx in range(max(0, x - 3), min(width, x + 4)))]
    check(len(missing) <= len(pen) // 50, f"the scene: {len(missing)} of {len(pen)} points of the red strokes have no red ink, e.g. {missing[:5]}")
    marker = [(int(x), int(y)) for tool, _, _, points in strokes if tool == "highlighter" for x, y in points[1:-1]]
    unmarked = []
    for x, y in marker:
        under, seen = pixel(below, x, y), pixel(over, x, y)
        want = tuple(round(HIGHLIGHT_ALPHA * c + (1 - HIGHLIGHT_ALPHA) * u) for c, u in zip(YELLOW, under))
        if not close(seen, want, 30):
            unmarked.append(((x, y), seen, want))
    check(len(unmarked) <= len(marker) // 10, f"the scene: the highlighter is not yellow over the text at {len(unmarked)} of {len(marker)} points, e.g. {unmarked[:3]}")
    mask = near_mask(strokes, width, height, 22)
    seen = changed = 0
    for x0, y0, w, h in windows:
        for y in range(y0 + 2, y0 + h - 2, 2):
            for x in range(x0 + 2, x0 + w - 2, 2):
                if mask[y * width + x]:
                    continue
                seen += 1
                changed += pixel(over, x, y) != pixel(below, x, y)
    check(seen > 1000, f"the scene: only {seen} pixels of the windows lie away from the ink")
    check(changed <= seen // 200, f"the scene: {changed} of {seen} pixels of the windows away from the ink changed under the canvas")
    return len(pen), len(marker), seen


def annotate(request, screenshot, settle, windows, pixel, check, png=None, to_png=None):
    """The session over `windows` (x, y, w, h of each application's text, the first holding at least
    five lines) on an open, empty canvas; `screenshot()` a (w, h, rgb) image, `settle()` waits for the
    compositor's paint, `to_png(image, path)` writes a screenshot out. Returns a line for the log."""
    below = screenshot()
    width, height, _ = below
    lines = text_lines(below, windows[0], pixel)
    check(len(lines) >= 5, f"the scene: only {len(lines)} lines of text in the window at {windows[0]}")
    strokes = plan(lines, windows, width, height, random.Random(40))
    send(request, strokes, width, height)
    settle()
    over = screenshot()
    pens, marked, seen = check_scene(below, over, strokes, windows, pixel, check)
    if png:
        to_png(over, png)
    return f"  the scene: {len(strokes)} strokes, {pens} red points inked, {marked} highlighted, {seen} window pixels unchanged"


def empty_state(folder):
    """A state file of no strokes, minimized: the scene's canvas starts blank."""
    path = os.path.join(folder, "empty.json")
    with open(path, "w") as f:
        json.dump({"canvas": "minimized", "precision_enabled": False, "version": 2, "strokes": []}, f)
    return path


def ppm_bytes(image):
    w, h, rgb = image
    return b"P6\n%d %d\n255\n" % (w, h) + rgb


def write_png(image, path):
    subprocess.run(["convert", "ppm:-", "-strip", path], input=ppm_bytes(image), check=True)


# A page to show in the terminals and editors the scenes draw over: what a user of this project might have open.
CHECKLIST = """\
Release checklist - stylusd 2.0

  [x] double press opens the canvas
  [x] layer-shell surface on sway
  [x] GNOME Shell extension (43-48)
  [ ] pictures in the README from the tests
  [x] boards: white, black, grid
  [x] palette taps pick the colour
  [ ] man pages: FILES section
"""
