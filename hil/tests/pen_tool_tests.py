# SPDX-License-Identifier: MIT
"""Each physical pen its own (issue 39) on real evdev nodes: two pens with their own
serials (MSC_SERIAL) on one tablet, and a second tablet, through libinput to the daemon:
the style chosen with one pen stays with it, the eraser end of a pen is a tool of its own,
and a `[pens.NAME.bindings]` binding fires for that pen only, in filter mode too, where
the clone gets a pen's double press unless that pen's own bindings bind it."""
import os
import re
import subprocess

import libevdev
from libevdev import InputEvent as E, EV_ABS, EV_KEY

from harness import CloneReader, VirtualPen, start
from stylustest import check

CONFIG = "/tmp/hil-pens.toml"
PEN_ID = 0x802   # a Pro Pen 2's tool id


def _frame(pen, serial, *events, pause=0.02):
    pen.frame(*events, E(libevdev.EV_MSC.MSC_SERIAL, serial), pause=pause)


def _stroke(pen, serial, end="BTN_TOOL_PEN", x=20000, y=15000, steps=6):
    """A stroke with the pen of `serial`, in and out of proximity around it."""
    _frame(pen, serial, E(EV_ABS.ABS_X, x), E(EV_ABS.ABS_Y, y), E(EV_ABS.ABS_DISTANCE, 30),
           E(EV_ABS.ABS_MISC, PEN_ID), E(getattr(EV_KEY, end), 1), pause=0.05)
    for k in range(steps):
        touch = [E(EV_KEY.BTN_TOUCH, 1)] if k == 0 else []
        _frame(pen, serial, E(EV_ABS.ABS_X, x + 150 * k), E(EV_ABS.ABS_PRESSURE, 4000), *touch)
    _frame(pen, serial, E(EV_ABS.ABS_PRESSURE, 0), E(EV_KEY.BTN_TOUCH, 0))
    _frame(pen, serial, E(EV_ABS.ABS_MISC, 0), E(getattr(EV_KEY, end), 0), pause=0.1)


def _double_press(pen, serial, button="BTN_STYLUS2"):
    """A double press of a side button while the pen of `serial` hovers."""
    _frame(pen, serial, E(EV_ABS.ABS_X, 30000), E(EV_ABS.ABS_Y, 20000), E(EV_ABS.ABS_DISTANCE, 30),
           E(EV_ABS.ABS_MISC, PEN_ID), E(EV_KEY.BTN_TOOL_PEN, 1), pause=0.1)
    for _ in range(2):
        _frame(pen, serial, E(getattr(EV_KEY, button), 1), pause=0.08)
        _frame(pen, serial, E(getattr(EV_KEY, button), 0), pause=0.12)
    _frame(pen, serial, E(EV_ABS.ABS_MISC, 0), E(EV_KEY.BTN_TOOL_PEN, 0), pause=0.3)


def test_two_pens_with_their_own_serials_keep_their_own_style_and_bindings():
    with open(CONFIG, "w") as f:
        f.write('[pens.a]\nserial = "0x1111"\n\n[pens.a.bindings]\nBTN_STYLUS2 = "undo"\n\n[pens.b]\nserial = "0x2222"\n')
    pen = VirtualPen(name="stylusd-hil serial pens", serials=True)
    other = VirtualPen(name="stylusd-hil second tablet", serials=True)
    d = start("--config", CONFIG)
    try:
        d.wait_device("pen")
        check(d.request("open")["ok"], "open refused")
        d.wait(lambda e: e["event"] == "canvas" and e["state"] == "open", what="canvas open")
        # Pen A in proximity picks blue: its style, not B's.
        _frame(pen, 0x1111, E(EV_ABS.ABS_X, 20000), E(EV_ABS.ABS_Y, 15000), E(EV_ABS.ABS_DISTANCE, 30),
               E(EV_ABS.ABS_MISC, PEN_ID), E(EV_KEY.BTN_TOOL_PEN, 1), pause=0.3)
        check(d.request("tool", color="#3465a4")["ok"], "tool refused")
        _frame(pen, 0x1111, E(EV_ABS.ABS_MISC, 0), E(EV_KEY.BTN_TOOL_PEN, 0), pause=0.2)
        _stroke(pen, 0x1111, y=12000)
        _stroke(pen, 0x2222, y=16000)
        _stroke(pen, 0x1111, end="BTN_TOOL_RUBBER", x=19900, y=12000)
        _stroke(other, 0x3333, y=20000)
        d.wait(lambda e: len(d.of("stroke")) >= 4, timeout=15, what="four strokes")
        strokes = d.request("strokes")["result"]["strokes"]
        seen = [(s["tool"], s["color"], s.get("pen")) for s in strokes]
        print(f"    strokes: {seen}")
        check(len(strokes) == 4, f"{len(strokes)} strokes: {seen}")
        check(seen[0][:3] == ("pen", "#3465a4", "a"), f"pen A's stroke: {seen[0]}")
        check(seen[1][0] == "pen" and seen[1][1] != "#3465a4" and seen[1][2] == "b", f"pen B's stroke took A's blue: {seen[1]}")
        check(seen[2][0] == "eraser" and seen[2][2] not in (None, "a", "b"), f"pen A's eraser end is not a tool of its own: {seen[2]}")
        check(seen[3][0] == "pen" and seen[3][1] != "#3465a4" and seen[3][2] not in (None, "a", "b"), f"the second tablet's pen: {seen[3]}")
        pens = d.request("pens")["result"]
        names = sorted(p.get("name", "") for p in pens.get("pens", []))
        check({"a", "b"} <= set(names) and len(names) >= 4, f"pens: {names}")
        # [pens.a.bindings]: A's double press of BTN_STYLUS2 undoes; B's does what [bindings] says (toggle-precision).
        precision = d.request("status")["result"]["precision"]["enabled"]
        _double_press(pen, 0x1111)
        d.wait(lambda e: e["event"] == "canvas" and e.get("cause") == "undo", what="pen A's undo")
        check(d.request("status")["result"]["canvas"]["stroke_count"] == 3, "pen A's binding did not undo one stroke")
        check(d.request("status")["result"]["precision"]["enabled"] == precision, "pen A's double press toggled precision too")
        _double_press(pen, 0x2222)
        d.wait(lambda e: e["event"] == "precision" and e.get("enabled") is (not precision), what="pen B's precision toggle")
        check(d.request("status")["result"]["canvas"]["stroke_count"] == 3, "pen B's double press undid a stroke")
        print("    pen A: blue, its binding undid; pen B: red, its double press toggled precision; "
              f"eraser end and second tablet each a tool of their own ({len(names)} tools)")
        check(d.alive(), "stylusd died")
    finally:
        d.stop()
        pen.destroy()
        other.destroy()
        if os.path.exists(CONFIG):
            os.remove(CONFIG)


def test_in_filter_mode_the_clone_gets_a_double_press_unless_the_pen_in_proximity_binds_it():
    """[bindings] leaves BTN_STYLUS3 to the desktop; [pens.a.bindings] takes it for pen A."""
    with open(CONFIG, "w") as f:
        f.write('[pens.a]\nserial = "0x1111"\n\n[pens.a.bindings]\nBTN_STYLUS3 = "undo"\n')
    pen = VirtualPen(name="stylusd-hil filter serial pens", serials=True, buttons=("BTN_STYLUS", "BTN_STYLUS2", "BTN_STYLUS3"))
    d = start("--output", "filter", "--config", CONFIG)
    reader = None
    try:
        d.wait_device("pen")
        d.wait_log("filter: grabbed", timeout=10)
        clone = re.search(r"cloned as (/dev/input/event\d+)", next(l for l in d.log if "is cloned as" in l)).group(1)
        subprocess.run(["udevadm", "settle"], check=False)
        reader = CloneReader(clone)
        _double_press(pen, 0x1111, button="BTN_STYLUS3")
        d.wait(lambda e: e["event"] == "double-press" and e.get("action") == "undo", what="pen A's double press")
        a_keys = reader.keys("BTN_STYLUS3")
        a_moves = len(reader.abs("ABS_X"))
        _double_press(pen, 0x2222, button="BTN_STYLUS3")
        _frame(pen, 0x2222, E(EV_ABS.ABS_X, 30100), E(EV_ABS.ABS_DISTANCE, 30), E(EV_KEY.BTN_TOOL_PEN, 1), pause=0.3)
        b_keys = reader.keys("BTN_STYLUS3")[len(a_keys):]
        print(f"    clone's BTN_STYLUS3: pen A {[v for _, v in a_keys]}, pen B {[v for _, v in b_keys]}")
        check(a_keys == [], f"pen A binds BTN_STYLUS3, yet the clone saw {a_keys}")
        check(a_moves > 0, "pen A's motion did not reach the clone")
        check([v for _, v in b_keys] == [1, 0, 1, 0], f"pen B leaves BTN_STYLUS3 to the desktop, the clone saw {b_keys}")
        check(not any(e["event"] == "double-press" and e.get("action") not in (None, "none", "undo") for e in d.events),
              "a double press did something besides pen A's undo")
        check(d.alive(), "stylusd died")
    finally:
        if reader:
            reader.close()
        d.stop()
        pen.destroy()
        if os.path.exists(CONFIG):
            os.remove(CONFIG)
