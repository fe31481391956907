# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: `stylusctl output` switches the output at run time.
observe is the user's escape hatch: it gives the real node back at once and
removes the clone; filter takes the node again."""
import os
import re
import subprocess
import time

import harness
from harness import VirtualPen, start, try_grab
from stylustest import check

def grab_succeeds(node):
    """Whether this process can grab `node` now (the grab is let go at once)."""
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return try_grab(fd)
    finally:
        os.close(fd)


def stylusctl(d, *args):
    program = os.path.join(os.path.dirname(harness.STYLUSD), "stylusctl")
    return subprocess.run([program, *args, "--socket", d.socket_path], capture_output=True, text=True, timeout=20)


def clones(d):
    return re.findall(r"cloned as (/dev/input/event\d+)", "\n".join(d.log))


def test_output_observe_frees_the_node_at_once_and_filter_grabs_it_again():
    pen = VirtualPen()
    d = start("--output", "filter")
    try:
        d.wait_device("pen")
        check(d.request("subscribe", topics=["output"])["ok"], "subscribe output")
        d.wait_log("filter: grabbed", timeout=10)
        first = clones(d)[-1]
        out = d.request("status")["result"]["output"]
        check((out["mode"], out["requested"], out["waiting"], out["captures_pen"]) == ("filter", "filter", [], True), f"status: {out}")
        check(not grab_succeeds(pen.node), "stylusd in filter mode does not hold the grab")

        asked = time.monotonic()
        ctl = stylusctl(d, "output", "observe")
        answered = time.monotonic()
        check(ctl.returncode == 0 and "output     observe (requested observe)" in ctl.stdout, f"{ctl.returncode} {ctl.stdout} {ctl.stderr}")
        check(grab_succeeds(pen.node), "the real node is still grabbed after `output observe` answered")
        gone = None
        # Gone in tens of ms (the figure below); 3 s, as an emulated guest on a loaded host can stand still for hundreds.
        while time.monotonic() < answered + 3:
            if not os.path.exists(first):
                gone = time.monotonic()
                break
            time.sleep(0.002)
        check(gone is not None, f"the clone {first} is still there 3 s after `output observe`")
        print(f"    output observe: answered in {(answered - asked) * 1000:.0f} ms (stylusctl included), "
              f"the node grabbable at once, the clone gone {(gone - answered) * 1000:.1f} ms after the answer")
        event = d.wait(lambda e: e["event"] == "output" and e["mode"] == "observe", what="the output event")
        check((event["mode"], event["requested"], event["captures_pen"]) == ("observe", "observe", False), f"{event}")
        # Observe: the daemon reads the pen through libinput again.
        pen.enter()
        d.wait(lambda e: e["event"] == "proximity" and e["state"] == "in", what="proximity in through libinput")
        pen.leave()

        grabs = sum("filter: grabbed" in l for l in d.log)
        ctl = stylusctl(d, "output", "filter")
        check(ctl.returncode == 0 and "output     filter (requested filter)" in ctl.stdout, f"{ctl.returncode} {ctl.stdout} {ctl.stderr}")
        end = time.monotonic() + 10
        while sum("filter: grabbed" in l for l in d.log) == grabs and time.monotonic() < end:
            time.sleep(0.01)
        check(sum("filter: grabbed" in l for l in d.log) > grabs, f"no grab after `output filter`: {d.log[-5:]}")
        check(not grab_succeeds(pen.node), "`output filter` did not take the grab again")
        second = clones(d)[-1]
        check(os.path.exists(second), f"no clone after `output filter`: {second}")
        state = d.request("status")["result"]["output"]
        check((state["mode"], state["requested"]) == ("filter", "filter"), f"{state}")
    finally:
        check(d.stop() == 0, "stylusd did not exit cleanly")
        pen.destroy()
