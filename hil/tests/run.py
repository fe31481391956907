#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the hardware-in-the-loop tests: inside the QEMU guest (hil/vm.sh
starts it, hil/guest.sh runs this), where uinput exists. Each test creates
virtual devices with python3-libevdev, runs the real stylusd, and checks
what it prints and answers. Every function whose name starts with `test_`
in the modules below runs, in the order of their names; prints a PASS or
FAIL line for each, then 'hil: N passed, N failed'.

    run.py --stylusd PATH [--only NAME]"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # hil/: the harness, shared with the benchmarks
import harness  # noqa: E402  (puts Tests/support on sys.path)
from stylustest import run_tests  # noqa: E402

import action_tests  # noqa: E402  (key: and click: bindings: the virtual keyboard and pointer)
import device_tests  # noqa: E402  (pens and pads coming and going, probe, udev, systemd, a recording)
import eraser_tests  # noqa: E402  (the pen's eraser end in both eraser modes)
import filter_behaviour_tests  # noqa: E402  (filter mode: what the desktop sees of the clone)
import filter_safety_tests  # noqa: E402  (filter mode: waiting to grab, kill -9, the watchdog)
import filter_tests  # noqa: E402  (filter mode: the grabbed pen's buttons on its virtual clone)
import flood_tests  # noqa: E402  (the loop under a flood of devices and reload)
import output_switch_tests  # noqa: E402  (stylusctl output: observe frees the pen, filter grabs it)

MODULES = [action_tests, device_tests, eraser_tests, filter_behaviour_tests, filter_safety_tests, filter_tests, flood_tests,
           output_switch_tests]


def collect(modules):
    """The modules' own test functions (not ones they import), in the order of their names."""
    tests = {}
    for module in modules:
        for name, value in vars(module).items():
            if name.startswith("test_") and callable(value) and value.__module__ == module.__name__:
                if name in tests:
                    raise SystemExit(f"hil: two tests named {name}, in {tests[name].__module__} and {module.__name__}")
                tests[name] = value
    return [tests[name] for name in sorted(tests)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stylusd", required=True)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    harness.STYLUSD = a.stylusd
    return run_tests("hil", collect(MODULES), a.only)


if __name__ == "__main__":
    sys.exit(main())
