#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a new user trips over after the first hour (issue 40): canvas verbs
in a script need no sleeps (they wait for the transition they start or meet),
`config check` with no config file, a "did you mean" for a config key, ranges
written one way, no protocol code in stylusctl's errors, and the man pages as
`man -l` renders them. Processes only. Prints 'N passed, N failed'.

    python3 Tests/firstrun/second_hour.py --bin .build-static/release [--only NAME]"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import stylustest  # noqa: E402
from daemon import Daemon  # noqa: E402
from stylustest import check  # noqa: E402
BIN = None
TRANSITION_MS = 800
# Long enough that a command sent right after another meets its transition, on a busy machine too.
MET_MS = 2500
# What stylusctl allows beyond transition_ms before it gives up (TransitionWait.slackMS), and this machine's start-up.
SLACK_S = 2 + 3


def daemon(root, transition_ms=TRANSITION_MS, env=None):
    return Daemon([os.path.join(BIN, "stylusd")], root, "--transition-ms", str(transition_ms), env=env)


def ctl(d, *args):
    started = time.monotonic()
    r = subprocess.run([os.path.join(BIN, "stylusctl"), *args], env=d.env, capture_output=True, text=True, timeout=30)
    r.seconds = time.monotonic() - started
    return r


def state_line(r):
    match = re.search(r"^canvas +(\S+)", r.stdout, re.M)
    return match.group(1) if match else None


def test_toggle_twice_waits_for_each_transition_and_prints_the_state_reached(root):
    with daemon(root) as d:
        first, second = ctl(d, "toggle"), ctl(d, "toggle")
        check(first.returncode == 0 and state_line(first) == "open", f"toggle: {first.returncode} {first.stdout!r} {first.stderr!r}")
        check(second.returncode == 0 and state_line(second) == "minimized", f"toggle again: {second.returncode} {second.stdout!r} {second.stderr!r}")
        check(TRANSITION_MS / 1000 * 0.8 <= first.seconds < TRANSITION_MS / 1000 + SLACK_S, f"the first toggle took {first.seconds:.2f} s")
        opened = ctl(d, "open", "--json")
        result = json.loads(opened.stdout)
        check(opened.returncode == 0 and result["canvas"]["state"] == "open" and result["changed"] is True, f"open --json: {opened.stdout!r}")


def test_a_verb_that_meets_a_transition_waits_for_it_and_is_sent_again(root):
    with daemon(root, MET_MS) as d:
        started = ctl(d, "open", "--no-wait")
        check(started.returncode == 0 and state_line(started) == "opening", f"open --no-wait: {started.stdout!r} {started.stderr!r}")
        # The daemon refuses a toggle while the canvas opens; without --no-wait stylusctl waits it out.
        refused = ctl(d, "toggle", "--no-wait")
        check(refused.returncode == 3 and "a toggle waits until the transition ends" in refused.stderr, f"toggle --no-wait: {refused.returncode} {refused.stderr!r}")
        toggled = ctl(d, "toggle")
        check(toggled.returncode == 0 and state_line(toggled) == "minimized", f"toggle: {toggled.returncode} {toggled.stdout!r} {toggled.stderr!r}")
        ctl(d, "open", "--no-wait")
        discarded = ctl(d, "discard")
        check(discarded.returncode == 0 and state_line(discarded) == "minimized", f"open; discard: {discarded.returncode} {discarded.stdout!r} {discarded.stderr!r}")
        ctl(d, "minimize", "--no-wait")
        opened = ctl(d, "open")
        check(opened.returncode == 0 and state_line(opened) == "open", f"minimize; open: {opened.returncode} {opened.stdout!r} {opened.stderr!r}")


def test_open_then_submit_is_not_refused(root):
    # The PNG is drawn by stylus-canvas: where it is not built the submit may fail for that, never for the transition.
    canvas = os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas")
    env = {"STYLUSD_RENDERER": canvas} if os.access(canvas, os.X_OK) else {}
    with daemon(root, MET_MS, env=dict(env, XDG_PICTURES_DIR=os.path.join(root, "pictures"))) as d:
        # A board, so the drawing is a picture: an empty canvas without one is refused, "nothing to submit".
        check(ctl(d, "background", "white").returncode == 0, "stylusctl background white")
        opened = ctl(d, "open")
        check(opened.returncode == 0 and state_line(opened) == "open", f"open: {opened.stdout!r} {opened.stderr!r}")
        submitted = ctl(d, "submit")
        check("transition" not in submitted.stderr, f"submit after open: {submitted.stderr!r}")
        if env:
            check(submitted.returncode == 0 and state_line(submitted) == "minimized", f"submit: {submitted.returncode} {submitted.stdout!r} {submitted.stderr!r}")
        ctl(d, "open", "--no-wait")
        met = ctl(d, "submit")
        check("transition" not in met.stderr, f"submit while opening: {met.stderr!r}")


def run(*args, env=None):
    return subprocess.run([os.path.join(BIN, "stylusctl"), *args], capture_output=True, text=True, timeout=30, env=env)


def test_config_check_without_a_config_file_says_the_defaults_are_in_effect(root):
    r = run("config", "check", env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(root, "empty")))
    path = os.path.join(root, "empty", "stylusd", "config.toml")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stdout!r} {r.stderr!r}")
    check(path in r.stdout and "defaults" in r.stdout, f"{r.stdout!r}")
    # A file named on the command line that is not there is still an error.
    r = run("config", "check", path)
    check(r.returncode == 78 and "No such file" in r.stderr, f"named: {r.returncode} {r.stderr!r}")


def test_an_unknown_config_key_gets_the_nearest_known_one(root):
    path = os.path.join(root, "config.toml")
    with open(path, "w") as f:
        f.write("intervall_ms = 400\ndebounce = 20\n[precision]\nminimum_scal = 0.5\n")
    r = run("config", "check", path)
    check(r.returncode == 78, f"exit {r.returncode}")
    for key, near in (("intervall_ms", "interval_ms"), ("debounce", "debounce_ms"), ("precision.minimum_scal", "minimum_scale")):
        check(re.search(rf"{re.escape(key)}: unknown key; did you mean \"{near}\"\?", r.stderr), f"{key}: {r.stderr!r}")


def test_ranges_are_written_with_a_hyphen_in_errors(root):
    path = os.path.join(root, "config.toml")
    with open(path, "w") as f:
        f.write("interval_ms = 5000\n")
    r = run("config", "check", path)
    check(r.returncode == 78 and "5000 ms is outside 150-1000 ms" in r.stderr, f"{r.stderr!r}")
    r = subprocess.run([os.path.join(BIN, "stylusd"), "--interval-ms", "100"], capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, XDG_RUNTIME_DIR=root))
    check(r.returncode != 0 and "150-1000 ms" in r.stderr and "..." not in r.stderr, f"stylusd: {r.stderr!r}")


def test_a_path_error_leaks_no_protocol_code(root):
    with Daemon([os.path.join(BIN, "stylusd")], root) as d:
        r = ctl(d, "export", os.path.join(root, "no-such-folder", "x.svg"))
        check(r.returncode == 3 and "no-such-folder" in r.stderr, f"{r.returncode} {r.stderr!r}")
        check("bad-request" not in r.stderr and "failed:" not in r.stderr, f"{r.stderr!r}")


def rendered(page):
    r = subprocess.run(["man", "-l", page], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0", PAGER="cat"))
    check(r.returncode == 0, f"man -l {page}: {r.stderr}")
    return re.sub(r".\x08", "", r.stdout)


def test_man_pages_have_one_exit_status_files_and_no_markdown(root):
    if not shutil.which("man"):
        check(False, "man is not installed (man-db; make deps-test installs it)")
    out = os.path.join(root, "man1")
    r = subprocess.run([os.path.join(ROOT, "tools", "man.sh"), BIN, out], capture_output=True, text=True, timeout=900)
    check(r.returncode == 0, f"tools/man.sh: {r.stderr[-2000:]}")
    for program in ("stylusctl", "stylusd"):
        lint = subprocess.run(["groff", "-mandoc", "-ww", "-z", os.path.join(out, f"{program}.1")], capture_output=True, text=True,
                              env=dict(os.environ, LC_ALL="C"))
        check(lint.returncode == 0 and not lint.stderr, f"groff warns about {program}.1: {lint.stderr[-1000:]}")
    stylusctl, stylusd = rendered(os.path.join(out, "stylusctl.1")), rendered(os.path.join(out, "stylusd.1"))
    for name, text in (("stylusctl", stylusctl), ("stylusd", stylusd)):
        headings = re.findall(r"^([A-Z][A-Z ]+)$", text, re.M)
        check(headings.count("EXIT STATUS") == 1, f"{name}(1) has {headings.count('EXIT STATUS')} EXIT STATUS sections: {headings}")
        check("FILES" in headings, f"{name}(1) has no FILES section: {headings}")
        check("`" not in text, f"{name}(1) shows Markdown backticks: {[l for l in text.splitlines() if '`' in l][:3]}")
    files = stylusctl.split("\nFILES\n", 1)[1].split("\nEXIT STATUS\n", 1)[0]
    check("stylusd.sock" in files and "config.toml" in files, f"stylusctl(1)'s FILES: {files!r}")
    synopsis = stylusd.split("\nSYNOPSIS\n", 1)[1].split("\n\n", 1)[0]
    check("[subcommand]" in synopsis, f"stylusd(1)'s SYNOPSIS: {synopsis!r}")


TESTS = [test_toggle_twice_waits_for_each_transition_and_prints_the_state_reached,
         test_a_verb_that_meets_a_transition_waits_for_it_and_is_sent_again,
         test_open_then_submit_is_not_refused,
         test_config_check_without_a_config_file_says_the_defaults_are_in_effect,
         test_an_unknown_config_key_gets_the_nearest_known_one,
         test_ranges_are_written_with_a_hyphen_in_errors,
         test_a_path_error_leaks_no_protocol_code,
         test_man_pages_have_one_exit_status_files_and_no_markdown]


def use_binaries(folder):
    global BIN
    BIN = folder


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("second hour", TESTS, "stylusd-second-hour-", use_binaries))
