#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The canvas on GNOME: the extension stylus-canvas@stylusd inside a headless
GNOME Shell 43 (Wayland, llvmpipe, one 1280x800 virtual monitor, a solid
#208020 background), one shell start for the whole suite. A test-only
extension (Tests/overlay/gnome/stylus-test-helper@stylusd) takes screenshots
with Shell.Screenshot and clicks and types with Clutter virtual devices, on a
Unix socket.

Checked where a user sees it: the recorded strokes' ink on the screen, the
desktop and a fullscreen application visible away from it, the desktop back
after minimize, transitions ended by the extension's ack, clicks that reach the
application in filter mode and do not in observe mode, Escape, a killed daemon,
and the same ink as stylus-canvas draws for the same strokes.

GNOME Shell 43 aborts without a system bus when /run/systemd/seats exists: a
private dbus-daemon stands in. Run as root, the suite runs itself as `nobody`
(stylusd refuses clients of another user), as the layer-shell suite does.

    python3 Tests/overlay/gnome_shell_test.py [--bin DIR] [--canvas FILE] [--extension DIR] [--only NAME]
"""
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import overlay_test as ot  # noqa: E402
import layer_shell_test as lt  # noqa: E402
from stylustest import check, run_tests  # noqa: E402

WIDTH, HEIGHT = 1280, 800
DESKTOP = lt.DESKTOP
APP = lt.APP
UUID = "stylus-canvas@stylusd"
HELPER = "stylus-test-helper@stylusd"
# GNOME's top bar: the extension draws above it, but what is under the ink there is the bar, not the desktop.
TOP_BAR = 40


class GnomeShell:
    """One headless GNOME Shell with the extension and the test helper enabled."""

    def __init__(self, runtime, extension):
        self.runtime = runtime
        home = os.path.join(runtime, "home")
        data = os.path.join(home, ".local", "share", "gnome-shell", "extensions")
        os.makedirs(data)
        shutil.copytree(extension, os.path.join(data, UUID))
        shutil.copytree(os.path.join(HERE, "gnome", HELPER), os.path.join(data, HELPER))
        self.stylusd_socket = os.path.join(runtime, "stylusd-for-shell.sock")
        self.env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL")}
        self.env.update(XDG_RUNTIME_DIR=runtime, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                        XDG_DATA_HOME=os.path.join(home, ".local", "share"), GSETTINGS_BACKEND="keyfile",
                        STYLUSD_SOCKET=self.stylusd_socket, STYLUS_CANVAS_VERBOSE="1", NO_AT_BRIDGE="1")
        system_bus = os.path.join(runtime, "system_bus_socket")
        self.system_bus = subprocess.Popen(["dbus-daemon", "--session", f"--address=unix:path={system_bus}", "--nofork"],
                                           env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={system_bus}"
        settings = [
            ("org.gnome.shell", "enabled-extensions", f"['{UUID}', '{HELPER}']"),
            ("org.gnome.desktop.notifications", "show-banners", "false"),
            ("org.gnome.desktop.background", "picture-uri", "''"),
            ("org.gnome.desktop.background", "picture-uri-dark", "''"),
            ("org.gnome.desktop.background", "picture-options", "'none'"),
            ("org.gnome.desktop.background", "color-shading-type", "'solid'"),
            ("org.gnome.desktop.background", "primary-color", "'#%02x%02x%02x'" % DESKTOP),
        ]
        script = "; ".join(f"gsettings set {s} {k} \"{v}\"" for s, k, v in settings)
        self.log = []
        self.proc = subprocess.Popen(["dbus-run-session", "--", "sh", "-c",
                                      f"{script}; exec gnome-shell --headless --wayland --no-x11 --virtual-monitor {WIDTH}x{HEIGHT}"],
                                     env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        threading.Thread(target=lambda: [self.log.append((time.monotonic(), l.rstrip())) for l in self.proc.stderr],
                         daemon=True).start()
        self.helper = os.path.join(runtime, "stylus-test-helper.sock")
        deadline = time.monotonic() + 60
        while self.command_or_none("ready") != "ready":
            check(time.monotonic() < deadline and self.proc.poll() is None,
                  f"GNOME Shell did not start: {[l for _, l in self.log[-15:]]}")
            time.sleep(0.2)
        self.env["WAYLAND_DISPLAY"] = "wayland-0"
        self.wait_desktop()

    def command_or_none(self, line):
        import socket
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(20)
                s.connect(self.helper)
                s.sendall(line.encode() + b"\n")
                answer = b""
                while not answer.endswith(b"\n"):
                    chunk = s.recv(4096)
                    if not chunk:
                        return None
                    answer += chunk
                return answer.decode().strip()
        except OSError:
            return None

    def command(self, line):
        answer = self.command_or_none(line)
        check(answer == "ok", f"the test helper answered {answer!r} to {line!r}")

    def screenshot(self):
        png = os.path.join(self.runtime, "shot.png")
        self.command(f"screenshot {png}")
        ppm = subprocess.run(["convert", png, "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout
        return ot.parse_ppm(ppm)

    def wait_desktop(self):
        """Until the background shows (the shell paints it after start-up)."""
        deadline = time.monotonic() + 20
        while ot.pixel(self.screenshot(), WIDTH // 2, HEIGHT // 2) != DESKTOP:
            check(time.monotonic() < deadline, f"GNOME never showed its #208020 background: "
                                               f"{ot.pixel(self.screenshot(), WIDTH // 2, HEIGHT // 2)}")
            time.sleep(0.2)

    def wait_log(self, text, timeout, since):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in l and t >= since for t, l in self.log):
                return
            time.sleep(0.02)
        raise ot.Failure(f"the extension never logged {text!r} in {timeout} s: "
                         f"{[l for t, l in self.log if t >= since and 'stylus' in l][-12:]}")

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.system_bus.terminate()
        self.system_bus.wait(5)


SHELL = None


class Daemon:
    """stylusd with the recording's strokes (minimized), behind a proxy at the socket
    the shell was told: the proxy can say the daemon captures the pen (filter mode)."""

    def __init__(self, captures=False, state=None):
        self.root = tempfile.mkdtemp(prefix="stylus-gnome-daemon-")
        os.chmod(self.root, 0o700)
        self.socket = os.path.join(self.root, "stylusd.sock")
        self.state_file = os.path.join(self.root, "state.json")
        shutil.copy(state or ot.drawn_state(), self.state_file)
        self.start()
        since = time.monotonic()
        self.proxy = ot.FilterModeProxy(SHELL.stylusd_socket, self.socket, captures=captures)
        self.watcher = ot.Watcher(self.socket)
        # The extension retries every 5 s at most while no daemon runs.
        SHELL.wait_log("connected", 8, since)

    def start(self):
        self.proc = subprocess.Popen([os.path.join(ot.ARGS.bin, "stylusd"), "--socket", self.socket,
                                      "--state-file", self.state_file, "--transition-ms", "2000"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=dict(os.environ, XDG_RUNTIME_DIR=self.root, XDG_STATE_HOME=self.root,
                                              XDG_CONFIG_HOME=self.root))
        deadline = time.monotonic() + 15
        while not os.path.exists(self.socket):
            check(time.monotonic() < deadline and self.proc.poll() is None, "stylusd did not start")
            time.sleep(0.05)

    def request(self, cmd, **fields):
        c = ot.Client(self.socket)
        try:
            answer = c.request(cmd, **fields)
        finally:
            c.close()
        check(answer.get("ok"), f"{cmd}: {answer}")
        return answer["result"]

    def open_and_wait(self):
        since = time.monotonic()
        n = len(self.watcher.canvas)
        self.request("open")
        self.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "open" and e in self.watcher.canvas[n:], 5, "open")
        SHELL.wait_log("shown", 5, since)
        settle()

    def minimize_and_wait(self):
        since = time.monotonic()
        n = len(self.watcher.canvas)
        self.request("minimize")
        self.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in self.watcher.canvas[n:], 5,
                          "minimized")
        SHELL.wait_log("hidden", 5, since)
        settle()

    def close(self):
        self.proxy.listener.close()
        os.unlink(SHELL.stylusd_socket)
        self.proxy.drop_connections()
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def settle(limit=3.0):
    """Until two screenshots 0.1 s apart agree (the shell painted), at most `limit` s."""
    time.sleep(0.1)
    last = SHELL.screenshot()[2]
    end = time.monotonic() + limit
    while time.monotonic() < end:
        time.sleep(0.1)
        now = SHELL.screenshot()[2]
        if now == last:
            return
        last = now


def below_top_bar(shot):
    w, h, rgb = shot
    return w, h - TOP_BAR, rgb[TOP_BAR * w * 3:]


def ink_and_desktop(shot, strokes, background=DESKTOP):
    """As the sway suite measures: recorded points with ink near them, and the share of
    pixels away from every point that show the background, both below the top bar."""
    return lt.ink_and_background(shot, strokes, background, skip_rows=TOP_BAR)


# ---------------------------------------------------------------- tests

def test_the_extension_shows_the_ink_over_the_desktop_and_minimizes_back_to_it():
    with Daemon() as d:
        strokes = d.request("strokes")["strokes"]
        before = SHELL.screenshot()
        d.open_and_wait()
        shot = SHELL.screenshot()
        if os.environ.get("OVERLAY_LOG"):
            subprocess.run(["convert", "ppm:-", "/var/tmp/gnome-open.png"], input=ppm_bytes(shot), check=True)
        inked, visible, n = ink_and_desktop(shot, strokes)
        check(inked >= 0.90, f"only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the desktop away from the ink is visible")
        if ot.ARGS.screenshot:
            subprocess.run(["convert", "ppm:-", ot.ARGS.screenshot], input=ppm_bytes(shot), check=True)
        d.minimize_and_wait()
        after = SHELL.screenshot()
        same = sum(1 for a, b in zip(below_top_bar(before)[2], below_top_bar(after)[2]) if a == b) / len(below_top_bar(after)[2])
        check(same == 1.0, f"minimized, only {same:.2%} of the desktop below the top bar is back")
        settled = [e for e in d.watcher.states() if e["state"] in ("open", "minimized")]
        check(settled and all(e["cause"] == "ack" for e in settled), f"transitions not ended by the extension: {settled}")
        print(f"  {inked:.1%} of {n} points inked, {visible:.2%} of the desktop visible; minimized: desktop back; "
              f"{len(settled)} transitions acked", flush=True)


def ppm_bytes(shot):
    w, h, rgb = shot
    return f"P6\n{w} {h}\n255\n".encode() + rgb


def main():
    parser = ot.canvas_arguments()
    parser.add_argument("--extension", default=os.path.join(ot.ROOT, ".build-gnome", "43", UUID),
                        help="the GNOME 43 extension folder (make gnome-extension builds it)")
    parser.add_argument("--screenshot", default=None, help="save the open canvas over the desktop here (PNG)")
    args = parser.parse_args()
    missing = [tool for tool in ("gnome-shell", "dbus-run-session", "dbus-daemon", "gsettings", "convert")
               if not shutil.which(tool)]
    check(not missing, f"missing {missing}: make test-overlay installs them")
    check(os.path.exists(os.path.join(args.extension, "extension.js")), f"{args.extension} is not built: make gnome-extension")
    if os.getuid() == 0:
        return lt.as_unprivileged(args, os.path.join("Tests", "overlay", "gnome_shell_test.py"),
                                  copy_extension=args.extension)
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    global SHELL
    runtime = tempfile.mkdtemp(prefix="stylus-gnome-")
    os.chmod(runtime, 0o700)
    try:
        SHELL = GnomeShell(runtime, args.extension)
        return run_tests("overlay-gnome", [
            test_the_extension_shows_the_ink_over_the_desktop_and_minimizes_back_to_it,
        ], only=args.only)
    finally:
        if SHELL:
            SHELL.close()
            if os.environ.get("OVERLAY_LOG"):
                print("\n".join(l for _, l in SHELL.log), file=sys.stderr)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
