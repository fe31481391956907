# SPDX-License-Identifier: MIT
"""The pen's eraser end on a real evdev node: BTN_TOOL_RUBBER through
libinput to the daemon's drawing, in both eraser modes ([canvas] eraser)."""
import os

from libevdev import InputEvent as E, EV_ABS, EV_KEY

from harness import VirtualPen, start
from stylustest import check


def _draw(pen, tool, x, y, steps=6):
    """One stroke with the pen's `tool` end (BTN_TOOL_PEN or BTN_TOOL_RUBBER), rightwards from x, y."""
    pen.frame(E(EV_ABS.ABS_X, x), E(EV_ABS.ABS_Y, y), E(EV_ABS.ABS_DISTANCE, 30), E(getattr(EV_KEY, tool), 1), pause=0.05)
    for k in range(steps):
        touch = [E(EV_KEY.BTN_TOUCH, 1)] if k == 0 else []
        pen.frame(E(EV_ABS.ABS_X, x + 150 * k), E(EV_ABS.ABS_PRESSURE, 4000), *touch, pause=0.02)
    pen.frame(E(EV_ABS.ABS_PRESSURE, 0), E(EV_KEY.BTN_TOUCH, 0), pause=0.02)
    pen.frame(E(getattr(EV_KEY, tool), 0), pause=0.1)


def _daemon_with_eraser(mode):
    config = f"/tmp/hil-eraser-{mode}.toml"
    with open(config, "w") as f:
        f.write(f'[canvas]\neraser = "{mode}"\n')
    pen = VirtualPen(name=f"stylusd-hil eraser {mode}")
    d = start("--config", config)
    d.wait_device("pen")
    pen.warm_up()
    d.wait(lambda e: e["event"] == "proximity" and e["state"] == "out", what="warm-up proximity out")
    check(d.request("open")["ok"], "open refused")
    d.wait(lambda e: e["event"] == "canvas" and e["state"] == "open", what="canvas open")
    return pen, d


def test_the_eraser_end_erases_the_ink_under_it_and_with_eraser_stroke_whole_strokes():
    # Pixel-wise (the default): the eraser's stroke is kept, drawn as clearing; the ink is still content.
    pen, d = _daemon_with_eraser("pixel")
    try:
        _draw(pen, "BTN_TOOL_PEN", 20000, 15000)
        _draw(pen, "BTN_TOOL_RUBBER", 19900, 15000)
        d.wait(lambda e: len(d.of("stroke")) >= 2, what="two strokes")
        strokes = d.request("strokes")["result"]["strokes"]
        check([s["tool"] for s in strokes] == ["pen", "eraser"], f"pixel mode: {[s['tool'] for s in strokes]}")
    finally:
        d.stop()
        pen.destroy()
    # Whole strokes: the rubbed stroke goes, the one beside it stays, and undo brings it back.
    pen, d = _daemon_with_eraser("stroke")
    try:
        _draw(pen, "BTN_TOOL_PEN", 20000, 15000)
        _draw(pen, "BTN_TOOL_PEN", 20000, 25000)
        d.wait(lambda e: len(d.of("stroke")) >= 2, what="two strokes")
        drawn = d.request("strokes")["result"]["strokes"]
        _draw(pen, "BTN_TOOL_RUBBER", 19900, 15000)
        erased = d.wait(lambda e: e["event"] == "canvas" and e.get("cause") == "erase", what="an erase")
        check(erased["stroke_count"] == 1 and erased["has_content"], f"{erased}")
        check(d.request("strokes")["result"]["strokes"] == drawn[1:], "the stroke the eraser did not touch is not as drawn")
        check(d.request("undo")["ok"], "undo refused")
        check(d.request("strokes")["result"]["strokes"] == drawn, "undo did not put the erased stroke back as it was")
        print(f"    eraser end: {len(drawn[0]['points'])}-point stroke erased whole and restored by undo")
        check(d.alive(), "stylusd died")
    finally:
        d.stop()
        pen.destroy()
        for mode in ("pixel", "stroke"):
            if os.path.exists(f"/tmp/hil-eraser-{mode}.toml"):
                os.remove(f"/tmp/hil-eraser-{mode}.toml")
