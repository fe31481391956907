#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-checks `stylusd replay --json` against the independent reference
implementation of the double-press rule (tools/double_press_reference.py) on
every recording in a folder, over a sweep of intervals and debounce times.
Any difference in which double presses fire, or when, is a failure."""
import argparse
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REFERENCE = HERE.parent.parent / "tools" / "double_press_reference.py"
INTERVALS = [150, 300, 400, 500, 600, 800, 1000]
DEBOUNCES = [0, 25, 100]


def stylusd_presses(stylusd, path, desc, interval, debounce):
    cmd = [stylusd, "replay", "--json", "--interval-ms", str(interval), "--debounce-ms", str(debounce), str(path)]
    if desc:
        cmd += ["--desc", str(desc)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    events = [json.loads(line) for line in out.splitlines()]
    return [(e["button"], e["time_us"]) for e in events
            if e["event"] == "double-press" and e["button"].startswith("BTN_STYLUS")]


def reference_presses(path, desc, interval, debounce):
    cmd = [sys.executable, str(REFERENCE), str(path), "--interval-ms", str(interval), "--debounce-ms", str(debounce)]
    if desc:
        cmd += ["--desc", str(desc)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [(e["button"], e["time_us"]) for e in map(json.loads, out.splitlines())]


def cli_checks(stylusd, folder):
    """The command line refuses bad input with a clear message and a non-zero status."""
    import tempfile
    good = (folder / "Wacom_Cintiq_13HD_touch_Pen.events").read_text().splitlines()
    header = [l for l in good if not l.startswith("E:")]
    bad = "\n".join(header + ["E: 1.000000 0003 0000 12", "E: 1.00000x 0003 0000 12"]) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".events", delete=False) as f:
        f.write(bad)
    line = len(header) + 2
    r = subprocess.run([stylusd, "replay", f.name], capture_output=True, text=True)
    yield ("malformed recording", r.returncode == 65 and f"{f.name}:{line}: bad timestamp" in r.stderr,
           f"status {r.returncode}, stderr {r.stderr!r}")
    r = subprocess.run([stylusd, "replay", str(folder / "Wacom_Intuos4_6x9.stylus-tap.events")], capture_output=True, text=True)
    yield ("headerless without --desc", r.returncode != 0 and ":1: event before any device description" in r.stderr and "--desc" in r.stderr,
           f"status {r.returncode}, stderr {r.stderr!r}")
    r = subprocess.run([stylusd, "replay", "--interval-ms", "100", str(folder / "Wacom_DTH2242_Pen.events")], capture_output=True, text=True)
    yield ("interval out of range", r.returncode != 0 and "--interval-ms: 100 ms is outside 150-1000 ms" in r.stderr,
           f"status {r.returncode}, stderr {r.stderr!r}")
    r = subprocess.run([stylusd, "replay", "/nonexistent.events"], capture_output=True, text=True)
    yield ("missing file", r.returncode != 0 and "/nonexistent.events: open failed: No such file or directory" in r.stderr,
           f"status {r.returncode}, stderr {r.stderr!r}")
    r = subprocess.run([stylusd, "replay", "--json", str(folder / "Wacom_Cintiq_22HDT_Pen.events")], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    parsed = [json.loads(l) for l in lines]
    yield ("json lines", r.returncode == 0 and all(isinstance(p, dict) and "event" in p and "time_us" in p for p in parsed),
           "every line is one JSON object with event and time_us")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stylusd", required=True)
    ap.add_argument("folder")
    a = ap.parse_args()
    folder = pathlib.Path(a.folder)
    passed = failed = 0
    total_presses = 0
    for path in sorted(folder.glob("*.events")):
        desc = None
        if not path.read_bytes().lstrip().startswith(b"#") and not path.read_bytes().startswith(b"N:"):
            desc = path.with_name(path.name.split(".")[0] + ".desc")
        for interval in INTERVALS:
            for debounce in DEBOUNCES:
                if debounce >= interval:
                    continue
                got = stylusd_presses(a.stylusd, path, desc, interval, debounce)
                want = reference_presses(path, desc, interval, debounce)
                total_presses += len(want)
                if got == want:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {path.name} interval={interval} debounce={debounce}:\n  stylusd:   {got}\n  reference: {want}")
    for name, ok, why in cli_checks(a.stylusd, folder):
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: {why}")
    print(f"crosscheck: {total_presses} reference double presses compared")
    print(f"crosscheck: {passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
