#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference implementation of stylusd's double-press rule, written from the
rule's text and independent of the Swift engine. Reads an evemu recording
(header optional) and prints one JSON line per double press of a pen side
button: {"button": ..., "time_us": ...}.

Frames are applied the way libinput orders them: a tool coming in first,
then button changes in file order, then a tool leaving (any BTN_TOOL_* going
to 0, which also releases held buttons at that time).

usage: double_press_reference.py FILE [--interval-ms N] [--debounce-ms N]
"""
import argparse
import json
import sys

SIDE = {0x14B: "BTN_STYLUS", 0x14C: "BTN_STYLUS2", 0x149: "BTN_STYLUS3"}
TOOLS = {0x140, 0x141, 0x142, 0x143, 0x144, 0x146, 0x147}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
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
                continue
            # SYN_REPORT: apply the frame.
            tool_left = any(c in TOOLS and not v and c in held_tools for c, v in frame)
            for c, v in frame:
                if c in TOOLS:
                    held_tools.add(c) if v else held_tools.discard(c)
            entered = [c for c, v in frame if c in TOOLS and v]
            if entered and entered[-1] != last_tool:
                pending.clear()
                last_tool = entered[-1]
            for c, v in frame:
                if c not in SIDE:
                    continue
                if not v:
                    release(c, t)
                    continue
                if down.get(c) or swallowing.get(c):
                    continue
                if c in last_release and t - last_release[c] < debounce:
                    swallowing[c] = True
                    continue
                down[c] = True
                if c in pending and t - pending[c] <= interval:
                    del pending[c]
                    out.append({"button": SIDE[c], "time_us": t})
                else:
                    pending[c] = t
            if tool_left:
                for c in SIDE:
                    release(c, t)
                pending.clear()
            frame = []
    for d in out:
        print(json.dumps(d))


if __name__ == "__main__":
    sys.exit(main())
