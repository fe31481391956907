#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The canvas on GNOME: the extension stylus-canvas@stylusd inside a headless
GNOME Shell 43 (Wayland, llvmpipe, one 1280x800 virtual monitor, a solid
#208020 background), one shell start for the whole suite; GNOME Shell 48 with
--extension .build-gnome/45/... in the Debian 13 root of Tests/desktops, and
with --system-wide on what the Debian package installed there (the copy its
selector put in /usr/share/gnome-shell/extensions, as a user gets it). A
test-only extension (Tests/overlay/gnome/stylus-test-helper@stylusd, made an ES
module on GNOME 45 and later) takes screenshots with Shell.Screenshot, clicks
and types with Clutter virtual devices and places windows, on a Unix socket.

Checked where a user sees it: the recorded strokes' ink on the screen, the
desktop and a fullscreen application visible away from it, the desktop back
after minimize, transitions ended by the extension's ack, clicks that reach the
application with `[canvas] pointer = "pass"` in filter mode and do not in observe
mode, mouse and touch strokes drawn and recorded by default, a snapshot against the
Shell's own screenshot, the clipboard against `export`, Escape and every default
key, the boards, a killed daemon, the same ink as stylus-canvas draws for the
same strokes, and the README's picture (scene.py over two foot terminals).

GNOME Shell 43 aborts without a system bus when /run/systemd/seats exists: a
private dbus-daemon stands in. Run as root, the suite runs itself as `nobody`
(stylusd refuses clients of another user), as the layer-shell suite does.

    python3 Tests/overlay/gnome_shell_test.py [--bin DIR] [--canvas FILE] [--extension DIR [--system-wide]] [--tools DIR]
                                              [--only NAME] [--screenshot docs/images/canvas-gnome.png]
"""
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
import overlay_test as ot  # noqa: E402  (puts Tests/support on sys.path)
import layer_shell_test as lt  # noqa: E402
from daemon import Daemon as StylusdDaemon  # noqa: E402
from stylustest import check, run_tests  # noqa: E402

WIDTH, HEIGHT = 1280, 800
DESKTOP = lt.DESKTOP
APP = lt.APP
UUID = "stylus-canvas@stylusd"
HELPER = "stylus-test-helper@stylusd"
# GNOME's top bar: the extension draws above it, but what is under the ink there is the bar, not the desktop.
TOP_BAR = 40
POINTER_PASS = '[canvas]\npointer = "pass"\n'
# The daemon's device ids of the canvas's own sources (docs/PROTOCOL.md, `draw`).
POINTER_DEVICE, TOUCH_DEVICE = 4294967294, 4294967295
BLUE = (0x34, 0x65, 0xa4)


class GnomeShell:
    """One headless GNOME Shell with the extension and the test helper enabled."""

    def __init__(self, runtime, extension, env=None, system_wide=False):
        """`system_wide`: GNOME finds `extension` where it is installed; otherwise a copy in the user's folder."""
        self.runtime = runtime
        home = os.path.join(runtime, "home")
        data = os.path.join(home, ".local", "share", "gnome-shell", "extensions")
        os.makedirs(data)
        self.extension = os.path.realpath(extension) if system_wide else os.path.join(data, UUID)
        if not system_wide:
            shutil.copytree(extension, self.extension)
        install_helper(os.path.join(data, HELPER))
        self.stylusd_socket = os.path.join(runtime, "stylusd-for-shell.sock")
        self.env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL")}
        self.env.update(XDG_RUNTIME_DIR=runtime, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                        XDG_DATA_HOME=os.path.join(home, ".local", "share"), GSETTINGS_BACKEND="keyfile",
                        STYLUSD_SOCKET=self.stylusd_socket, STYLUS_CANVAS_VERBOSE="1", NO_AT_BRIDGE="1")
        self.env.update(env or {})
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
                                      f"{script}; echo \"$DBUS_SESSION_BUS_ADDRESS\" > {runtime}/session-bus; "
                                      f"exec gnome-shell --headless --wayland --no-x11 --virtual-monitor {WIDTH}x{HEIGHT}"],
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
        self.env["XDG_CURRENT_DESKTOP"] = "GNOME"
        with open(os.path.join(runtime, "session-bus")) as f:
            self.env["DBUS_SESSION_BUS_ADDRESS"] = f.read().strip()
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


def shell_major():
    out = subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.", out)
    return int(m.group(1)) if m else 0


def install_helper(folder):
    """The test helper as this GNOME Shell loads it: as written for 43-44, or (45 and later,
    which load extensions as ES modules only) the same code with imports and a default export."""
    source = os.path.join(HERE, "gnome", HELPER)
    major = shell_major()
    if major < 45:
        shutil.copytree(source, folder)
        return
    os.makedirs(folder)
    with open(os.path.join(source, "extension.js")) as f:
        code = f.read()
    header = ("import GLib from 'gi://GLib';\nimport Gio from 'gi://Gio';\nimport Clutter from 'gi://Clutter';\n"
              "import Shell from 'gi://Shell';\nimport St from 'gi://St';\nimport * as Main from 'resource:///org/gnome/shell/ui/main.js';\n"
              "import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';\n")
    code = code.replace("const {GLib, Gio, Clutter, Shell, St} = imports.gi;\nconst Main = imports.ui.main;\n", header)
    # Mutter 47 and later: the backend is the stage's context's (Clutter.get_default_backend is gone).
    code = code.replace("Clutter.get_default_backend()",
                        "(global.stage.context ? global.stage.context.get_backend() : Clutter.get_default_backend())")
    code = code.replace("function init() {\n    return new TestHelper();\n}\n",
                        "export default class extends Extension {\n"
                        "    enable() {\n        this.helper = new TestHelper();\n        this.helper.enable();\n    }\n\n"
                        "    disable() {\n        this.helper.disable();\n        this.helper = null;\n    }\n}\n")
    check("imports." not in code and "export default" in code, "the test helper's 43 source no longer converts to an ES module")
    with open(os.path.join(folder, "extension.js"), "w") as f:
        f.write(code)
    with open(os.path.join(source, "metadata.json")) as f:
        metadata = json.load(f)
    metadata["shell-version"] = [str(major)]
    with open(os.path.join(folder, "metadata.json"), "w") as f:
        json.dump(metadata, f)


class Daemon(ot.CanvasSession):
    """stylusd with the recording's strokes (minimized), behind a proxy at the socket
    the shell was told: the proxy can say the daemon captures the pen (filter mode)."""

    def __init__(self, captures=False, state=None, extension=True, replay=False, recording=None, config=None):
        """`recording`: replayed at its own pace instead of the bundled one at 2x; `config`: config.toml's text."""
        self.replay = replay or recording is not None
        self.recording = recording
        self.root = tempfile.mkdtemp(prefix="stylus-gnome-daemon-")
        os.chmod(self.root, 0o700)
        if config:
            os.makedirs(os.path.join(self.root, "stylusd"))
            with open(os.path.join(self.root, "stylusd", "config.toml"), "w") as f:
                f.write(config)
        self.socket = os.path.join(self.root, "stylusd.sock")
        self.state_file = os.path.join(self.root, "state.json")
        if not self.replay:
            shutil.copy(state or ot.drawn_state(), self.state_file)
        self.start()
        since = time.monotonic()
        self.proxy = ot.FilterModeProxy(SHELL.stylusd_socket, self.socket, captures=captures)
        try:
            self.watcher = ot.Watcher(self.socket)
            # The extension retries every 5 s at most while no daemon runs.
            if extension:
                SHELL.wait_log("connected", 8, since)
        except BaseException:
            self.close()   # the shell's socket path is free again for the next test
            raise

    def start(self):
        """stylusd with its directories all `root`, once its socket exists; `proc` is its process."""
        self.proc = StylusdDaemon([os.path.join(ot.ARGS.bin, "stylusd")], self.root, *self.arguments(), runtime=self.root,
                                  state=self.root, config=self.root, log=False, ready="socket").proc

    def arguments(self):
        return ["--socket", self.socket, "--state-file", self.state_file, "--transition-ms", "2000",
                *(["--replay", self.recording or ot.RECORDING, "--speed", "1" if self.recording else ot.SPEED]
                  if self.replay else [])]

    def wait_shown(self, since):
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


@contextlib.contextmanager
def canvas_renderer():
    """While inside: the daemon's export draws its PNG with the canvas's renderer (STYLUSD_RENDERER)."""
    renderer = os.environ.get("STYLUSD_RENDERER")
    os.environ["STYLUSD_RENDERER"] = ot.ARGS.canvas
    try:
        yield
    finally:
        if renderer is None:
            os.environ.pop("STYLUSD_RENDERER")
        else:
            os.environ["STYLUSD_RENDERER"] = renderer


def empty_state():
    import scene
    return scene.empty_state(ot.ARGS.scratch)


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
        # The open canvas's frame ([canvas] indicator's default) in the current colour, below the top bar.
        colour = d.request("status")["tool"]["color"]
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        opacity = ot.canvas_spec.spec()["constants"]["indicator"]["frameOpacity"]
        want = tuple(round(c * opacity + b * (1 - opacity)) for c, b in zip(rgb, DESKTOP))
        frame = [(x, y) for x0, y0, w, h in ot.canvas_spec.indicator_rects("frame", WIDTH, HEIGHT)
                 for y in range(int(y0), int(y0 + h)) for x in range(int(x0), int(x0 + w)) if y >= TOP_BAR]
        matching = sum(1 for x, y in frame if all(abs(a - b) <= 6 for a, b in zip(ot.pixel(shot, x, y), want)))
        check(matching >= 0.99 * len(frame), f"the frame: only {matching} of {len(frame)} pixels below the top bar are {colour} at {opacity}")
        d.minimize_and_wait()
        after = SHELL.screenshot()
        same = sum(1 for a, b in zip(below_top_bar(before)[2], below_top_bar(after)[2]) if a == b) / len(below_top_bar(after)[2])
        check(same == 1.0, f"minimized, only {same:.2%} of the desktop below the top bar is back")
        settled = [e for e in d.watcher.states() if e["state"] in ("open", "minimized")]
        check(settled and all(e["cause"] == "ack" for e in settled), f"transitions not ended by the extension: {settled}")
        # The area the tablet maps to, for an export given no size: the virtual monitor.
        # With which copy runs on which GNOME (stylusctl status's line: test_gnome_runs_the_extension_…).
        overlay = d.request("status").get("overlay")
        check({k: v for k, v in (overlay or {}).items() if k not in ("variant", "shell")}
              == {"backend": "gnome-extension", "outputs": 1, "width": WIDTH, "height": HEIGHT}
              and overlay.get("variant") == str(min(metadata_versions(SHELL.extension)))
              and (overlay.get("shell") or "").split(".")[0] == str(shell_major()), f"status's overlay: {overlay}")
        # Minimized, the tiles keep their strokes but drop their pixels: opening paints them
        # again, with what changed meanwhile (an undo of the last stroke).
        d.request("undo")
        left = d.request("strokes")["strokes"]
        check(len(left) == len(strokes) - 1, f"{len(left)} strokes after an undo of one of {len(strokes)}")
        d.open_and_wait()
        reopened = SHELL.screenshot()
        inked_again, _, _ = ink_and_desktop(reopened, left)
        kept = ot.screen_points(left, WIDTH, HEIGHT)
        undone = [(x, y) for x, y in ot.screen_points(strokes[-1:], WIDTH, HEIGHT)
                  if y >= TOP_BAR + 3 and all(abs(x - kx) > 15 or abs(y - ky) > 15 for kx, ky in kept)]
        still = sum(1 for p in undone if ot.red_ink_near(reopened, *p))
        check(inked_again >= 0.90, f"opened again, only {inked_again:.1%} of the strokes left inked")
        check(len(undone) >= 5 and still == 0,
              f"opened again, {still} of {len(undone)} points of the stroke undone while minimized inked (at least 5 to check)")
        d.minimize_and_wait()
        again = below_top_bar(SHELL.screenshot())[2]
        check(again == below_top_bar(before)[2], "minimized again, the desktop is not all back")
        print(f"  {inked:.1%} of {n} points inked, {visible:.2%} of the desktop visible; minimized: desktop back; "
              f"{len(settled)} transitions acked; an undo while minimized shows on opening ({inked_again:.1%} inked, "
              f"{len(undone)} points of the undone stroke clear)", flush=True)


class App:
    """The fullscreen GTK 4 application of the sway suite, on GNOME, printing the clicks it gets."""

    def __init__(self):
        self.lines = []
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "wayland", "app.py"), "--fullscreen"],
                                     env=dict(SHELL.env, GDK_BACKEND="wayland", GSK_RENDERER="cairo"),
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=lambda: [self.lines.append(l.strip()) for l in self.proc.stdout], daemon=True).start()
        deadline = time.monotonic() + 15
        while ot.pixel(SHELL.screenshot(), WIDTH // 2, 5) != APP:
            check(time.monotonic() < deadline and self.proc.poll() is None, f"the fullscreen application never showed: {self.lines}")
            time.sleep(0.1)

    def presses(self):
        return [l for l in self.lines if l.startswith("pressed")]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.proc.terminate()
        self.proc.wait(5)
        settle()


def test_a_replayed_double_press_opens_the_canvas_and_its_ink_follows_the_pen():
    """The recording at 2x: its double press opens the canvas, strokes are drawn live (the pen
    topic) and confirmed; their ink is on the screen while the replay goes on, and the ring
    where the pen hovers moves without the drawing being painted again."""
    with Daemon(replay=True) as d:
        d.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "open" and e.get("source") == "pen", 40,
                       "open by a double press")
        d.watcher.wait(lambda e: e["event"] == "stroke" and e["index"] >= 2, 30, "three strokes")
        settle()
        strokes = d.request("strokes")
        check(strokes["canvas"] == "open", f"the canvas closed before the screenshot: {strokes['canvas']}")
        inked, visible, n = lt.ink_and_background(SHELL.screenshot(), strokes["strokes"][:3], DESKTOP, skip_rows=TOP_BAR)
        check(inked >= 0.90, f"only {inked:.1%} of {n} points of the first three strokes inked")
        check(visible >= 0.97, f"only {visible:.1%} of the desktop away from the ink is visible")
        check(not any("JS ERROR" in l for _, l in SHELL.log), f"the extension threw: {[l for _, l in SHELL.log if 'JS ERROR' in l][:3]}")
        print(f"  {inked:.1%} of {n} points of three strokes drawn live and confirmed inked", flush=True)


def test_the_canvas_is_above_a_fullscreen_application_and_see_through():
    with App(), Daemon() as d:
        strokes = d.request("strokes")["strokes"]
        d.open_and_wait()
        inked, visible, n = lt.ink_and_background(SHELL.screenshot(), strokes, APP)
        check(inked >= 0.90, f"over a fullscreen application only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the fullscreen application away from the ink is visible")
        print(f"  over a fullscreen application: {inked:.1%} inked, {visible:.2%} of it visible", flush=True)


def test_an_annotation_session_over_two_terminals_shows_its_ink_and_the_terminals_through_it():
    """The README's GNOME picture (docs/images/canvas-gnome.png with --screenshot): two foot
    terminals side by side under the top bar, a checklist in one and `stylusctl --help` in the
    other; scene.py's session over them, its ink where it was drawn and the terminals unchanged
    away from it."""
    import scene
    check(shutil.which("foot"), "foot is missing: the scene's terminals (make test-overlay installs it)")
    with Daemon(state=scene.empty_state(ot.ARGS.scratch)) as d:
        with open(os.path.join(d.root, "checklist.txt"), "w") as f:
            f.write(scene.CHECKLIST)
        ctl = f"{os.path.join(ot.ARGS.bin, 'stylusctl')} --help | head -30 | cut -c1-62"
        windows = [(30, 70, 600, 700), (650, 70, 600, 700)]
        terminals = []
        try:
            for (x, y, w, h), (app_id, command) in zip(windows, (("checklist", "cat checklist.txt"),
                                                                 ("help", f"printf '$ stylusctl --help\\n'; {ctl}"))):
                # No client-side title bar: GNOME gives foot no server-side one, and the scene reads the text's lines.
                terminals.append(subprocess.Popen(["foot", "--app-id", app_id, "-o", "csd.preferred=none", "--font", "monospace:size=10",
                                                   "sh", "-c", f"{command}; exec sleep 600"],
                                                  env=dict(SHELL.env, GDK_BACKEND="wayland"), cwd=d.root,
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                deadline = time.monotonic() + 15
                while SHELL.command_or_none(f"place {app_id} {x} {y} {w} {h}") != "ok":
                    check(time.monotonic() < deadline and terminals[-1].poll() is None, f"the terminal {app_id} never showed")
                    time.sleep(0.3)
            SHELL.command("move 1270 790")   # the pointer out of the picture's way
            time.sleep(1.0)   # their text drawn
            settle()
            d.open_and_wait()
            print(scene.annotate(d.request, SHELL.screenshot, settle, windows, ot.pixel, check, ot.ARGS.screenshot, scene.write_png),
                  flush=True)
        finally:
            for t in terminals:
                t.terminate()
                t.wait(5)
            settle()


def click_reaches_the_application(captures, config=None, drawn=None):
    """A click in the middle of the open canvas, over the fullscreen application; `drawn`
    gets the daemon's strokes after it."""
    with App() as app, Daemon(captures=captures, config=config) as d:
        d.open_and_wait()
        SHELL.command("move 10 400")   # mutter picks the actor under the pointer again when it moves
        n = len(app.presses())
        SHELL.command(f"click {WIDTH // 2} {HEIGHT // 2}")
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline and len(app.presses()) == n:
            time.sleep(0.02)
        reached = len(app.presses()) > n
        if drawn is not None:
            time.sleep(0.3)   # a dot the click drew is recorded by now
            drawn.extend(d.request("strokes")["strokes"])
        d.minimize_and_wait()
        SHELL.command("move 10 420")
        m = len(app.presses())
        SHELL.command(f"click {WIDTH // 2} {HEIGHT // 2}")
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len(app.presses()) == m:
            time.sleep(0.02)
        check(len(app.presses()) > m, "minimized, the canvas still kept the click from the application")
        return reached


def test_in_filter_mode_with_pointer_pass_a_click_on_the_open_canvas_reaches_the_application():
    """`[canvas] pointer = "pass"`: the daemon holds the pen, so the canvas needs no pointer input and the mouse works under it."""
    drawn = []
    check(click_reaches_the_application(captures=True, config=POINTER_PASS, drawn=drawn),
          "the daemon captures the pen and pointer = pass, yet the open canvas took the click")
    check(not [t for t in drawn if t.get("source") == "pointer"], "with pointer = pass the click drew a stroke")


def test_in_observe_mode_with_pointer_pass_the_open_canvas_takes_the_click():
    drawn = []
    check(not click_reaches_the_application(captures=False, config=POINTER_PASS, drawn=drawn),
          "in observe mode a click went through the open canvas")
    check(not [t for t in drawn if t.get("source") == "pointer"], "with pointer = pass the click drew a stroke")


def test_in_filter_mode_a_click_on_the_open_canvas_draws_rather_than_passing():
    """The default `[canvas] pointer = "draw"`, the daemon capturing the pen: the open canvas takes the
    mouse, so the click is a dot recorded as the pointer's where it was, not a click on the application."""
    drawn = []
    check(not click_reaches_the_application(captures=True, drawn=drawn), "with pointer = draw the click went through the open canvas")
    pointer = [t for t in drawn if t.get("source") == "pointer"]
    check(len(pointer) == 1, f"the click drew {len(pointer)} pointer strokes: {[(t.get('source'), len(t['points'])) for t in drawn[-3:]]}")
    x, y = ot.screen_points(pointer, WIDTH, HEIGHT)[0]
    check(abs(x - WIDTH // 2) <= 2 and abs(y - HEIGHT // 2) <= 2, f"the click's dot is at {(x, y)}, not at {(WIDTH // 2, HEIGHT // 2)}")


def colour_near(image, x, y, colour, reach=2, tolerance=40):
    return any(all(abs(a - b) <= tolerance for a, b in zip(ot.pixel(image, x + dx, y + dy), colour))
               for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1))


def along(a, b, n=12):
    """Points on the segment from a to b, its ends included."""
    return [(round(a[0] + (b[0] - a[0]) * i / n), round(a[1] + (b[1] - a[1]) * i / n)) for i in range(n + 1)]


def check_line_inked(shot, a, b, colour, what):
    missing = [p for p in along(a, b) if not colour_near(shot, *p, colour)]
    check(not missing, f"{what}: no {colour} ink at {len(missing)} of 13 points from {a} to {b}, e.g. "
                       f"{[(p, ot.pixel(shot, *p)) for p in missing[:3]]}")


def check_line_bare(shot, a, b, what):
    still = [p for p in along(a, b) if not colour_near(shot, *p, DESKTOP, reach=0, tolerance=6)]
    check(not still, f"{what}: the desktop is not bare at {len(still)} of 13 points from {a} to {b}, e.g. "
                     f"{[(p, ot.pixel(shot, *p)) for p in still[:3]]}")


def pointer_strokes(d, source):
    return [t for t in d.request("strokes")["strokes"] if t.get("source") == source]


def test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens():
    """`[canvas] pointer = "draw"` (the default): a drag of the helper's Clutter pointer on the open
    canvas leaves ink of the current colour where it went; the daemon records it with "source":
    "pointer" where dragged; it stays through a minimize and an opening; `stylusctl undo` takes it
    off the screen and out of `strokes`. The pen is never drawn twice: that filter (Clutter's tablet
    device types) is held by gnome-extension/tests/pointer_test.js, a headless shell has no tablet."""
    a, b = (200, 500), (800, 275)
    with Daemon(state=empty_state()) as d:
        d.request("tool", color="#3465a4")
        d.open_and_wait()
        since = time.monotonic()
        n = len(d.watcher.canvas)
        SHELL.command(f"drag {a[0]} {a[1]} {b[0]} {b[1]} 30")
        e = d.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "pointer" and e in d.watcher.canvas[n:], 5,
                           "a stroke event from the pointer")
        SHELL.wait_log("strokes: 1", 5, since)
        settle()
        check_line_inked(SHELL.screenshot(), a, b, BLUE, "after the drag")
        strokes = d.request("strokes")["strokes"]
        check(len(strokes) == 1 and strokes[0]["source"] == "pointer" and strokes[0]["device"] == POINTER_DEVICE
              and strokes[0]["color"] == "#3465a4" and e["index"] == 0,
              f"the daemon's strokes: {[(t.get('source'), t['device'], t['color'], len(t['points'])) for t in strokes]}")
        pts = ot.screen_points(strokes, WIDTH, HEIGHT)
        check(abs(pts[0][0] - a[0]) + abs(pts[0][1] - a[1]) <= 3 and abs(pts[-1][0] - b[0]) + abs(pts[-1][1] - b[1]) <= 3,
              f"the recorded stroke runs {pts[0]} to {pts[-1]}, the drag {a} to {b}")
        check(len(pts) >= 5, f"only {len(pts)} points recorded of a 30-step drag")
        d.minimize_and_wait()
        check_line_bare(SHELL.screenshot(), a, b, "minimized")
        d.open_and_wait()
        check_line_inked(SHELL.screenshot(), a, b, BLUE, "opened again")
        since = time.monotonic()
        undo = subprocess.run([os.path.join(ot.ARGS.bin, "stylusctl"), "--socket", d.socket, "undo"], capture_output=True, text=True)
        check(undo.returncode == 0, f"stylusctl undo: {undo.returncode} {undo.stdout} {undo.stderr}")
        SHELL.wait_log("(undo, 0 strokes)", 5, since)
        settle()
        check_line_bare(SHELL.screenshot(), a, b, "after stylusctl undo")
        check(d.request("strokes")["strokes"] == [], "undo left the stroke in strokes")
        check(not any("JS ERROR" in l for _, l in SHELL.log), f"the extension threw: {[l for _, l in SHELL.log if 'JS ERROR' in l][:3]}")
        print(f"  a 30-step drag: {len(pts)} points recorded as the pointer's, blue on screen through a minimize and an "
              f"opening; undone off the screen", flush=True)


def test_one_finger_draws_and_a_second_finger_cancels_the_stroke():
    """The helper's Clutter virtual touchscreen: a one-finger drag is recorded as the touch's stroke
    and inked; a drag where a second finger lands halfway records nothing and leaves no ink."""
    a, b = (200, 300), (700, 600)
    c, e = (300, 650), (900, 450)
    with Daemon(state=empty_state()) as d:
        d.request("tool", color="#3465a4")
        d.open_and_wait()
        since = time.monotonic()
        SHELL.command(f"touch {a[0]} {a[1]} {b[0]} {b[1]} 30")
        SHELL.wait_log("strokes: 1", 5, since)
        touch = pointer_strokes(d, "touch")
        check(len(touch) == 1 and touch[0]["device"] == TOUCH_DEVICE, f"after one finger's drag: {d.request('strokes')['strokes']}")
        settle()
        check_line_inked(SHELL.screenshot(), a, b, BLUE, "the finger's drag")
        SHELL.command(f"touch {c[0]} {c[1]} {e[0]} {e[1]} 30 second")
        time.sleep(0.5)
        settle()
        check(len(d.request("strokes")["strokes"]) == 1, f"the cancelled drag was recorded: {d.request('strokes')['strokes'][1:]}")
        check_line_bare(SHELL.screenshot(), c, e, "after a second finger cancelled the drag")
        check_line_inked(SHELL.screenshot(), a, b, BLUE, "the first drag, after the cancelled one")
        print("  one finger drew the touch's stroke; a second finger left nothing", flush=True)


def test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing():
    """[canvas] show_palette = "always": a click on the blue swatch selects blue and draws nothing."""
    blue = ot.palette_swatches(WIDTH, HEIGHT)[4]
    with Daemon(state=empty_state(), config='[canvas]\nshow_palette = "always"\n') as d:
        since = time.monotonic()
        d.open_and_wait()
        SHELL.wait_log(ot.PALETTE_REGIONS_REPORTED, 5, since - 5)
        SHELL.command(f"drag {blue[0]} {blue[1]} {blue[0] + 1} {blue[1]} 2")
        deadline = time.monotonic() + 5
        while d.request("status")["tool"]["color"] != "#3465a4":
            check(time.monotonic() < deadline, f"the click on the blue swatch left the colour {d.request('status')['tool']['color']}")
            time.sleep(0.05)
        time.sleep(0.3)
        check(d.request("strokes")["strokes"] == [], "the click on the palette drew a stroke")
        settle()
        got = ot.pixel(SHELL.screenshot(), *blue)
        check(all(abs(x - y) <= 2 for x, y in zip(got, BLUE)), f"the clicked swatch shows {got}: ink was drawn on it")


def test_a_click_on_the_board_button_goes_to_the_next_board_without_drawing():
    """The X11 suite's board button test in the extension: each click on the palette's board
    button (through the helper's Clutter pointer) goes on to the next board (white, black, grid,
    none), shown at once (a point away from the palette has the board's paper, or the desktop),
    the button's middle shows the board's paper, and no click draws a stroke."""
    button = ot.palette_board_button(WIDTH, HEIGHT)
    away = (WIDTH // 2 + 10, HEIGHT // 3 + 9)   # between the grid's lines (32 px apart here)
    with Daemon(state=empty_state(), config='[canvas]\nshow_palette = "always"\n') as d:
        since = time.monotonic()
        d.open_and_wait()
        SHELL.wait_log(ot.PALETTE_REGIONS_REPORTED, 5, since - 5)
        for name, paper in ot.BOARD_CYCLE:
            SHELL.command(f"drag {button[0]} {button[1]} {button[0] + 1} {button[1]} 2")
            deadline = time.monotonic() + 5
            while d.request("status")["canvas"].get("background") != name:
                check(time.monotonic() < deadline, f"a click on the board button left the board {d.request('status')['canvas'].get('background')}, not {name}")
                time.sleep(0.05)
            settle()
            shot = SHELL.screenshot()
            got = ot.pixel(shot, *away)
            want = DESKTOP if paper is None else paper
            check(all(abs(a - b) <= 2 for a, b in zip(got, want)), f"board {name}: {got} at {away}, not {want}")
            if paper is not None:
                icon = ot.pixel(shot, *button)
                check(all(abs(a - b) <= 2 for a, b in zip(icon, paper)), f"board {name}: the button shows {icon}, not the board's {paper}")
            print(f"  a click: board {name}", flush=True)
        check(d.request("strokes")["strokes"] == [], "a click on the board button drew a stroke")


def test_a_text_typed_in_the_extension_shows_at_once_is_kept_exported_alike_and_undone():
    """The text tool in the extension (issue 37 item 4), as the X11 suite types one: a click with
    the text tool places the caret; the helper's Clutter keyboard types "Hi 42", shown at once in
    the current colour below the click; Escape ends the text (the canvas stays open) and sends it:
    `strokes` lists it with its words where clicked, it stays on the screen, a PNG export agrees
    with the screen on at least 98 % of the text's pixels, and Ctrl+Z, typed while a second caret
    waits, undoes it off the screen."""
    with canvas_renderer():
        check_typed_text()


def text_red_pixels(shot, box):
    """The text tests' red (#d61a1c) pixels below the top bar: (inside `box`, outside it)."""
    red = (0xd6, 0x1a, 0x1c)
    inside = outside = 0
    for y in range(TOP_BAR, HEIGHT - 4):
        for x in range(4, WIDTH - 4):
            if all(abs(a - b) <= 60 for a, b in zip(ot.pixel(shot, x, y), red)):
                if box[0] <= x < box[2] and box[1] <= y < box[3]:
                    inside += 1
                else:
                    outside += 1
    return inside, outside


def check_typed_text():
    at = (300, 300)
    # Width 8: size 24 of a drawing 1600 wide, 19.2 px on this 1280-wide screen; "Hi 42" is at most
    # 5 em wide (with the caret after it) and one line of 1.25 em below the click.
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(5 * size) + 6, at[1] + int(1.25 * size) + 4)

    def red_pixels(shot):
        return text_red_pixels(shot, box)

    with Daemon(state=empty_state()) as d:
        d.request("tool", tool="text", color="#d61a1c", width=8)
        d.open_and_wait()
        SHELL.command(f"drag {at[0]} {at[1]} {at[0] + 1} {at[1]} 2")
        time.sleep(0.3)
        for key in ["H", "i", "space", "4", "2"]:
            SHELL.command(f"key {key}")
        settle()
        typing, stray = red_pixels(SHELL.screenshot())
        check(typing > 30 and stray == 0, f"while typing: {typing} red pixels in the text's box, {stray} outside it")
        check(d.request("strokes")["strokes"] == [], "a text was recorded before it ended")
        n = len(d.watcher.canvas)
        SHELL.command("key Escape")
        e = d.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in d.watcher.canvas[n:],
                           5, "the text's stroke event")
        SHELL.wait_log("strokes: 1", 5, time.monotonic() - 5)
        settle()
        strokes = ot.check_kept_text(d.request, e, "Hi 42", at, WIDTH, HEIGHT)
        shot = SHELL.screenshot()
        kept, stray = red_pixels(shot)
        check(kept > 30 and stray == 0, f"once kept: {kept} red pixels in the text's box, {stray} outside it")
        png = os.path.join(d.root, "text-export.png")
        r = d.request("export", path=png, width=WIDTH, height=HEIGHT)
        check((r["width"], r["height"]) == (WIDTH, HEIGHT), f"{r}")
        ppm = subprocess.run(["convert", png, "-background", "#%02x%02x%02x" % DESKTOP, "-flatten", "-depth", "8", "ppm:-"],
                             capture_output=True, check=True).stdout
        exported = ot.parse_ppm(ppm)
        inked = agree = 0
        for yy in range(box[1], box[3]):
            for xx in range(box[0], box[2]):
                a, b = ot.pixel(shot, xx, yy), ot.pixel(exported, xx, yy)
                if sum(abs(i - j) for i, j in zip(a, DESKTOP)) <= 30 and sum(abs(i - j) for i, j in zip(b, DESKTOP)) <= 30:
                    continue
                inked += 1
                agree += all(abs(i - j) <= 24 for i, j in zip(a, b))
        check(inked > 30 and agree / inked >= 0.98, f"the exported text differs from the screen: {agree} of {inked} text pixels agree")
        # A second caret below; Ctrl+Z while it waits for keys still undoes (the kept text goes),
        # and Escape ends the empty entry, keeping nothing, the canvas still open.
        SHELL.command(f"drag {at[0]} {at[1] + 200} {at[0] + 1} {at[1] + 200} 2")
        time.sleep(0.3)
        SHELL.command("key ctrl+z")
        deadline = time.monotonic() + 5
        while d.request("strokes")["strokes"] != []:
            check(time.monotonic() < deadline, f"Ctrl+Z while typing left {d.request('strokes')['strokes']}")
            time.sleep(0.05)
        SHELL.command("key Escape")
        time.sleep(0.3)
        check(d.request("status")["canvas"]["state"] == "open" and d.request("strokes")["strokes"] == [],
              f"Escape on an empty text: the canvas {d.request('status')['canvas']['state']}, strokes {d.request('strokes')['strokes']}")
        deadline = time.monotonic() + 5
        while True:
            settle()
            gone, _ = red_pixels(SHELL.screenshot())
            if gone == 0 or time.monotonic() > deadline:
                break
        check(gone == 0, f"after undo: {gone} red pixels remain in the text's box")
        print(f"  typed 'Hi 42': {typing} red pixels while typing, {kept} kept; export agrees on "
              f"{agree} of {inked} text pixels; Ctrl+Z while typing undid it off the screen", flush=True)


def shell_eval(code):
    """GNOME Shell's own org.gnome.Shell.Eval of `code`: (True, its value as JSON), or (False, why);
    it answers only in unsafe mode (unsafe_mode())."""
    literal = "'" + code.replace("\\", "\\\\").replace("'", "\\'") + "'"
    run = subprocess.run(["gdbus", "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
                          "--method", "org.gnome.Shell.Eval", literal], env=SHELL.env, capture_output=True, text=True, timeout=20)
    m = re.fullmatch(r"\((true|false), '(.*)'\)", run.stdout.strip(), re.S)
    check(m is not None, f"org.gnome.Shell.Eval answered {run.stdout!r} {run.stderr[-300:]!r}")
    return m.group(1) == "true", m.group(2)


def unsafe_mode():
    """Puts the shell in unsafe mode, where its Eval answers (the test helper sets it, as Looking
    Glass would)."""
    SHELL.command("unsafe on")
    check(shell_eval("1")[0], "org.gnome.Shell.Eval does not answer in unsafe mode")


# A test input method in place of GNOME's (IBus): j commits "日本語 é"; k starts composing
# "にほん" (a preedit), and Return while composing commits "日本" instead. It keeps where the
# text told it its cursor is. GNOME's is kept to be put back (TEST_INPUT_METHOD_OFF).
# `late` (ms, @LATE@ below), 0 answers each key at once; otherwise it answers as IBus does: it
# takes every key and answers each that much later, in the order they came, committing the
# letters a-z itself as an engine would and handing back (notify_key_event) those it does not take.
TEST_INPUT_METHOD = r"""(() => {
const {GObject, GLib, Clutter} = imports.gi;
const backend = global.stage.context ? global.stage.context.get_backend() : Clutter.get_default_backend();
if (!global.stylusTestInputMethod) {
    const TestInputMethod = GObject.registerClass({GTypeName: 'StylusTestInputMethod'}, class extends Clutter.InputMethod {
        vfunc_focus_in(focus) { this.focusIns = (this.focusIns || 0) + 1; }
        vfunc_focus_out() {}
        vfunc_reset() {}
        vfunc_set_cursor_location(rect) { this.cursor = [rect.get_x(), rect.get_y(), rect.get_height()]; }
        vfunc_set_surrounding(text, cursor, anchor) {}
        vfunc_update_content_hints(hints) {}
        vfunc_update_content_purpose(purpose) {}
        vfunc_filter_key_event(event) {
            if (!this.late)
                return this.answer(event);
            this.waiting = this.waiting || [];
            this.waiting.push(event.copy());
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, this.late, () => {
                // The oldest key, whichever timeout fires first: answered in order.
                const key = this.waiting.shift();
                if (key && !this.answer(key))
                    this.notify_key_event(key, false);
                return GLib.SOURCE_REMOVE;
            });
            return true;
        }
        answer(event) {
            const press = event.type() === Clutter.EventType.KEY_PRESS, key = event.get_key_symbol();
            if (key === Clutter.KEY_j) {
                if (press)
                    this.commit('\u65e5\u672c\u8a9e \u00e9');
                return true;
            }
            if (key === Clutter.KEY_k) {
                if (press) {
                    this.composing = true;
                    this.set_preedit_text('\u306b\u307b\u3093', 3, 3, Clutter.PreeditResetMode.CLEAR);
                }
                return true;
            }
            if (key === Clutter.KEY_Return && this.composing) {
                if (press) {
                    this.composing = false;
                    this.set_preedit_text('', 0, 0, Clutter.PreeditResetMode.CLEAR);
                    this.commit('\u65e5\u672c');
                }
                return true;
            }
            if (this.late && key >= Clutter.KEY_a && key <= Clutter.KEY_z) {
                if (press)
                    this.commit(String.fromCharCode(key));
                return true;
            }
            return false;
        }
    });
    global.stylusTestInputMethod = {im: new TestInputMethod(), shell: backend.get_input_method()};
}
global.stylusTestInputMethod.im.focusIns = 0;
global.stylusTestInputMethod.im.late = @LATE@;
backend.set_input_method(global.stylusTestInputMethod.im);
return 'on';
})()"""
TEST_INPUT_METHOD_OFF = r"""(() => {
const backend = global.stage.context ? global.stage.context.get_backend() : imports.gi.Clutter.get_default_backend();
if (global.stylusTestInputMethod) {
    global.stylusTestInputMethod.im.late = 0;
    backend.set_input_method(global.stylusTestInputMethod.shell);
}
global.context.unsafe_mode = false;
return 'off';
})()"""


@contextlib.contextmanager
def input_method_replaced(late=0):
    """GNOME's input method replaced by TEST_INPUT_METHOD, answering `late` ms after each key
    (0: at once), and put back after."""
    unsafe_mode()
    try:
        ok, answer = shell_eval(TEST_INPUT_METHOD.replace("@LATE@", str(int(late))))
        check(ok and answer == '"on"', f"installing the test input method: {answer}")
        yield
    finally:
        shell_eval(TEST_INPUT_METHOD_OFF)


def test_an_input_method_composes_the_text_typed_in_the_extension():
    """The text tool through Clutter's input method (issue 37 item 4), GNOME's IBus replaced by a
    test one (TEST_INPUT_METHOD, through the shell's Eval): with a caret placed, j commits
    "日本語 é", which shows at once at the caret; k starts a preedit, shown there too, and Return
    while composing is the input method's (it commits "日本"), not a new line; Escape keeps one
    text of what was committed, the keys themselves never typed, and the input method was told
    where the caret is."""
    at = (300, 300)
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(8 * size) + 6, at[1] + int(1.25 * size) + 4)

    def red_pixels():
        settle()
        return text_red_pixels(SHELL.screenshot(), box)

    with input_method_replaced(), Daemon(state=empty_state()) as d:
        d.request("tool", tool="text", color="#d61a1c", width=8)
        d.open_and_wait()
        SHELL.command(f"drag {at[0]} {at[1]} {at[0] + 1} {at[1]} 2")
        time.sleep(0.3)
        caret, stray = red_pixels()
        SHELL.command("key j")
        committed, stray = red_pixels()
        check(committed > caret + 30 and stray == 0,
              f"after the commit: {committed} red pixels in the text's box (the caret alone {caret}), {stray} outside it")
        ok, focus = shell_eval("[global.stylusTestInputMethod.im.focusIns, global.stylusTestInputMethod.im.cursor]")
        ins, cursor = json.loads(focus)
        check(ok and ins >= 1 and cursor and at[0] + size < cursor[0] < at[0] + 6 * size and abs(cursor[1] - at[1]) < size,
              f"the input method was focused {ins} times, told the cursor is at {cursor}, not after the text at {at}")
        SHELL.command("key k")
        composing, stray = red_pixels()
        check(composing > committed + 30 and stray == 0,
              f"while composing: {composing} red pixels in the box (before {committed}), {stray} outside: the preedit does not show")
        check(d.request("strokes")["strokes"] == [], "a text was recorded before it ended")
        SHELL.command("key Return")
        time.sleep(0.3)
        n = len(d.watcher.canvas)
        SHELL.command("key Escape")
        e = d.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in d.watcher.canvas[n:],
                           5, "the text's stroke event")
        ot.check_kept_text(d.request, e, "日本語 é日本", at, WIDTH, HEIGHT)
        kept, stray = red_pixels()
        check(kept > 30 and stray == 0, f"once kept: {kept} red pixels in the text's box, {stray} outside it")
        print(f"  committed '日本語 é' ({committed} red pixels, the caret alone {caret}), composed with a preedit "
              f"({composing}), Return committed '日本'; kept as one text ({kept}); the input method's cursor at {cursor}",
              flush=True)


def test_enter_and_backspace_keep_their_place_behind_a_late_input_method():
    """IBus answers a key later, as TEST_INPUT_METHOD does with `late` 100 ms (committing the
    letters itself, handing back Enter, Backspace and Escape): "ab" Enter "c" Backspace "d"
    Escape typed a key every 50 ms or so, faster than it answers, keep their order: one text
    "ab\nd", Enter and Backspace acted on after the letters typed before them were committed
    (not "a\nb", not the wrong letter taken back), no key acted on or typed twice. The same with
    `late` 0, an input method that declines them at once (as GNOME's does without IBus), where
    ClutterText would act on Enter and Backspace itself."""
    at = (300, 300)
    for first_late in (0, 100):
        late = first_late
        # A loaded machine can take longer to type a key through the shell's test
        # interface than the input method's delay; the keys would then arrive in order
        # by themselves and prove nothing: the same again with an input method slower
        # than the typing measured, twice at most.
        for attempt in range(3):
            if not type_behind_a_late_input_method(late, at, last=attempt == 2):
                late = max(late * 2, int(3000 * typing_seconds_per_key[-1]))
                continue
            break


typing_seconds_per_key = []


def type_behind_a_late_input_method(late, at, last):
    """One run of the test above; False when the keys were typed no faster than the input
    method answers (and this is not the last run)."""
    with input_method_replaced(late), Daemon(state=empty_state()) as d:
        d.request("tool", tool="text", color="#d61a1c", width=8)
        d.open_and_wait()
        SHELL.command(f"drag {at[0]} {at[1]} {at[0] + 1} {at[1]} 2")
        time.sleep(0.3)
        n = len(d.watcher.canvas)
        started = time.monotonic()
        for key in ["a", "b", "Return", "c", "BackSpace", "d", "Escape"]:
            SHELL.command(f"key {key}")
        typed = time.monotonic() - started
        typing_seconds_per_key.append(typed / 7)
        if late and typed / 7 >= late / 1000:
            check(not last, f"the keys took {typed:.2f} s to type: not faster than the input method answers ({late} ms)")
            print(f"  the keys took {typed:.2f} s to type, not faster than the input method's {late} ms: again slower", flush=True)
            return False
        e = d.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in d.watcher.canvas[n:],
                           5 + 7 * late / 1000, f"the text's stroke event (input method {late} ms late)")
        ot.check_kept_text(d.request, e, "ab\nd", at, WIDTH, HEIGHT)
        time.sleep(0.2 + 2 * late / 1000)
        strokes = d.request("strokes")["strokes"]
        check(len(strokes) == 1, f"after the input method's last answers ({late} ms late): {strokes}")
        print(f"  'ab' Enter 'c' Backspace 'd' Escape typed in {typed:.2f} s through an input method answering "
              f"{late} ms late: kept as 'ab\\nd'", flush=True)
    return True


def test_escape_minimizes_the_canvas():
    with Daemon() as d:
        d.open_and_wait()
        n = len(d.watcher.canvas)
        SHELL.command("key Escape")
        e = d.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] in ("minimizing", "minimized")
                           and e in d.watcher.canvas[n:], 5, "a minimize after Escape")
        check(e["source"] == "command", f"Escape minimized with source {e['source']}")
        d.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in d.watcher.canvas[n:], 5, "minimized")
        # Minimized, Escape is the applications' again: nothing more reaches the daemon.
        m = len(d.watcher.canvas)
        SHELL.command("key Escape")
        time.sleep(0.5)
        check(len(d.watcher.canvas) == m, f"Escape on the minimized canvas changed it: {d.watcher.canvas[m:]}")


def test_every_default_key_does_its_action_on_the_open_canvas():
    """The default keys (canvas-spec.json's table) from the test helper's Clutter keyboard on
    the open canvas: the style, the board or the drawing changes after each as its action says.
    `plus` is typed as Shift+= (as a person on a US keyboard types it): the extension grabs
    "<Shift>plus" beside "plus", since mutter matches a grab with its modifiers."""
    names = {"delete": "Delete", "escape": "Escape"}
    with Daemon() as d:
        d.open_and_wait()
        ot.check_the_default_keys(lambda name: SHELL.command("key " + "+".join(names.get(k, k) for k in name.split("+"))),
                                  d.request, "GNOME")


def test_f1_shows_the_help_where_stylus_canvas_puts_it_and_a_key_hides_it():
    """The help overlay in the extension: F1 from the helper's Clutter keyboard shows the panel
    where the spec's `help` vector puts it (as stylus-canvas does); the next key (e) hides it, the
    screen is as before, and that key did nothing else."""
    layout = ot.canvas_spec.help_layout(WIDTH, HEIGHT, ot.canvas_spec.help_default_lines())
    with Daemon(state=empty_state()) as d:
        d.open_and_wait()
        before = SHELL.screenshot()
        since = time.monotonic()
        SHELL.command("key F1")
        SHELL.wait_log("help shown", 5, since)
        time.sleep(0.5)
        matching, looked, inked = ot.help_panel_pixels(SHELL.screenshot(), layout, DESKTOP)
        check(matching == looked, f"F1: only {matching} of {looked} pixels of the panel's strip are its colour")
        check(inked > 50, f"F1: the title is not drawn ({inked} pixels)")
        since = time.monotonic()
        SHELL.command("key e")
        SHELL.wait_log("help hidden", 5, since)
        time.sleep(0.5)
        left = ot.unchanged_in(layout["panel"], before, SHELL.screenshot())
        check(not left, f"after a key the help stays at {len(left)} pixels, e.g. {left[:5]}")
        check(d.request("status")["tool"]["tool"] == "pen", "the key that hid the help did its action too")
        print(f"  F1: {matching} of {looked} panel pixels where the spec puts it; e hid it and did nothing else", flush=True)


def test_a_killed_daemon_takes_the_canvas_off_the_screen_within_2_s():
    """SIGKILL: the extension hides its canvas within 2 s (its own log's monotonic time,
    the clock the test reads too), and the screen shows no ink."""
    with Daemon() as d:
        strokes = d.request("strokes")["strokes"]
        d.open_and_wait()
        killed = time.monotonic()
        d.proc.kill()
        SHELL.wait_log("hidden", 4, killed)
        line = next(l for t, l in SHELL.log if t >= killed and "hidden" in l)
        hidden_after = int(re.search(r"\[(\d+) ms\]", line).group(1)) / 1000 - killed
        check(hidden_after <= 2.0, f"the canvas hid {hidden_after:.2f} s after SIGKILL")
        settle()
        inked, _, _ = lt.ink_and_background(SHELL.screenshot(), strokes, DESKTOP, skip_rows=TOP_BAR)
        check(inked == 0, f"hidden, the screen still shows {inked:.0%} of the ink")
        print(f"  hidden {hidden_after:.2f} s after SIGKILL", flush=True)


def test_the_extension_draws_the_same_ink_as_stylus_canvas():
    """The recording's strokes drawn by stylus-canvas (into the buffer of the layer-shell
    suite's small compositor, over the same #208020) and by the extension: the ink pixels
    below the top bar agree. stylus-canvas's picture is taken first, so that the extension's
    canvas of the test before (a killed daemon's, fading out) is long gone; a GNOME picture
    that disagrees is looked at once more a second later, and both figures are printed, so a
    frame the shell had not finished is told from a rule the two renderers draw differently."""
    lt.build_scale_compositor(ot.ARGS.scratch)
    with lt.ScaledSession(0, output_scale=1) as s:
        s.stack.open_and_wait()
        canvas = s.compositor.screenshot()

    def ink(image, x, y):
        return sum(abs(a - b) for a, b in zip(ot.pixel(image, x, y), DESKTOP)) > 60

    def agreement(gnome):
        both = either = only_gnome = 0
        for y in range(TOP_BAR, HEIGHT):
            for x in range(WIDTH):
                a, b = ink(gnome, x, y), ink(canvas, x, y)
                either += a or b
                both += a and b
                only_gnome += a and not b
        return both / max(1, either), either, (f"{only_gnome} are GNOME's only, "
                                               f"{either - both - only_gnome} stylus-canvas's only")

    with Daemon() as d:
        d.open_and_wait()
        gnome = SHELL.screenshot()
        check(canvas[:2] == gnome[:2], f"stylus-canvas drew {canvas[:2]}, GNOME shows {gnome[:2]}")
        agree, either, sides = agreement(gnome)
        if agree < 0.98:
            print(f"  first look: {agree:.1%} of {either} ink pixels agree ({sides}); looking again in 1 s", flush=True)
            time.sleep(1)
            agree, either, sides = agreement(SHELL.screenshot())
    check(either > 500, f"only {either} ink pixels to compare")
    check(agree >= 0.98, f"only {agree:.1%} of {either} ink pixels agree between the extension and stylus-canvas ({sides})")
    print(f"  {agree:.2%} of {either} ink pixels agree", flush=True)


def test_tools_and_colours_draw_as_in_stylus_canvas():
    """The layer-shell suite's styled strokes (a blue pen line, a yellow highlighter over it
    and over itself, a green arrow, a purple rectangle), drawn by the extension: the same
    colours, blends and shapes as the renderer rule says."""
    with Daemon(state=lt.styled_state(ot.ARGS.scratch)) as d:
        d.open_and_wait()
        shot = SHELL.screenshot()
        lt.check_styles(shot, DESKTOP, top=TOP_BAR)


def test_the_white_black_and_grid_boards_cover_the_screen_under_the_ink():
    """The X11 suite's board test in the extension: `stylusctl background white`, `black` and
    `grid` each cover at least 99 % of the screen away from the ink (the top bar too: the canvas
    is above it), the ink drawn on it, and `none` gives the desktop back below the top bar."""
    with Daemon() as d:
        strokes = d.request("strokes")["strokes"]
        d.open_and_wait()
        ot.check_the_boards(os.path.join(ot.ARGS.bin, "stylusctl"), d.socket, SHELL.screenshot, strokes, DESKTOP,
                            skip_rows=TOP_BAR)


def test_the_palette_shows_where_stylus_canvas_puts_it_and_a_tap_picks_the_colour_without_drawing():
    """The X11 suite's palette test in the extension: the swatches where PaletteLayout puts
    them, and a replayed tap on the blue one picks the next stroke's colour and draws nothing;
    a reload that reorders [canvas] palette shows the new swatches at once."""
    lead_in = 8.0
    blue = ot.palette_swatches(WIDTH, HEIGHT)[4]
    stroke = [(500 + 30 * i, 300 + 10 * i) for i in range(11)]
    scratch = tempfile.mkdtemp(prefix="stylus-gnome-palette-")
    try:
        started = time.monotonic()
        recording = ot.palette_recording(scratch, blue, stroke, lead_in)
        with Daemon(recording=recording, config='[canvas]\nshow_palette = "always"\n') as d:
            tools = ot.Client(d.socket)
            tools.request("subscribe", topics=["tool"])
            since = time.monotonic()
            d.open_and_wait()
            SHELL.wait_log(ot.PALETTE_REGIONS_REPORTED, 5, since - 5)
            check(time.monotonic() - started < lead_in - 1, f"the canvas was ready {time.monotonic() - started:.1f} s after the start, too late for the tap")
            ot.check_palette_swatches(SHELL.screenshot(), WIDTH, HEIGHT)
            ot.check_a_tap_picked_blue(tools, d.watcher, d.request, lead_in)
            settle()
            shot = SHELL.screenshot()
            got = ot.pixel(shot, *blue)
            check(all(abs(a - b) <= 2 for a, b in zip(got, (0x34, 0x65, 0xa4))), f"the tapped swatch shows {got}: ink was drawn on it")
            ot.check_a_reload_reorders_the_swatches(d.root, d.request, SHELL.wait_log, settle, SHELL.screenshot, WIDTH, HEIGHT)
            check(not any("JS ERROR" in l for _, l in SHELL.log), f"the extension threw: {[l for _, l in SHELL.log if 'JS ERROR' in l][:3]}")
            print("  8 swatches where the layout puts them; the tap picked #3465a4 and drew nothing; a reload's palette shows at once", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_stylus_canvas(d, seconds):
    """stylus-canvas in the GNOME session, following the daemon, for at most `seconds`."""
    proc = subprocess.Popen([ot.ARGS.canvas, "--socket", d.socket], env=dict(SHELL.env, GDK_BACKEND="wayland"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=seconds)
        return proc.returncode, err
    except subprocess.TimeoutExpired:
        return None, proc


def stylusctl(d, *argv):
    return subprocess.run([os.path.join(ot.ARGS.bin, "stylusctl"), "--socket", d.socket, *argv], capture_output=True, text=True,
                          timeout=30)


def png_file_pixels(path):
    return ot.parse_ppm(subprocess.run(["convert", path, "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout)


def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"not a PNG: {data[:16]!r}")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette_or_the_frame():
    """The canvas open with the palette and the frame: `stylusctl snapshot FILE` writes a PNG at the
    monitor's size that agrees with the helper's own Shell.Screenshot taken right after on >= 99 % of
    the pixels outside the palette's strip and the frame, holds the ink at the recorded points, and
    shows the desktop where the palette and the frame (below the top bar) are on the screen."""
    with Daemon(config='[canvas]\nshow_palette = "always"\n') as d:
        strokes = d.request("strokes")["strokes"]
        since = time.monotonic()
        d.open_and_wait()
        SHELL.wait_log(ot.PALETTE_REGIONS_REPORTED, 5, since - 5)
        path = os.path.join(d.root, "snapshot.png")
        r = stylusctl(d, "snapshot", path)
        screen = SHELL.screenshot()
        check(r.returncode == 0, f"stylusctl snapshot: {r.returncode} {r.stdout} {r.stderr}")
        snap = png_file_pixels(path)
        check(snap[:2] == (WIDTH, HEIGHT), f"the snapshot is {snap[0]}×{snap[1]}, the monitor {WIDTH}×{HEIGHT}")
        buttons = ot.canvas_spec.palette_buttons(WIDTH, HEIGHT)
        x0, y0 = int(min(b["x"] for b in buttons)) - 8, int(min(b["y"] for b in buttons)) - 8
        x1, y1 = int(max(b["x"] + b["side"] for b in buttons)) + 9, int(max(b["y"] + b["side"] for b in buttons)) + 9
        w = ot.canvas_spec.spec()["constants"]["indicator"]["frameWidth"]
        in_palette = lambda x, y: x0 <= x < x1 and y0 <= y < y1
        in_frame = lambda x, y: x < w + 1 or y < w + 1 or x >= WIDTH - w - 1 or y >= HEIGHT - w - 1
        near = lambda a, b, t=6: all(abs(p - q) <= t for p, q in zip(a, b))
        outside = [(x, y) for y in range(HEIGHT) for x in range(WIDTH) if not in_palette(x, y) and not in_frame(x, y)]
        same = sum(1 for x, y in outside if near(ot.pixel(snap, x, y), ot.pixel(screen, x, y))) / len(outside)
        check(same >= 0.99, f"only {same:.2%} of the snapshot outside the palette and the frame agrees with the shell's screenshot")
        inked, _, n = ink_and_desktop(snap, strokes)
        check(inked >= 0.90, f"only {inked:.1%} of {n} recorded points inked in the snapshot")
        ink_points = ot.screen_points(strokes, WIDTH, HEIGHT)
        away = lambda x, y: all(abs(x - px) > 12 or abs(y - py) > 12 for px, py in ink_points)
        strip = [(x, y) for y in range(max(y0, 0), min(y1, HEIGHT)) for x in range(max(x0, 0), min(x1, WIDTH)) if away(x, y)]
        bare = sum(1 for x, y in strip if near(ot.pixel(snap, x, y), DESKTOP)) / max(1, len(strip))
        shown = sum(1 for x, y in strip if not near(ot.pixel(screen, x, y), DESKTOP)) / max(1, len(strip))
        check(shown >= 0.5, f"the palette is not on the screen ({shown:.0%} of its strip): nothing to leave out")
        check(bare >= 0.99, f"the palette is in the snapshot: only {bare:.1%} of its strip away from the ink is the desktop")
        frame = [(x, y) for x0_, y0_, fw, fh in ot.canvas_spec.indicator_rects("frame", WIDTH, HEIGHT)
                 for y in range(int(y0_), int(y0_ + fh)) for x in range(int(x0_), int(x0_ + fw)) if y >= TOP_BAR and away(x, y)]
        framed = sum(1 for x, y in frame if not near(ot.pixel(snap, x, y), DESKTOP)) / max(1, len(frame))
        check(framed <= 0.01, f"the frame is in the snapshot: {framed:.1%} of its pixels below the top bar are not the desktop")
        check(not any("JS ERROR" in l for _, l in SHELL.log), f"the extension threw: {[l for _, l in SHELL.log if 'JS ERROR' in l][:3]}")
        r = stylusctl(d, "snapshot", path, "--monitor", "NOWHERE-9")
        check(r.returncode != 0 and "NOWHERE-9" in r.stderr, f"an unknown monitor: {r.returncode} {r.stderr}")
        d.minimize_and_wait()
        r = stylusctl(d, "snapshot", path)
        check(r.returncode != 0 and "minimized" in r.stderr, f"a snapshot while minimized: {r.returncode} {r.stderr}")
        print(f"  {same:.2%} equal to the shell's screenshot outside the palette and the frame; {inked:.0%} of the points inked; "
              f"the palette's strip {bare:.1%} desktop; an unknown monitor and a minimized canvas refused", flush=True)


def test_copy_puts_the_exported_png_on_the_clipboard_and_copy_snapshot_the_screen():
    """`stylusctl copy`: the helper reads St.Clipboard's image/png back, the very bytes `export`
    writes; held through a minimize; `copy --snapshot` is refused while minimized, and on the open
    canvas replaces it with the monitor's picture."""
    with canvas_renderer():
        check_copy()


def check_copy():
    with Daemon() as d:
        r = stylusctl(d, "copy")
        check(r.returncode == 0 and "copied to the clipboard" in r.stdout, f"stylusctl copy: {r.returncode} {r.stdout} {r.stderr}")
        pasted_path = os.path.join(d.root, "pasted.png")
        check(SHELL.command_or_none(f"clipboard {pasted_path}") == "ok", "the clipboard holds no image/png after copy")
        pasted = open(pasted_path, "rb").read()
        exported = os.path.join(d.root, "drawing.png")
        d.request("export", path=exported)
        check(pasted == open(exported, "rb").read(), f"the clipboard's PNG ({len(pasted)} bytes, {png_size(pasted)}) is not export's "
                                                    f"({os.path.getsize(exported)} bytes)")
        leftovers = [f for f in os.listdir(SHELL.runtime) if f.startswith("stylus-canvas-copy-")]
        check(not leftovers, f"the copy left {leftovers} in $XDG_RUNTIME_DIR")
        d.open_and_wait()
        d.minimize_and_wait()
        check(SHELL.command_or_none(f"clipboard {pasted_path}") == "ok" and open(pasted_path, "rb").read() == pasted,
              "the clipboard changed when the canvas opened and minimized")
        r = stylusctl(d, "copy", "--snapshot")
        check(r.returncode != 0 and "minimized" in r.stderr, f"copy --snapshot while minimized: {r.returncode} {r.stderr}")
        d.open_and_wait()
        r = stylusctl(d, "copy", "--snapshot")
        check(r.returncode == 0, f"stylusctl copy --snapshot: {r.returncode} {r.stdout} {r.stderr}")
        check(SHELL.command_or_none(f"clipboard {pasted_path}") == "ok", "the clipboard holds no image/png after copy --snapshot")
        later = open(pasted_path, "rb").read()
        check(png_size(later) == (WIDTH, HEIGHT), f"after copy --snapshot the clipboard holds {png_size(later)}")
        print(f"  the drawing ({png_size(pasted)[0]}×{png_size(pasted)[1]}, export's bytes) held through a minimize, "
              f"replaced by the screen's picture", flush=True)


def test_with_the_extension_enabled_stylus_canvas_leaves_the_canvas_to_it():
    """The autostart entry and the user unit start stylus-canvas in a GNOME session too:
    it must not draw a second canvas. It exits 0 at once, saying why."""
    with Daemon() as d:
        status, err = run_stylus_canvas(d, 10)
        check(status == 0, f"stylus-canvas did not exit 0 beside the enabled extension: {status}")
        check("draws the canvas in this session" in err, f"stylus-canvas did not say why it left: {err!r}")
        variant = variant_name(SHELL.extension)
        check(f"({variant}) draws" in err, f"stylus-canvas did not name the loaded copy, {variant}: {err!r}")


def test_gnome_runs_the_extension_from_the_folder_given_and_reports_it_active():
    """The copy GNOME loaded is the one under test (with --system-wide: the package's, in
    /usr/share/gnome-shell/extensions), its metadata lists this GNOME, GNOME reports it
    active (never OUT_OF_DATE), and `stylusctl status` says the extension draws the canvas, which
    variant it is and which GNOME Shell loaded it (the question after an upgrade)."""
    info = subprocess.run(["gnome-extensions", "info", UUID], env=SHELL.env, capture_output=True, text=True, timeout=20)
    fields = dict(re.findall(r"^\s*(Path|State): *(.+?) *$", info.stdout, re.M))
    check(fields.get("Path") == SHELL.extension, f"GNOME loaded {fields.get('Path')}, not {SHELL.extension}: {info.stdout!r} {info.stderr!r}")
    # ACTIVE since GNOME 46, ENABLED before: GNOME's ExtensionState 1, the one that runs.
    check(fields.get("State") in ("ACTIVE", "ENABLED"), f"GNOME reports the extension {fields.get('State')}: {info.stdout!r}")
    major = shell_major()
    check(major in metadata_versions(SHELL.extension),
          f"the loaded copy lists GNOME {metadata_versions(SHELL.extension)}, not the running {major}")
    with Daemon() as d:
        deadline = time.monotonic() + 10
        while (d.request("status").get("overlay") or {}).get("backend") != "gnome-extension":
            check(time.monotonic() < deadline, f"the extension never reported itself: {d.request('status').get('overlay')}")
            time.sleep(0.1)
        r = stylusctl(d, "status")
        line = next((l for l in r.stdout.splitlines() if l.startswith("overlay ")), None)
        shell = re.search(r"(\d+(?:\.\d+)*)", subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True).stdout)
        want = (f"overlay    the GNOME Shell extension stylus-canvas@stylusd ({variant_name(SHELL.extension)}, "
                f"loaded by GNOME Shell {shell.group(1) if shell else '?'}), 1 monitor")
        check(r.returncode == 0 and line == want, f"stylusctl status's overlay line: {line!r}, not {want!r} ({r.returncode} {r.stderr!r})")
    print(f"  GNOME Shell {major}: {fields['State']} from {SHELL.extension} ({variant_name(SHELL.extension)})", flush=True)


def test_the_extension_copy_for_another_gnome_is_out_of_date_and_stylus_canvas_and_status_say_which():
    """The other variant (a Debian 12 system's 43 copy left after an upgrade to GNOME 48, or
    the 45 copy on 43) in a second shell: GNOME marks it out of date, and stylus-canvas and
    `stylusctl status` name the copy installed, the one this GNOME needs and the selector."""
    major = shell_major()
    others = [os.path.join(ot.ARGS.variants, v, UUID) for v in sorted(os.listdir(ot.ARGS.variants))
              if os.path.exists(os.path.join(ot.ARGS.variants, v, UUID, "metadata.json"))]
    others = [o for o in others if major not in metadata_versions(o)]
    check(others, f"no variant in {ot.ARGS.variants} is for another GNOME than {major}")
    other = others[0]
    global SHELL
    shell, second = SHELL, None
    runtime = tempfile.mkdtemp(prefix="stylus-gnome-other-")
    os.chmod(runtime, 0o700)
    try:
        # A user's copy: GNOME prefers it to the system-wide one of --system-wide.
        SHELL = second = GnomeShell(runtime, other)
        info = subprocess.run(["gnome-extensions", "info", UUID], env=SHELL.env, capture_output=True, text=True, timeout=20)
        state = dict(re.findall(r"^\s*(Path|State): *(.+?) *$", info.stdout, re.M)).get("State")
        check(state == "OUT OF DATE", f"GNOME {major} reports {variant_name(other)} {state}, not OUT OF DATE: {info.stdout!r}")
        with Daemon(extension=False) as d:
            status, proc = run_stylus_canvas(d, 2)
            check(status is None, f"stylus-canvas exited ({status}) beside an out-of-date extension")
            try:
                report = f"missing-outdated-{min(metadata_versions(other))}-on-{major}"
                deadline = time.monotonic() + 5
                while (d.request("status").get("overlay") or {}).get("backend") != report:
                    check(time.monotonic() < deadline, f"the daemon's overlay field: {d.request('status').get('overlay')}, not {report}")
                    time.sleep(0.1)
                r = stylusctl(d, "status")
                line = next((l for l in r.stdout.splitlines() if l.startswith("overlay ")), "")
                check(f"out of date: the installed copy is {variant_name(other)}, it needs {variant_name(shell.extension)}" in line
                      and "select-gnome-extension" in line, f"stylusctl status's overlay line: {line!r}")
            finally:
                proc.terminate()
                _, err = proc.communicate(timeout=5)
            check(f"GNOME marks it out of date: the installed copy is {variant_name(other)}" in err
                  and f"needs {variant_name(shell.extension)}" in err,
                  f"stylus-canvas did not name the out-of-date copy and the one GNOME {major} needs: {err!r}")
        print(f"  {variant_name(other)} on GNOME {major}: OUT OF DATE; {line.split(': ', 1)[-1]}", flush=True)
    finally:
        SHELL = shell
        if second:
            second.close()
        shutil.rmtree(runtime, ignore_errors=True)


def metadata_versions(folder):
    """The GNOME majors a copy's metadata.json lists."""
    with open(os.path.join(folder, "metadata.json")) as f:
        return [int(v.split(".")[0]) for v in json.load(f)["shell-version"]]


def variant_name(folder):
    """As stylus-canvas names a copy: "the variant for GNOME 45-48"."""
    versions = metadata_versions(folder)
    low, high = min(versions), max(versions)
    return f"the variant for GNOME {low}" + (f"-{high}" if high != low else "")


def test_without_the_extension_stylus_canvas_says_how_to_enable_it_and_draws_no_window():
    """The extension disabled: stylus-canvas opens no window (mutter has no layer-shell, and an
    ordinary window is covered by the next one raised); it says how to enable the extension,
    and `stylusctl status` shows the canvas as missing. Disabling it takes its report out of
    `status` at once, though GNOME Shell, the process that sent it, runs on."""
    try:
        with Daemon() as d:
            deadline = time.monotonic() + 10
            while (d.request("status").get("overlay") or {}).get("backend") != "gnome-extension":
                check(time.monotonic() < deadline, f"the extension never reported itself: {d.request('status').get('overlay')}")
                time.sleep(0.1)
            subprocess.run(["gnome-extensions", "disable", UUID], env=SHELL.env, check=True, capture_output=True)
            deadline = time.monotonic() + 5
            while "overlay" in d.request("status"):
                check(time.monotonic() < deadline, f"status still reports the disabled extension: {d.request('status').get('overlay')}")
                time.sleep(0.1)
        with Daemon(extension=False) as d:
            status, proc = run_stylus_canvas(d, 2)
            check(status is None, f"stylus-canvas exited ({status}) without the extension")
            try:
                deadline = time.monotonic() + 5
                while (d.request("status").get("overlay") or {}).get("backend") != "missing":
                    check(time.monotonic() < deadline, f"the daemon's overlay field: {d.request('status').get('overlay')}")
                    time.sleep(0.1)
                before = SHELL.screenshot()
                d.request("open")
                time.sleep(2.5)   # the transition ends by timeout: nothing draws it
                shot = SHELL.screenshot()
                same = sum(1 for a, b in zip(below_top_bar(before)[2], below_top_bar(shot)[2]) if a == b) / len(below_top_bar(shot)[2])
                check(same == 1.0, f"with the canvas open and no extension only {same:.2%} of the desktop is unchanged")
            finally:
                proc.terminate()
                _, err = proc.communicate(timeout=5)
            check(f"gnome-extensions enable {UUID}" in err and "installed but not enabled" in err,
                  f"stylus-canvas did not say the extension is disabled and how to enable it: {err!r}")
            print(f"  {err.strip().splitlines()[0]}", flush=True)
    finally:
        subprocess.run(["gnome-extensions", "enable", UUID], env=SHELL.env, check=True, capture_output=True)


def test_the_gnome_45_extension_loads_as_an_es_module():
    """GNOME 45 and later load extensions as ES modules; no such GNOME runs here, so the
    45 variant is loaded by gjs with the Shell's own modules stubbed: its syntax, its
    imports and a default export that is an Extension with enable and disable."""
    if getattr(ot.ARGS, "system_wide", False):
        # No build tree beside an installed copy; GNOME itself loaded it (the test above says which).
        print(f"  the installed copy: GNOME Shell {shell_major()} loaded {variant_name(SHELL.extension)} itself", flush=True)
        return
    modern = os.path.join(os.path.dirname(os.path.dirname(ot.ARGS.extension)), "45", UUID, "extension.js")
    check(os.path.exists(modern), f"{modern} is not built: make gnome-extension")
    work = tempfile.mkdtemp(prefix="stylus-gnome45-")
    try:
        with open(modern) as f:
            source = f.read()
        for name in ("St", "Clutter", "Meta", "Shell"):
            source = source.replace(f"'gi://{name}'", "'./stub.js'")
        source = source.replace("'resource:///org/gnome/shell/ui/main.js'", "'./stub-main.js'")
        source = source.replace("'resource:///org/gnome/shell/extensions/extension.js'", "'./stub-extension.js'")
        source = source.replace("'resource:///org/gnome/shell/misc/config.js'", "'./stub-config.js'")
        files = {
            "extension.js": source,
            "stub.js": "export default {};\n",
            "stub-main.js": "export const layoutManager = {}; export const wm = {};\n",
            "stub-extension.js": "export class Extension { constructor(metadata) { this.metadata = metadata; } }\n",
            "stub-config.js": "export const PACKAGE_VERSION = '48.0';\n",
            "check.js": "import Ext from './extension.js';\n"
                        "import {Extension} from './stub-extension.js';\n"
                        "const e = new Ext({uuid: 'stylus-canvas@stylusd'});\n"
                        "if (!(e instanceof Extension) || typeof e.enable !== 'function' || typeof e.disable !== 'function')\n"
                        "    throw new Error('the default export is not an Extension with enable and disable');\n"
                        "print('loaded');\n",
        }
        for name, text in files.items():
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
        run = subprocess.run(["gjs", "-m", os.path.join(work, "check.js")], capture_output=True, text=True, timeout=30)
        check(run.returncode == 0 and run.stdout.strip() == "loaded", f"gjs -m: {run.returncode} {run.stdout!r} {run.stderr[-600:]!r}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def close_shell(shell, runtime, scratch):
    """The shell stopped (its log on standard error with OVERLAY_LOG), its folders removed."""
    if shell:
        shell.close()
        if os.environ.get("OVERLAY_LOG"):
            print("\n".join(l for _, l in shell.log), file=sys.stderr)
    shutil.rmtree(runtime, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)


def ppm_bytes(shot):
    w, h, rgb = shot
    return f"P6\n{w} {h}\n255\n".encode() + rgb


def main():
    parser = ot.canvas_arguments()
    parser.add_argument("--extension", default=os.path.join(ot.ROOT, ".build-gnome", "43", UUID),
                        help="the extension folder (make gnome-extension builds it): .build-gnome/43/... for GNOME 43-44, 45/... for 45 and later")
    parser.add_argument("--system-wide", action="store_true",
                        help="--extension is installed where GNOME finds it itself (a package's, /usr/share/gnome-shell/extensions/...): "
                             "the suite tests that copy instead of installing one in the user's folder")
    parser.add_argument("--variants", default=None,
                        help="the folder of every variant's copy (default: the one above --extension's; the package's "
                             "/usr/share/stylusd/gnome-extension with --system-wide)")
    parser.add_argument("--screenshot", default=None, help="save the annotation scene (scene.py) over two terminals here (PNG)")
    lt.tools_arguments(parser)
    args = parser.parse_args()
    missing = [tool for tool in ("gnome-shell", "dbus-run-session", "dbus-daemon", "gsettings", "convert")
               if not shutil.which(tool)]
    check(not missing, f"missing {missing}: make test-overlay installs them")
    check(os.path.exists(os.path.join(args.extension, "extension.js")), f"{args.extension} is not built: make gnome-extension")
    if os.getuid() == 0:
        script = os.path.join("Tests", "overlay", "gnome_shell_test.py")
        if args.system_wide:
            return lt.as_unprivileged(args, script, extra=("--extension", args.extension, "--system-wide",
                                                           *(("--variants", args.variants) if args.variants else ())))
        built = os.path.dirname(os.path.dirname(os.path.abspath(args.extension)))
        return lt.as_unprivileged(args, script, copy_extension=(built, os.path.relpath(os.path.abspath(args.extension), built)))
    if args.variants is None:
        above = os.path.dirname(os.path.dirname(os.path.abspath(args.extension)))
        # PREFIX/share/gnome-shell/extensions/UUID: the variants are in PREFIX/share/stylusd/gnome-extension.
        args.variants = os.path.join(os.path.dirname(above), "stylusd", "gnome-extension") if args.system_wide else above
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    global SHELL
    runtime = tempfile.mkdtemp(prefix="stylus-gnome-")
    os.chmod(runtime, 0o700)
    try:
        SHELL = GnomeShell(runtime, args.extension, system_wide=args.system_wide)
        return run_tests("overlay-gnome", [
            test_the_extension_shows_the_ink_over_the_desktop_and_minimizes_back_to_it,
            test_a_replayed_double_press_opens_the_canvas_and_its_ink_follows_the_pen,
            test_the_canvas_is_above_a_fullscreen_application_and_see_through,
            test_an_annotation_session_over_two_terminals_shows_its_ink_and_the_terminals_through_it,
            test_in_filter_mode_with_pointer_pass_a_click_on_the_open_canvas_reaches_the_application,
            test_in_observe_mode_with_pointer_pass_the_open_canvas_takes_the_click,
            test_in_filter_mode_a_click_on_the_open_canvas_draws_rather_than_passing,
            test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens,
            test_one_finger_draws_and_a_second_finger_cancels_the_stroke,
            test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing,
            test_a_click_on_the_board_button_goes_to_the_next_board_without_drawing,
            test_a_text_typed_in_the_extension_shows_at_once_is_kept_exported_alike_and_undone,
            test_an_input_method_composes_the_text_typed_in_the_extension,
            test_enter_and_backspace_keep_their_place_behind_a_late_input_method,
            test_escape_minimizes_the_canvas,
            test_every_default_key_does_its_action_on_the_open_canvas,
            test_f1_shows_the_help_where_stylus_canvas_puts_it_and_a_key_hides_it,
            test_a_killed_daemon_takes_the_canvas_off_the_screen_within_2_s,
            test_the_extension_draws_the_same_ink_as_stylus_canvas,
            test_tools_and_colours_draw_as_in_stylus_canvas,
            test_the_white_black_and_grid_boards_cover_the_screen_under_the_ink,
            test_the_palette_shows_where_stylus_canvas_puts_it_and_a_tap_picks_the_colour_without_drawing,
            test_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette_or_the_frame,
            test_copy_puts_the_exported_png_on_the_clipboard_and_copy_snapshot_the_screen,
            test_gnome_runs_the_extension_from_the_folder_given_and_reports_it_active,
            test_with_the_extension_enabled_stylus_canvas_leaves_the_canvas_to_it,
            test_without_the_extension_stylus_canvas_says_how_to_enable_it_and_draws_no_window,
            test_the_extension_copy_for_another_gnome_is_out_of_date_and_stylus_canvas_and_status_say_which,
            test_the_gnome_45_extension_loads_as_an_es_module,
        ], only=args.only)
    finally:
        close_shell(SHELL, runtime, args.scratch)


if __name__ == "__main__":
    sys.exit(main())
