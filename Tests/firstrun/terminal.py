#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylusctl's full-screen commands as a user sees them, in a real terminal:
tmux (80x24) runs them against a daemon replaying a bundled recording, and
the checks read the screen (capture-pane) and type keys (send-keys).

    python3 Tests/firstrun/terminal.py --bin .build-static/release [--only NAME]"""
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
RECORDING = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
BIN = None


class Terminal:
    """A detached tmux server of its own (its socket under `root`) with one
    80x24 window running a plain shell."""

    def __init__(self, root, env):
        self.socket = os.path.join(root, "tmux.sock")
        self.root = root
        shell_env = " ".join(f"{k}={v}" for k, v in env.items())
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t",
                  f"env -i PATH={os.environ['PATH']} HOME={root} TERM=xterm-256color PS1='$ ' {shell_env} bash --norc --noprofile")
        self.wait_for(r"^\$", seconds=10)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=10)

    def type(self, *keys):
        self.tmux("send-keys", "-t", "t", *keys)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-J", "-t", "t").stdout

    def show(self, fmt):
        return self.tmux("display-message", "-p", "-t", "t", fmt).stdout.strip()

    def wait_for(self, pattern, seconds=30):
        """The screen once `pattern` (a regex, multiline) is on it."""
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            match = re.search(pattern, screen, re.M)
            if match:
                return match
            time.sleep(0.1)
        raise stylustest.Failure(f"not on screen after {seconds} s: {pattern!r}; the screen:\n{screen}")

    def close(self):
        self.tmux("kill-server")


def replaying_daemon(root, *args, recording=RECORDING):
    return Daemon([os.path.join(BIN, "stylusd")], root, "--replay", recording, *args)


def test_monitor_shows_the_pen_buttons_and_double_presses_and_gives_the_terminal_back(root):
    with replaying_daemon(root, "--loop", "--speed", "2") as d:
        term = Terminal(root, {"STYLUSD_SOCKET": d.socket})
        try:
            term.type("echo before-the-monitor", "Enter")
            term.wait_for(r"^before-the-monitor$")
            frames = os.path.join(root, "frames.bin")
            term.tmux("pipe-pane", "-t", "t", "-o", f"cat >> {frames}")
            term.type(os.path.join(BIN, "stylusctl") + " monitor", "Enter")
            term.wait_for(r"^stylusctl monitor · connected")
            check(term.show("#{alternate_on}") == "1", "the monitor does not draw on the alternate screen")
            term.wait_for(r"^Devices +1 Wacom Cintiq 22HDT Pen \(recording\) \[pen\]")
            term.wait_for(r"^Tool +pen, serial 0x[0-9a-f]+, device 1, in proximity")
            # Pressure as a bar with the precision threshold (0.6 by default) in it, while the tip is down.
            pressed = term.wait_for(r"^Pressure +\[(#+)[#.]*\|[.]*\] (0\.\d{3})\n.*precision threshold 0\.60", seconds=40)
            check(float(pressed.group(2)) > 0, f"pressure {pressed.group(2)} with a filled bar")
            term.wait_for(r"^Tip +down")
            term.wait_for(r"^Tilt +x [+-]\d+\.\d°  y [+-]\d+\.\d°")
            term.wait_for(r"^Canvas +(open|minimized|opening|minimizing), \d+ strokes?")
            term.wait_for(r"^Precision +disabled, inactive, scale \d\.\d\d")
            # The recording's 460 ms double press and the press 577 ms after a single one (77 ms too late).
            term.wait_for(r"BTN_STYLUS +\d+ ms  double press, \d+ ms inside 500 ms$", seconds=60)
            missed = term.wait_for(r"BTN_STYLUS +(\d+) ms  MISSED: (\d+) ms past 500 ms$", seconds=60)
            check(int(missed.group(1)) - 500 == int(missed.group(2)), f"gap {missed.group(1)} ms and 'past by' {missed.group(2)} ms disagree")
            screen = term.screen().split("\n")
            check(screen[0].startswith("stylusctl monitor"), f"the view scrolled in 80x24: {screen[:2]}")
            check(all(len(line) <= 80 for line in screen), "a line wider than 80 columns")
            # A smaller terminal (SIGWINCH): the view is redrawn to its size, nothing wraps.
            term.tmux("resize-window", "-t", "t", "-x", "60", "-y", "16")
            term.wait_for(r"^Last presses")
            time.sleep(0.3)
            small = term.screen().rstrip("\n").split("\n")
            check(small[0].startswith("stylusctl monitor") and all(len(line) <= 60 for line in small),
                  "at 60x16: " + repr(small))
            term.tmux("resize-window", "-t", "t", "-x", "80", "-y", "24")
            # At most 30 redraws a second: any 6 s of the recording (3 s at 2x) hold at least 300 pen
            # frames, so a redraw per event would be far over the 92 allowed here. `ESC [ H` starts each frame.
            before = open(frames, "rb").read().count(b"\x1b[H")
            time.sleep(3)
            drawn = open(frames, "rb").read().count(b"\x1b[H") - before
            check(0 < drawn <= 3 * 30 + 2, f"{drawn} redraws in 3 s")
            # Ctrl-Z gives the shell its terminal while the monitor is stopped; fg brings the view back.
            term.type("C-z")
            term.wait_for(r"Stopped")
            check(term.show("#{alternate_on}") == "0", "the alternate screen is still on after Ctrl-Z")
            term.type("fg", "Enter")
            term.wait_for(r"^stylusctl monitor · connected")
            check(term.show("#{alternate_on}") == "1", "fg did not bring the monitor's screen back")
            term.type("C-c")
            term.wait_for(r"^before-the-monitor$")
            term.wait_for(r"^\$ ?$")
            check(term.show("#{alternate_on}") == "0", "the alternate screen is still on after Ctrl-C")
            check(term.show("#{cursor_flag}") == "1", "the cursor is still hidden after Ctrl-C")
            term.type("stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo status=$?", "Enter")
            term.wait_for(r"^icanon echo status=0")
            print(f"  {drawn} redraws in 3 s of a 2x replay")
        finally:
            term.close()


def test_monitor_q_quits_and_no_daemon_is_said_before_the_screen_is_taken(root):
    term = Terminal(root, {"STYLUSD_SOCKET": os.path.join(root, "none.sock")})
    try:
        term.type(os.path.join(BIN, "stylusctl") + " monitor; echo exit=$?", "Enter")
        term.wait_for(r"stylusd is not running")
        term.wait_for(r"^exit=69$")
    finally:
        term.close()
    with replaying_daemon(root) as d:
        term = Terminal(root, {"STYLUSD_SOCKET": d.socket})
        try:
            term.type(os.path.join(BIN, "stylusctl") + " monitor; echo exit=$?", "Enter")
            term.wait_for(r"^stylusctl monitor · connected")
            term.type("q")
            term.wait_for(r"^exit=0$")
            check(term.show("#{alternate_on}") == "0", "the alternate screen is still on after q")
        finally:
            term.close()


CALIBRATION = os.path.join(ROOT, "Tests", "Fixtures", "calibration", "BTN_STYLUS-calibration.events")
USER_CONFIG = """# my own notes, kept
preset = "default"
interval_ms = 500   # what I had
debounce_ms = 20

[bindings]
BTN_STYLUS = "toggle-canvas"   # keep this
"""


def test_calibrate_proposes_the_widest_margin_writes_it_keeping_the_file_and_reloads(root):
    # Recorded presses: doubles 280-345 ms apart, singles at least 850 ms apart; the middle is 598 ms.
    # The user's file lives in a dotfiles folder, 0600, linked from where stylusd reads it.
    config = os.path.join(root, "config", "stylusd", "config.toml")
    real = os.path.join(root, "dotfiles", "stylusd.toml")
    os.makedirs(os.path.dirname(config))
    os.makedirs(os.path.dirname(real))
    with open(real, "w") as f:
        f.write(USER_CONFIG)
    os.chmod(real, 0o600)
    os.symlink(real, config)
    with replaying_daemon(root, recording=CALIBRATION) as d:
        term = Terminal(root, {"STYLUSD_SOCKET": d.socket, "XDG_CONFIG_HOME": os.path.join(root, "config")})
        try:
            term.type(os.path.join(BIN, "stylusctl") + " calibrate; echo exit=$?", "Enter")
            term.wait_for(r"^Step 1 of 2: double-press BTN_STYLUS 4 times")
            term.wait_for(r"^  double press 4: 300 ms$", seconds=30)
            term.wait_for(r"^Step 2 of 2: press BTN_STYLUS 5 times")
            term.wait_for(r"^  single press 5: 880 ms after the one before$", seconds=30)
            term.wait_for(r"^Your double presses took up to 345 ms;\nyour single presses came at least 850 ms apart\.")
            term.wait_for(r"^Proposed interval: 598 ms \(252 ms from each; now 500 ms\)\.")
            term.wait_for(r"^Write interval_ms = 598 to " + re.escape(config) + r"\nand reload stylusd\? \[y/N\]")
            term.type("y", "Enter")
            term.wait_for(r"^Written; stylusd reloaded it: interval now 598 ms\.", seconds=15)
            term.wait_for(r"^exit=0$")
        finally:
            term.close()
        check(os.path.islink(config) and os.readlink(config) == real, "the link to the user's file was replaced")
        check(os.stat(real).st_mode & 0o777 == 0o600, f"the file's mode became {oct(os.stat(real).st_mode & 0o777)}")
        check(sorted(os.listdir(os.path.dirname(real))) == ["stylusd.toml"], "a temporary file was left behind")
        with open(config) as f:
            written = f.read()
        check(written == USER_CONFIG.replace("interval_ms = 500   # what I had", "interval_ms = 598  # what I had"),
              f"the file is not the user's with only interval_ms changed:\n{written}")
        status = d.connect().request("status")["result"]
        check(status["config"]["interval_ms"] == 598 and status["config"]["debounce_ms"] == 20, f"the daemon's config: {status['config']}")


def test_calibrate_explains_an_overlap_and_writes_nothing(root):
    # Recorded presses: a 620 ms double press and two single presses 560 ms apart.
    config = os.path.join(root, "config", "stylusd", "config.toml")
    with replaying_daemon(root, recording=os.path.join(os.path.dirname(CALIBRATION), "BTN_STYLUS-overlap.events")) as d:
        term = Terminal(root, {"STYLUSD_SOCKET": d.socket, "XDG_CONFIG_HOME": os.path.join(root, "config")})
        try:
            term.type(os.path.join(BIN, "stylusctl") + " calibrate; echo exit=$?", "Enter")
            term.wait_for(r"^  double press 2: 620 ms$", seconds=30)
            term.wait_for(r"^  single press 2: 560 ms after the one before$", seconds=30)
            term.wait_for(r"^Your double presses took up to 620 ms;\nyour single presses came at least 560 ms apart\.", seconds=30)
            term.wait_for(r"^They overlap: no interval counts all your double presses and none of your single")
            term.wait_for(r"^Nothing was written\.")
            term.wait_for(r"^exit=1$")
            check("[y/N]" not in term.screen(), "asked to write although nothing separates the presses")
        finally:
            term.close()
        check(not os.path.exists(config), "a config file was written")
        check(d.connect().request("status")["result"]["config"]["interval_ms"] == 500, "the interval changed")


def test_calibrate_without_a_pen_says_what_it_waits_for(root):
    # A daemon with no pen (no /dev/input here, or none readable): calibrate says so, and waits.
    with Daemon([os.path.join(BIN, "stylusd")], root) as d:
        term = Terminal(root, {"STYLUSD_SOCKET": d.socket, "XDG_CONFIG_HOME": os.path.join(root, "config")})
        try:
            term.type(os.path.join(BIN, "stylusctl") + " calibrate; echo exit=$?", "Enter")
            term.wait_for(r"^No pen is connected \(.+\): this waits until one is and BTN_STYLUS is pressed\.$", seconds=15)
            term.type("C-c")
            term.wait_for(r"^\^C\n\$", seconds=10)   # stopped, the shell's prompt back (Ctrl-C ends the whole line)
        finally:
            term.close()


TESTS = [test_monitor_shows_the_pen_buttons_and_double_presses_and_gives_the_terminal_back,
         test_monitor_q_quits_and_no_daemon_is_said_before_the_screen_is_taken,
         test_calibrate_proposes_the_widest_margin_writes_it_keeping_the_file_and_reloads,
         test_calibrate_explains_an_overlap_and_writes_nothing, test_calibrate_without_a_pen_says_what_it_waits_for]


def use_binaries(folder):
    global BIN
    BIN = folder
    if shutil.which("tmux") is None:
        sys.exit("terminal.py: tmux is not installed (make test installs it with the test packages)")


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("terminal", TESTS, "stylusd-terminal-", use_binaries))
