#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The stages of `make test`, each timed, counted and kept in a table.

    tools/ci/stage.py reset
    tools/ci/stage.py run NAME [--needs A,B] -- COMMAND...
                                               run one stage (a shell command); with
                                               --needs, only once stages A and B passed
    tools/ci/stage.py passed NAME              status 0 if stage NAME ran and passed
    tools/ci/stage.py table                    the table; status 1 if a stage failed or never ran

`run` keeps the stage's whole output in .build-ci/NAME.log and prints it
only when the stage fails (its last 200 lines); a stage that passes prints
its summary lines (counts, SKIPPED, fuzz and sanitizer verdicts). Stages run
side by side under `make -j2`, so nothing is printed while one runs: each
stage's lines come out together when it ends.

The tests of a stage are counted from what its suites print: Swift Testing's
'Test run with N tests', the Python suites' 'LABEL: N passed, M failed', and
one per fuzz target that ran its full time."""
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIR = os.path.join(ROOT, ".build-ci")
# The stages of `make test`, in the order the table lists them.
STAGES = ["deps", "extension", "release", "crosscheck", "contract", "docs", "fuzz", "asan", "tsan",
          "canvas", "overlay", "overlay-unit", "desktops", "firstrun", "deb", "hil"]

SWIFT_COUNT = re.compile(r"Test run with (\d+) tests? .*passed")
SWIFT_FAILED = re.compile(r"Test run with (\d+) tests? .*failed")
SUITE_COUNT = re.compile(r"^(\S.*?): (\d+) passed, (\d+) failed", re.M)
FUZZ_DONE = re.compile(r"^fuzz \w+: \d+ s, \d+ inputs, .*no findings", re.M)
SUMMARY = re.compile(r"(^\S.*?: \d+ passed, \d+ failed|SKIPPED|^FAIL|^fuzz |^sanitize |Test run with|^test-deb: )")


def count_tests(log):
    """Tests run as the suites report them, and whether any reported a failure."""
    tests, failures = 0, 0
    for m in SWIFT_COUNT.finditer(log):
        tests += int(m.group(1))
    for m in SWIFT_FAILED.finditer(log):
        tests += int(m.group(1))
        failures += 1
    for m in SUITE_COUNT.finditer(log):
        tests += int(m.group(2)) + int(m.group(3))
        failures += int(m.group(3))
    tests += len(FUZZ_DONE.findall(log))
    return tests, failures


def record_path(name):
    return os.path.join(DIR, name + ".json")


def record(name, seconds, tests, result, status):
    with open(record_path(name), "w") as f:
        json.dump({"name": name, "seconds": round(seconds, 1), "tests": tests, "result": result, "status": status}, f)


def result_of(name):
    try:
        with open(record_path(name)) as f:
            return json.load(f)["result"]
    except FileNotFoundError:
        return "not run"


def run(name, command, needs=()):
    """Runs the stage; always returns 0, so that the chain it is in goes on
    (`table` fails make test for it)."""
    os.makedirs(DIR, exist_ok=True)
    missing = [n for n in needs if result_of(n) != "ok"]
    if missing:
        record(name, 0, 0, "not run: needs " + ", ".join(missing), None)
        print(f"== {name}: not run, it needs {', '.join(f'{n} ({result_of(n)})' for n in missing)}", flush=True)
        return 0
    log_path = os.path.join(DIR, name + ".log")
    started = time.monotonic()
    with open(log_path, "wb") as log:
        # close_fds=False: a make inside gets the jobserver of the make -j2 around it.
        status = subprocess.call(command, shell=True, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, close_fds=False)
    seconds = time.monotonic() - started
    with open(log_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tests, failures = count_tests(text)
    skipped = "SKIPPED" in text
    result = "failed" if status != 0 else ("skipped" if skipped and tests == 0 else "ok")
    record(name, seconds, tests, result, status)
    lines = text.splitlines()
    print(f"== {name}: {result} in {seconds:.0f} s, {tests} tests (log {os.path.relpath(log_path, ROOT)})", flush=True)
    shown = lines[-200:] if status != 0 else [l for l in lines if SUMMARY.search(l)][-40:]
    for line in shown:
        # A failure's own line is printed whole: its message is what CI leaves to read.
        print(f"   {line if line.startswith('FAIL') else line[:400]}")
    sys.stdout.flush()
    return 0


def table():
    rows, total_tests, failed = [], 0, []
    wall = None
    for name in STAGES:
        try:
            with open(record_path(name)) as f:
                r = json.load(f)
        except FileNotFoundError:
            rows.append((name, "-", "-", "not run"))
            failed.append(name)
            continue
        rows.append((name, f"{r['seconds']:.0f}", str(r["tests"]), r["result"]))
        total_tests += r["tests"]
        if r["result"] not in ("ok", "skipped"):
            failed.append(name)
    try:
        with open(os.path.join(DIR, "started")) as f:
            wall = time.time() - float(f.read())
    except (FileNotFoundError, ValueError):
        pass
    print()
    print(f"{'stage':<12} {'seconds':>8} {'tests':>6}  result")
    for name, seconds, tests, result in rows:
        print(f"{name:<12} {seconds:>8} {tests:>6}  {result}")
    print(f"{'total':<12} {f'{wall:.0f}' if wall is not None else '-':>8} {total_tests:>6}  "
          f"{'ok' if not failed else 'FAILED: ' + ' '.join(failed)}")
    print("(stages run side by side under make -j2: the total is wall time, not the sum)")
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "reset":
        os.makedirs(DIR, exist_ok=True)
        for entry in os.listdir(DIR):
            if entry.endswith(".json") or entry.endswith(".log"):
                os.remove(os.path.join(DIR, entry))
        with open(os.path.join(DIR, "started"), "w") as f:
            f.write(str(time.time()))
        return 0
    if len(argv) >= 2 and argv[1] == "table":
        return table()
    if len(argv) == 3 and argv[1] == "passed":
        return 0 if result_of(argv[2]) == "ok" else 1
    if len(argv) >= 5 and argv[1] == "run" and "--" in argv[3:]:
        name, options, command = argv[2], argv[3:argv.index("--")], argv[argv.index("--") + 1:]
        needs = options[1].split(",") if len(options) == 2 and options[0] == "--needs" else []
        if name not in STAGES or (options and not needs) or any(n not in STAGES for n in needs) or not command:
            print(f"stage.py: cannot read {' '.join(argv[1:])}; the stages are {', '.join(STAGES)}", file=sys.stderr)
            return 2
        return run(name, " ".join(command), needs)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
