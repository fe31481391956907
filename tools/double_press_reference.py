#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference implementation of stylusd's double-press rule, written from the
rule's text and independent of the Swift engine. Reads an evemu recording
(header optional) and prints one JSON line per double press of a pen side
button: {"button": ..., "time_us": ...}.

Frames are applied as the state they leave at SYN_REPORT, the way libinput
orders them: a tool coming in first, then the tip, then button
changes (a button pressed and released in one frame changed nothing), then a
tool leaving (any BTN_TOOL_* going to 0, which also releases held buttons at
that time). The tip is libinput's contact: with a pressure axis (its range
from the file's header or --desc), touching from 5 % of the range until 1 %
or less; without one, BTN_TOUCH. A press while the tip touches is a drag
press: it pairs with nothing, and ends the button's pending press; the tip
touching down ends the pending press of a button held down.

usage: double_press_reference.py FILE [--desc DESC] [--interval-ms N] [--debounce-ms N]
"""
import argparse
import json
import sys

SIDE = {0x14B: "BTN_STYLUS", 0x14C: "BTN_STYLUS2", 0x149: "BTN_STYLUS3"}
TOOLS = {0x140, 0x141, 0x142, 0x143, 0x144, 0x146, 0x147}
TOUCH = 0x14A


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--desc", help="the device description of a recording without a header")
    ap.add_argument("--interval-ms", type=int, default=500)
    ap.add_argument("--debounce-ms", type=int, default=25)
    a = ap.parse_args()
    interval, debounce = a.interval_ms * 1000, a.debounce_ms * 1000

    down = {}        # code -> engine sees it held
    swallowing = {}  # code -> current press was bounce
    last_release = {}
    pending = {}
    held_tools = set()
    last_tool = None
    frame = []
    out = []
    previous_time = None
    physical = {}    # code -> the key's value as the frames left it
    touching = False
    tip = False      # the engine's tip: touching while a tool is in proximity
    # The pressure axis from the A: lines (code 0x18): min and max.
    pressure_range = None
    for header in [a.desc, a.file]:
        if header is None:
            continue
        with open(header, "rb") as f:
            for raw in f:
                if raw.startswith(b"A:") and int(raw.split()[1], 16) == 0x18:
                    low, high = int(raw.split()[2]), int(raw.split()[3])
                    pressure_range = (low + (high - low) * 5 // 100, low + (high - low) * 1 // 100)
        if pressure_range:
            break
    pressure = 0
    saw_tool_key = False

    def release(code, t):
        if swallowing.get(code):
            swallowing[code] = False
        elif down.get(code):
            down[code] = False
            last_release[code] = t

    with open(a.file, "rb") as f:
        for raw in f:
            if not raw.startswith(b"E:"):
                continue
            parts = raw.split()
            sec, usec = parts[1].split(b".")
            t = int(sec) * 1_000_000 + int(usec.ljust(6, b"0"))
            if previous_time is not None and t < previous_time:
                t = previous_time
            previous_time = t
            etype, code, value = int(parts[2], 16), int(parts[3], 16), int(parts[4])
            if etype != 0 or code != 0:
                if etype == 1:
                    frame.append((code, value))
                elif etype == 3 and code == 0x18:
                    pressure = value
                continue
            # SYN_REPORT: apply the frame.
            tool_left = any(c in TOOLS and not v and c in held_tools for c, v in frame)
            for c, v in frame:
                if c in TOOLS:
                    saw_tool_key = True
                    held_tools.add(c) if v else held_tools.discard(c)
                if c == TOUCH and pressure_range is None:
                    touching = bool(v)
            if pressure_range is not None:
                touch_at, lift_at = pressure_range
                if touching and pressure <= lift_at:
                    touching = False
                elif not touching and pressure >= touch_at and (held_tools or not saw_tool_key):
                    touching = True
            in_proximity = bool(held_tools) or not saw_tool_key
            was_tip, tip = tip, touching and in_proximity
            if tip and not was_tip:
                for c in SIDE:
                    if down.get(c):
                        pending.pop(c, None)
            # Each side button's last change in the frame, if it changed the key's state.
            changes = []
            for i, (c, v) in enumerate(frame):
                if c not in SIDE or any(c2 == c for c2, _ in frame[i + 1:]):
                    continue
                several = sum(1 for c2, _ in frame if c2 == c) > 1
                if several and bool(v) == physical.get(c, False):
                    continue
                changes.append((c, v))
            for c, v in frame:
                if c in SIDE:
                    physical[c] = bool(v)
            entered = [c for c, v in frame if c in TOOLS and v]
            if entered and entered[-1] != last_tool:
                pending.clear()
                last_tool = entered[-1]
            for c, v in changes:
                if not v:
                    release(c, t)
                    continue
                if tip:
                    pending.pop(c, None)
                if down.get(c) or swallowing.get(c):
                    continue
                if c in last_release and t - last_release[c] < debounce:
                    swallowing[c] = True
                    continue
                down[c] = True
                if tip:
                    continue
                if c in pending and t - pending[c] <= interval:
                    del pending[c]
                    out.append({"button": SIDE[c], "time_us": t})
                else:
                    pending[c] = t
            if tool_left:
                for c in SIDE:
                    release(c, t)
                pending.clear()
                if not held_tools:
                    tip = False
            frame = []
    for d in out:
        print(json.dumps(d))


if __name__ == "__main__":
    sys.exit(main())
