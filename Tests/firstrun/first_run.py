#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make run` and `make demo` as a new user meets them: no login session
(XDG_RUNTIME_DIR unset), as whoever runs this (root, or an unprivileged
user with a copy of the tree). Each target runs in its own process group
and is stopped with SIGINT, as Ctrl-C in a terminal stops it.

- make run: waits until it prints the commands to try next, runs the
  printed `stylusctl status` exactly as printed from another folder, and
  prints the time from `make run` to that point (a warm build compiles
  nothing).
- make demo: its events are printed once, in one format, the first canvas
  event opens (an empty canvas at every start), and the user's own state
  folder stays empty.
- make install (into a DESTDIR): stripped binaries that run, completions
  for bash, zsh and fish, man pages groff accepts without the hidden
  subcommand, the example configuration, the units; then make uninstall
  with the same DESTDIR and PREFIX leaves no file behind."""
import os
import re
import signal
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import stylustest  # noqa: E402
from daemon import Daemon  # noqa: E402
from stylustest import check  # noqa: E402


class Make:
    """`make TARGET` in its own session, without a login session's variables,
    with state and config folders of the test's (the user's are not the test's)."""

    def __init__(self, target, home, args=""):
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("XDG_RUNTIME_DIR", "STYLUSD_SOCKET", "STYLUSD_RENDERER", "MAKEFLAGS", "MAKELEVEL")}
        self.env["XDG_STATE_HOME"] = os.path.join(home, "state")
        self.env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        self.lines = []
        self.started = time.monotonic()
        self.process = subprocess.Popen(["make", "--no-print-directory", target, f"ARGS={args}"], cwd=ROOT, env=self.env,
                                        start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait_for(self, pattern, seconds=600):
        """The first match of `pattern` in the output, or None at its end."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                return None
            self.lines.append(line.rstrip("\n"))
            match = re.search(pattern, line.rstrip("\n"))
            if match:
                return match
        return None

    def interrupt(self):
        """Ctrl-C: SIGINT to the whole group; returns every line printed."""
        os.killpg(self.process.pid, signal.SIGINT)
        rest, _ = self.process.communicate(timeout=30)
        self.lines += rest.splitlines()
        print("\n".join("  | " + line for line in self.lines))
        check(not any(line.startswith("Usage:") for line in self.lines), "a usage text was printed")
        return self.lines


def test_make_run_without_a_login_session(home):
    make = Make("run", home)
    try:
        match = make.wait_for(r"^\s+(STYLUSD_SOCKET=\S+ \S+/stylusctl status)$")
        check(match, "make run never printed the stylusctl status command")
        command, ready_after = match.group(1), time.monotonic() - make.started
        status = subprocess.run(["sh", "-c", command], cwd="/", capture_output=True, text=True, timeout=20, env=make.env)
        check(status.returncode == 0 and status.stdout.startswith("canvas"),
              f"`{command}` gave {status.returncode}: {status.stdout}{status.stderr}")
        run = os.path.join(ROOT, ".build", "run")
        check(stat.S_IMODE(os.stat(run).st_mode) == 0o700, f"{run} is not 0700")
        # The README's next step: a PNG export, drawn by the renderer built beside the daemon.
        png = os.path.join(home, "first.png")
        exported = subprocess.run(["sh", "-c", command.replace(" status", f" export {png}")], cwd="/", capture_output=True,
                                  text=True, timeout=60, env=make.env)
        with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as f:
            check(exported.returncode == 0 and f.read(8) == b"\x89PNG\r\n\x1a\n",
                  f"`stylusctl export {png}` under make run gave {exported.returncode}: {exported.stdout}{exported.stderr}"
                  " (the renderer is Overlay/.build-static/release/stylus-canvas: make overlay)")
    finally:
        lines = make.interrupt()
    check(any(run in line and "XDG_RUNTIME_DIR" in line for line in lines), "the private runtime folder was not announced")
    check(any("stopping on SIGINT" in line for line in lines), "the daemon did not say it stopped on SIGINT")
    compiled = any("Compiling" in line for line in lines)
    print(f"  make run as uid {os.getuid()}: ready and answering after {ready_after:.1f} s"
          f"{' (it compiled first)' if compiled else ' (nothing compiled)'}; `{command}` works")


def test_make_demo_keeps_to_itself(home):
    # 20 times the recorded pace: the first double presses come within seconds.
    make = Make("demo", home, args="--speed 20")
    try:
        check(make.wait_for(r"Ctrl-C stops the demo"), "make demo never said how to stop it")
        events = []
        while len(events) < 4:
            match = make.wait_for(r"^\d{2}:\d{2}:\d{2}\.\d{3} (canvas|double-press) ", seconds=60)
            check(match, f"make demo printed {len(events)} events and then stopped")
            events.append(make.lines[-1])
    finally:
        lines = make.interrupt()
    canvas = [e for e in events if " canvas " in e]
    check(canvas and "state=opening" in canvas[0], f"the first canvas event does not open an empty canvas: {events}")
    check(not any(line.lstrip().startswith("{") for line in lines), "events were also printed as JSON")
    check(len(set(events)) == len(events), f"an event was printed twice: {events}")
    check(not os.path.exists(os.path.join(home, "state")), "the demo wrote into the user's state folder")
    demo = os.path.join(ROOT, ".build", "demo")
    check(os.path.exists(os.path.join(demo, "state.json")), "the demo's own state was not saved at stop")
    with open(os.path.join(demo, "stylusd.log")) as log:
        check("stopping on SIG" in log.read(), "the demo's daemon did not stop cleanly")
    check(any("make demo: stopped" in line for line in lines), "the demo did not say it stopped")


def test_make_install_into_a_folder(home):
    destdir = os.path.join(home, "root")
    # What an install from before stylusd became its own parser child left: this one replaces it.
    earlier = os.path.join(destdir, "usr", "libexec", "stylusd", "stylusd-parse-config")
    os.makedirs(os.path.dirname(earlier))
    with open(earlier, "w") as f:
        f.write("#!/bin/sh\n")
    r = subprocess.run(["make", "--no-print-directory", "install", f"DESTDIR={destdir}", "PREFIX=/usr"], cwd=ROOT,
                       capture_output=True, text=True, timeout=1200,
                       env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")})
    check(r.returncode == 0, f"make install: {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    usr = os.path.join(destdir, "usr")
    expected = ["bin/stylusd", "bin/stylusctl", "share/man/man1/stylusd.1", "share/man/man1/stylusctl.1", "share/man/man5/stylusd.toml.5",
                "share/doc/stylusd/examples/config.toml", "lib/systemd/user/stylusd.service", "lib/systemd/user/stylusd.socket"]
    for program in ("stylusd", "stylusctl"):
        expected += [f"share/bash-completion/completions/{program}", f"share/zsh/site-functions/_{program}",
                     f"share/fish/vendor_completions.d/{program}.fish"]
    missing = [p for p in expected if not os.path.isfile(os.path.join(usr, p)) or os.path.getsize(os.path.join(usr, p)) == 0]
    check(not missing, f"not installed: {missing}")
    for program in ("stylusd", "stylusctl"):
        path = os.path.join(usr, "bin", program)
        sections = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True).stdout
        check(".symtab" not in sections and ".debug_info" not in sections, f"{program} is not stripped")
        version = subprocess.run([path, "--version"], capture_output=True, text=True)
        check(version.returncode == 0 and version.stdout.strip(), f"the stripped {program} does not run: {version}")
        page = os.path.join(usr, "share/man/man1", f"{program}.1")
        with open(page) as f:
            text = f.read()
        check("parse-config-child" not in text, f"{program}.1 shows the hidden subcommand")
        lint = subprocess.run(["groff", "-mandoc", "-ww", "-z", page], capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        check(lint.returncode == 0 and not lint.stderr, f"{program}.1: {lint.stderr}")
    with open(os.path.join(usr, "share/man/man1/stylusd.1")) as f:
        check("--replay" in f.read(), "stylusd.1 lacks the daemon's options")
    # What `man PAGE` shows once installed, read as man reads it: the sections a user looks for,
    # and the exit statuses the programs really use.
    pages = {"man1/stylus-canvas.1": ("SYNOPSIS", "--version", "ENVIRONMENT", "EXIT STATUS", "FILES", "layer surface"),
             "man1/stylusd.1": ("--replay", "ENVIRONMENT", "FILES", "EXIT STATUS", "78", "stylusd.toml(5)"),
             "man1/stylusctl.1": ("ENVIRONMENT", "EXIT STATUS", "69", "76", "78", "stylusd.toml(5)"),
             "man5/stylusd.toml.5": ("[bindings]", "[precision]", "[output]", "interval_ms", "toggle-canvas", "EXAMPLE")}
    for page, wanted in pages.items():
        # As wide as a paragraph, so that no word is hyphenated across lines.
        shown = subprocess.run(["man", "-l", os.path.join(usr, "share/man", page)], capture_output=True, text=True,
                               env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="1000", LC_ALL="C"))
        text = " ".join(shown.stdout.split())
        missing = [w for w in wanted if w not in text]
        check(shown.returncode == 0 and not missing, f"man -l {page}: status {shown.returncode}, lacks {missing}: {shown.stderr[-300:]}")
    # The installed daemon parses config.toml in a child that is itself (stylusd parse-config-child):
    # a good file starts it, a bad one is refused with its line, and stylusctl finds the same parser.
    check(not os.path.exists(os.path.join(usr, "libexec", "stylusd")), "libexec/stylusd is left or was installed; stylusd is its own parser")
    example = os.path.join(usr, "share/doc/stylusd/examples/config.toml")
    recording = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
    with Daemon([os.path.join(usr, "bin", "stylusd")], os.path.join(home, "daemon"), "--config", example,
                           "--replay", recording) as d:
        check(d.connect().request("status")["result"]["config"]["interval_ms"] > 0, "no configuration in status")
    bad = os.path.join(home, "bad.toml")
    with open(bad, "w") as f:
        f.write("interval_ms = 300\ninterval_ms = 400\n")
    refused = subprocess.run([os.path.join(usr, "bin", "stylusd"), "--config", bad, "--replay", recording,
                              "--socket", os.path.join(home, "bad.sock")],
                             capture_output=True, text=True, timeout=60)
    check(refused.returncode != 0 and "bad.toml:2: " in refused.stderr, f"a bad config.toml: {refused.returncode} {refused.stderr[-500:]}")
    checked = subprocess.run([os.path.join(usr, "bin", "stylusctl"), "config", "check", bad], capture_output=True, text=True, timeout=60)
    check(checked.returncode != 0 and "bad.toml:2: " in checked.stderr, f"stylusctl config check: {checked.returncode} {checked.stderr[-500:]}")
    sizes = {p: os.path.getsize(os.path.join(usr, "bin", p)) >> 20 for p in ("stylusd", "stylusctl")}
    print(f"  installed (stripped): stylusd {sizes['stylusd']} MiB, stylusctl {sizes['stylusctl']} MiB")
    # make uninstall with the same variables takes away every file install put there.
    installed = files_under(destdir)
    check(os.path.join("usr", "bin", "stylus-canvas") in installed and os.path.join("etc", "xdg", "autostart", "stylus-canvas.desktop") in installed,
          f"the canvas was not installed: {sorted(installed)}")
    r = subprocess.run(["make", "--no-print-directory", "uninstall", f"DESTDIR={destdir}", "PREFIX=/usr"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")})
    check(r.returncode == 0, f"make uninstall: {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    left = files_under(destdir)
    check(not left, f"make uninstall left {len(left)} of {len(installed)} files: {sorted(left)}")


def files_under(folder):
    """Every file and symbolic link under folder, relative to it."""
    found = set()
    for parent, _, names in os.walk(folder):
        found.update(os.path.relpath(os.path.join(parent, n), folder) for n in names)
    return found


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    return stylustest.run_tests("first run", [test_make_run_without_a_login_session, test_make_demo_keeps_to_itself,
                                                      test_make_install_into_a_folder], only,
                                fixture=lambda: stylustest.private_directory("stylusd-firstrun-"))


if __name__ == "__main__":
    sys.exit(main())
