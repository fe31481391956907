#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylus-canvas against a live stylusd, seen on screen.

A headless X11 desktop (Xvfb, openbox, xcompmgr, a solid background set by
hsetroot), stylusd replaying a bundled recording in a private directory (its
own --socket and --state-file), and the overlay against it. Every check reads
pixels back from the X server (`import -window root`, parsed as PPM here).

    python3 Tests/overlay/overlay_test.py [--bin .build-static/release] [--canvas Overlay/.build-static/release/stylus-canvas]
                                          [--only NAME] [--screenshot docs/images/canvas.png]

Installs the Debian packages it needs when they are missing (as root, or
through sudo). Standard library only."""
import argparse
import contextlib
import json
import math
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
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import canvas_spec  # noqa: E402
from daemon import Daemon  # noqa: E402
from stylusclient import Client  # noqa: E402
from stylustest import Failure, check, private_directory, run_tests  # noqa: E402

RECORDING = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
PACKAGES = ["xvfb", "xauth", "imagemagick", "x11-apps", "x11-utils", "openbox", "xcompmgr", "xdotool", "hsetroot", "librsvg2-bin"]
WIDTH, HEIGHT = 1280, 800
DESKTOP = (0x2a, 0x6f, 0x97)          # the background hsetroot paints
DESKTOP_HEX = "#%02x%02x%02x" % DESKTOP
# The replay runs 2x faster than recorded; the daemon's timers run on recorded
# time, so a 2000 ms transition is 1 s here: room for the overlay's ack on a busy machine.
SPEED = "2"
TRANSITION_MS = "2000"


def install_missing():
    missing = [p for p in PACKAGES if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                                     text=True).stdout.find("install ok installed") < 0]
    if not missing:
        return
    sudo = [] if os.getuid() == 0 else ["sudo"]
    print("installing:", " ".join(missing), flush=True)
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq"] + missing, check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


# ---------------------------------------------------------------- the desktop

class Desktop:
    """Xvfb on a free display number with a window manager, a compositor and a solid background."""

    def __init__(self, compositor=True, window_manager=True, size=None):
        self.procs = []
        width, height = size or (WIDTH, HEIGHT)
        self.display = None
        for n in range(60, 99):
            if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
                self.display = f":{n}"
                break
        check(self.display, "no free X display number")
        self.env = dict(os.environ, DISPLAY=self.display)
        self.env.pop("WAYLAND_DISPLAY", None)
        self._start(["Xvfb", self.display, "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"])
        deadline = time.monotonic() + 10
        while subprocess.run(["xdpyinfo"] if shutil.which("xdpyinfo") else ["xwininfo", "-root"], env=self.env,
                             capture_output=True).returncode != 0:
            check(time.monotonic() < deadline, "Xvfb did not start")
            time.sleep(0.1)
        if window_manager:
            self._start(["openbox"])
        if compositor:
            self._start(["xcompmgr"])
        time.sleep(0.5)
        subprocess.run(["hsetroot", "-solid", DESKTOP_HEX], env=self.env, check=True, capture_output=True)
        subprocess.run(["xdotool", "mousemove", "0", "0"], env=self.env, check=True)

    def _start(self, argv):
        self.procs.append(subprocess.Popen(argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def close(self):
        for p in reversed(self.procs):
            p.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(5)

    def screenshot(self, png=None):
        """The root window as the X server has it: (width, height, RGB bytes)."""
        ppm = subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:-"], env=self.env, capture_output=True, check=True).stdout
        if png:
            subprocess.run(["convert", "ppm:-", png], input=ppm, check=True)
        return parse_ppm(ppm)


def parse_ppm(data):
    """A binary PPM (P6, maxval 255) into (width, height, RGB bytes)."""
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            i = data.index(b"\n", i) + 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    check(fields[0] == b"P6" and fields[3] == b"255", f"not an 8-bit P6 image: {fields}")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[i + 1:i + 1 + w * h * 3]


def pixel(image, x, y):
    w, h, rgb = image
    o = (y * w + x) * 3
    return rgb[o], rgb[o + 1], rgb[o + 2]


def is_desktop(image, x, y):
    return pixel(image, x, y) == DESKTOP


# The open canvas's frame (`[canvas] indicator`, default `frame`) on the screen's edges: the ink's
# checks leave this band to test_the_open_canvas_shows_its_frame_in_the_current_colour_and_no_export_holds_it.
BORDER = canvas_spec.indicator_border()


def inside(w, h, x, y):
    return BORDER <= x < w - BORDER and BORDER <= y < h - BORDER


def foreign_pixels(image, exclude=()):
    """Pixels that are not the desktop's colour, inside the indicator's frame and outside the excluded discs (x, y, r)."""
    w, h, rgb = image
    d = bytes(DESKTOP)
    found = []
    for y in range(BORDER, h - BORDER):
        row = rgb[(y * w + BORDER) * 3:((y + 1) * w - BORDER) * 3]
        if row == d * (w - 2 * BORDER):
            continue
        for x in range(BORDER, w - BORDER):
            if rgb[(y * w + x) * 3:(y * w + x) * 3 + 3] != d and not any((x - ex) ** 2 + (y - ey) ** 2 <= r * r for ex, ey, r in exclude):
                found.append((x, y))
    return found


def inked(image, x, y, reach=2):
    """Ink near a point: some pixel within `reach` differs clearly from the desktop."""
    w, h, _ = image
    for yy in range(max(0, y - reach), min(h, y + reach + 1)):
        for xx in range(max(0, x - reach), min(w, x + reach + 1)):
            p = pixel(image, xx, yy)
            if sum(abs(a - b) for a, b in zip(p, DESKTOP)) > 60:
                return True
    return False


def red_ink(p):
    """The pen's red ink, also antialiased at a thin segment's edge, over any background."""
    return p[0] > 120 and p[0] > p[1] + 60 and p[0] > p[2] + 60


def red_ink_near(image, x, y, reach=2):
    w, h, _ = image
    return any(red_ink(pixel(image, xx, yy)) for xx in range(max(0, x - reach), min(w, x + reach + 1))
               for yy in range(max(0, y - reach), min(h, y + reach + 1)))


def screen_points(strokes, width, height):
    return [(min(width - 1, int(p[0] * width)), min(height - 1, int(p[1] * height)))
            for s in strokes for p in s["points"]]


def axis_max(header, name):
    """The Max of an axis in an evemu header (`#     Event code 0 (ABS_X)` then `#       Max  95840`)."""
    for i, line in enumerate(header):
        if f"({name})" in line:
            for following in header[i + 1:i + 6]:
                if following.split()[1:2] == ["Max"]:
                    return int(following.split()[2])
    raise ValueError(f"no {name} range in the recording's header")


class PenRecording:
    """An evemu recording of the bundled recording's pen (its header) written frame by
    frame: `frame(events, after_us)` a SYN_REPORT'd frame that many µs after the last,
    `axes(x, y)` the ABS_X/ABS_Y events for window pixels of the WIDTH×HEIGHT screen the
    tablet maps to."""
    EV_KEY, EV_ABS, EV_MSC = 1, 3, 4
    MSC_SERIAL = 0
    TOOL = {"pen": 0x140, "eraser": 0x141}
    BTN_TOUCH, BTN_STYLUS, ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE = 0x14a, 0x14b, 0, 1, 0x18, 0x19

    def __init__(self):
        with open(RECORDING) as f:
            self.header = [line for line in f if not line.startswith("E:")]
        self.x_max, self.y_max = axis_max(self.header, "ABS_X"), axis_max(self.header, "ABS_Y")
        self.lines, self.t_us = [], 1_000 * 1_000_000

    def axes(self, x, y):
        return ((self.EV_ABS, self.ABS_X, round((x + 0.5) / WIDTH * self.x_max)),
                (self.EV_ABS, self.ABS_Y, round((y + 0.5) / HEIGHT * self.y_max)))

    def frame(self, *events, after_us=0):
        self.t_us += after_us
        stamp = f"{self.t_us // 1_000_000}.{self.t_us % 1_000_000:06d}"
        self.lines.extend(f"E: {stamp} {kind:04x} {code:04x} {value}\n" for kind, code, value in events)
        self.lines.append(f"E: {stamp} 0000 0000 0\n")

    def write(self, path):
        with open(path, "w") as f:
            f.writelines(self.header + self.lines)
        return path


def pen_session(path, strokes, period_us=5000, serials=None):
    """An evemu recording of the bundled recording's pen that hovers while the overlay
    connects, opens the canvas by a BTN_STYLUS double press, then draws `strokes`:
    (end, [(x, y) in screen pixels, ...]) each, `end` "pen" or "eraser" (BTN_TOOL_RUBBER).
    With `serials` (one per stroke, the first also the opening pen's), each stroke's pen
    says its MSC_SERIAL, and a new serial comes in after the last one left proximity."""
    r = PenRecording()
    K, A = PenRecording.EV_KEY, PenRecording.EV_ABS
    serial = serials[0] if serials else None

    def identity(s):
        return [(PenRecording.EV_MSC, PenRecording.MSC_SERIAL, s)] if s is not None else []

    def hover(ms, x=20):
        for i in range(ms * 1000 // period_us):
            r.frame((A, r.ABS_X, r.axes(x, 20)[0][2] + i % 2), after_us=period_us)
    r.frame((K, r.TOOL["pen"], 1), *r.axes(20, 20), (A, r.ABS_DISTANCE, 30), *identity(serial), after_us=period_us)
    hover(3000)           # the overlay connects
    for _ in range(2):    # 100 ms presses 300 ms apart: a double press
        r.frame((K, r.BTN_STYLUS, 1), after_us=period_us)
        r.frame((K, r.BTN_STYLUS, 0), after_us=100_000)
        hover(200)
    hover(2000)           # the fade in and the overlay's ack
    tool = "pen"
    for n, (end, points) in enumerate(strokes):
        if end != tool or (serials and serials[n] != serial):
            r.frame((K, r.TOOL[tool], 0), after_us=50_000)
            serial = serials[n] if serials else None
            r.frame((K, r.TOOL[end], 1), *r.axes(*points[0]), (A, r.ABS_DISTANCE, 30), *identity(serial), after_us=50_000)
            tool = end
        r.frame(*r.axes(*points[0]), (A, r.ABS_DISTANCE, 0), (A, r.ABS_PRESSURE, 1200), (K, r.BTN_TOUCH, 1), after_us=period_us)
        for x, y in points[1:]:
            r.frame(*r.axes(x, y), after_us=period_us)
        r.frame((A, r.ABS_PRESSURE, 0), (A, r.ABS_DISTANCE, 10), (K, r.BTN_TOUCH, 0), after_us=period_us)
        hover(100, points[-1][0])
    r.frame((K, r.TOOL[tool], 0), after_us=50_000)
    r.write(path)


# ---------------------------------------------------------------- the daemon and the overlay

class Watcher:
    """A subscriber that keeps every canvas event and the last pen positions."""

    def __init__(self, socket_path):
        self.client = Client(socket_path)
        self.client.sock.settimeout(None)
        self.client.request("subscribe", topics=["canvas", "pen"])
        self.canvas = []
        self.pens = []
        self.lock = threading.Lock()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        try:
            while True:
                e = self.client.next_event()
                with self.lock:
                    if e["event"] in ("canvas", "stroke"):
                        self.canvas.append(e)
                    elif e["event"] == "pen":
                        self.pens = (self.pens + [e])[-30:]
        except (EOFError, OSError):
            pass   # the daemon stopped

    def wait(self, predicate, timeout, what):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for e in self.canvas:
                    if predicate(e):
                        return e
            time.sleep(0.02)
        raise Failure(f"no {what} within {timeout} s; canvas events: {self.canvas[-6:]}")

    def states(self):
        with self.lock:
            return [e for e in self.canvas if e["event"] == "canvas"]

    def hover_discs(self):
        with self.lock:
            return [(int(p["x"] * WIDTH), int(p["y"] * HEIGHT), 14) for p in self.pens]


class FilterModeProxy:
    """A socket in front of the daemon's that tells its clients the daemon
    runs in filter mode (it captures the pen): every line from the daemon
    passes with its output mode rewritten. Filter mode needs /dev/uinput,
    which only the hardware-in-the-loop guest has, and the guest has no display."""

    def __init__(self, path, daemon_socket, captures=True):
        import socket as socketlib
        self.captures = captures
        self.listener = socketlib.socket(socketlib.AF_UNIX, socketlib.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(8)
        self.daemon_socket = daemon_socket
        self.connections = []
        threading.Thread(target=self._accept, daemon=True).start()

    def drop_connections(self):
        """Ends every connection, as a daemon restarting would: its clients reconnect and read the status anew."""
        for s in self.connections:
            try:
                s.shutdown(2)
            except OSError:
                pass
        self.connections = []

    def _accept(self):
        import socket as socketlib
        while True:
            client, _ = self.listener.accept()
            daemon = socketlib.socket(socketlib.AF_UNIX, socketlib.SOCK_STREAM)
            try:
                daemon.connect(self.daemon_socket)
            except OSError:
                # The daemon is gone (a test killed it): the overlay's connection ends at
                # once, and it tries again as after any drop.
                daemon.close()
                client.close()
                continue
            self.connections += [client, daemon]
            threading.Thread(target=self._pump, args=(client, daemon, lambda b: b), daemon=True).start()
            threading.Thread(target=self._pump, args=(daemon, client, self._as_filter), daemon=True).start()

    def _as_filter(self, chunk):
        chunk = chunk.replace(b'"mode":"observe"', b'"mode":"filter"')
        return chunk.replace(b'"captures_pen":false', b'"captures_pen":true') if self.captures else chunk

    @staticmethod
    def _pump(source, sink, change):
        buffered = b""
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                buffered += data
                lines, _, buffered = buffered.rpartition(b"\n")
                if lines:
                    sink.sendall(change(lines + b"\n"))
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(2)
                except OSError:
                    pass


class CanvasSession:
    """What every suite's session of a daemon and a canvas does alike: a request that must
    succeed, and an opening waited for until the canvas shows (`wait_shown`, the session's
    own: a canvas's log, the shell's)."""

    def request(self, cmd, **fields):
        c = Client(self.socket)
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
        self.wait_shown(since)


class Stack(CanvasSession):
    """stylusd (replaying a recording, or idle) and stylus-canvas, in a private directory."""

    def __init__(self, args, desktop, root, overlay_args=(), replay=True, state=None, pen_captured=False,
                 filter_without_capture=False, recording=RECORDING, speed=None):
        self.args, self.desktop, self.root = args, desktop, root
        self.recording = recording
        self.socket = os.path.join(root, "stylusd.sock")
        overlay_socket = self.socket
        self.state_file = os.path.join(root, "state.json")
        if state:
            shutil.copy(state, self.state_file)
        self.daemon = self.overlay = None
        self.overlay_log = []
        try:
            if speed is None:
                self.start_daemon(replay)   # a subclass's own default pace
            else:
                self.start_daemon(replay, speed)
            self.watcher = Watcher(self.socket)
            if pen_captured or filter_without_capture:
                overlay_socket = os.path.join(root, "captured.sock")
                self.proxy = FilterModeProxy(overlay_socket, self.socket, captures=pen_captured)
            env = dict(desktop.env, GSK_RENDERER="cairo", NO_AT_BRIDGE="1")
            self.overlay = subprocess.Popen([args.canvas, "--socket", overlay_socket, "--verbose", *overlay_args], env=env,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            threading.Thread(target=self._read_overlay, daemon=True).start()
            self.wait_overlay("connected", 10)
        except BaseException:
            # No caller gets the stack to close: a daemon or canvas left running would outlive the suite.
            self.close()
            raise

    def start_daemon(self, replay, speed=SPEED):
        """stylusd with its directories all `root`; `daemon` is its process, `daemon_log` its log."""
        argv = ["--socket", self.socket, "--state-file", self.state_file, "--transition-ms", TRANSITION_MS]
        if replay:
            argv += ["--replay", self.recording, "--speed", speed]
        stylusd = Daemon([os.path.join(self.args.bin, "stylusd")], self.root, *argv, runtime=self.root, state=self.root,
                         config=self.root)
        self.daemon, self.daemon_log = stylusd.proc, stylusd.log

    def _read_overlay(self):
        for line in self.overlay.stderr:
            self.overlay_log.append((time.monotonic(), line.rstrip()))

    def wait_overlay(self, text, timeout, since=0.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in l and t >= since for t, l in self.overlay_log):
                return
            check(self.overlay.poll() is None, f"stylus-canvas exited: {self.overlay_log[-10:]}")
            time.sleep(0.02)
        raise Failure(f"stylus-canvas never logged {text!r} in {timeout} s: {[l for _, l in self.overlay_log[-16:]]}")

    def wait_shown(self, since):
        self.wait_overlay("shown", 5, since)
        self.settle_screen()

    def minimize_and_wait(self):
        n = len(self.watcher.canvas)
        self.request("minimize")
        self.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in self.watcher.canvas[n:], 5, "minimized")
        self.settle_screen()

    def settle_screen(self, limit=3.0):
        """Waits for the compositor's paint: 0.15 s, then until two screenshots
        0.1 s apart agree, for at most `limit` s (a loaded machine paints late;
        a screen that keeps changing, a replay's hover disc, ends the wait at
        the limit and the caller's checks decide)."""
        time.sleep(0.15)
        shot = getattr(self.desktop, "screenshot", None)
        if shot is None:
            return
        end = time.monotonic() + limit
        last = shot()[2]
        while time.monotonic() < end:
            time.sleep(0.1)
            now = shot()[2]
            if now == last:
                return
            last = now

    def close(self):
        for p in (self.overlay, self.daemon):
            if p and p.poll() is None:
                p.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    p.wait(5)
                if p.poll() is None:
                    p.kill()


# ---------------------------------------------------------------- the tests

ARGS = None
DESKTOP_SESSION = None


@contextlib.contextmanager
def stack(overlay_args=(), replay=False, pen_captured=False, filter_without_capture=False, config=None, empty=False):
    """Without `replay`, the daemon starts from the strokes the whole recording drew (`drawn_state`), minimized,
    or with none (`empty`); `config` the text of its config.toml."""
    with private_directory("stylus-canvas-test-") as root:
        write_config(root, config)
        s = Stack(ARGS, DESKTOP_SESSION, root, overlay_args, replay, None if replay or empty else drawn_state(), pen_captured,
                  filter_without_capture)
        try:
            yield s
        finally:
            s.close()
            if os.environ.get("OVERLAY_LOG"):
                print("\n".join(l for _, l in s.overlay_log), file=sys.stderr)


def write_config(root, text):
    """`text` as the daemon's config.toml under `root` (its XDG_CONFIG_HOME), if any."""
    if text is None:
        return
    os.makedirs(os.path.join(root, "stylusd"), exist_ok=True)
    with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
        f.write(text)


# Filter mode lets the mouse click through the open canvas only with the pointer left to the desktop.
POINTER_PASS = '[canvas]\npointer = "pass"\n'

STATE = None


def drawn_state():
    """A state file holding every stroke of the recording: the whole replay at 20x
    (no overlay; the transitions end by timeout), then SIGTERM, which saves it."""
    global STATE
    if STATE:
        return STATE
    root = os.path.join(ARGS.scratch, "drawn")
    os.makedirs(root, mode=0o700, exist_ok=True)
    socket_path = os.path.join(root, "stylusd.sock")
    state = os.path.join(root, "state.json")
    daemon = Daemon([os.path.join(ARGS.bin, "stylusd")], root, "--socket", socket_path, "--state-file", state,
                    "--replay", RECORDING, "--speed", "20", runtime=root, state=root, config=root, log=False,
                    ready="socket", ready_timeout=30)
    try:
        time.sleep(0.2)
        watcher = Watcher(socket_path)
        started = time.monotonic()
        last = (None, time.monotonic())
        while True:   # the recording lasts 81 s: about 4 s at 20x; it has ended once the pen is quiet for 1.5 s
            with watcher.lock:
                newest = watcher.pens[-1]["time_us"] if watcher.pens else None
            if newest != last[0]:
                last = (newest, time.monotonic())
            if time.monotonic() - started > 4 and time.monotonic() - last[1] > 1.5:
                break
            check(time.monotonic() - started < 60, "the replay did not end")
            time.sleep(0.1)
        client = Client(socket_path)
        strokes = client.request("strokes")["result"]["strokes"]
        check(len(strokes) >= 10, f"the recording drew only {len(strokes)} strokes")
        client.request("minimize")   # the tests start from a minimized canvas
        deadline = time.monotonic() + 10
        while client.request("status")["result"]["canvas"]["state"] != "minimized":
            check(time.monotonic() < deadline, "the canvas did not minimize")
            time.sleep(0.05)
    finally:
        daemon.proc.terminate()
        daemon.proc.wait(10)
    STATE = state
    return STATE


def check_canvas(image, strokes, exclude=(), what="canvas"):
    """Ink at the pen's points; the eraser's path leaves no mark of its own (it clears ink,
    and where there was none the desktop shows); the desktop's own colour far from every
    stroke and the hover ring (`exclude`)."""
    points = screen_points([t for t in strokes if t.get("tool") != "eraser"], WIDTH, HEIGHT)
    check(points, "no recorded points")
    missing = [p for p in points if not inked(image, *p)]
    check(len(missing) <= len(points) // 50, f"{what}: {len(missing)} of {len(points)} recorded points have no ink, e.g. {missing[:5]}")

    def around(pts, reach=12):
        return {(x + dx, y + dy) for x, y in pts for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)}
    rubbed = screen_points([t for t in strokes if t.get("tool") == "eraser"], WIDTH, HEIGHT)
    pen_near = around(points)
    marked = [p for p in rubbed if p not in pen_near and not any((p[0] - ex) ** 2 + (p[1] - ey) ** 2 <= r * r for ex, ey, r in exclude)
              and not is_desktop(image, *p)]
    check(not marked, f"{what}: the eraser left a mark of its own at {len(marked)} of {len(rubbed)} points, e.g. {marked[:5]}")
    stray = [p for p in foreign_pixels(image, exclude) if p not in pen_near and p not in around(rubbed)]
    check(not stray, f"{what}: {len(stray)} pixels away from the strokes are not the desktop's colour, e.g. {stray[:5]}")
    return len(points)


def test_replay_double_press_opens_the_canvas_with_its_ink():
    """While the recording's double press holds the canvas open, the ink of every finished stroke is on screen."""
    with stack(replay=True) as s:
        s.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "open" and e.get("source") == "pen", 40, "open by a double press")
        s.watcher.wait(lambda e: e["event"] == "stroke" and e["index"] >= 2, 30, "three strokes")
        s.wait_overlay("strokes: 3", 5)
        image = DESKTOP_SESSION.screenshot()
        strokes = s.request("strokes")
        check(strokes["canvas"] == "open", f"the canvas closed before the screenshot was checked: {strokes['canvas']}")
        n = check_canvas(image, strokes["strokes"][:3], s.watcher.hover_discs() + [(0, 0, 30)], "replay")
        print(f"  3 strokes, {n} points inked while the replay draws", flush=True)
        s.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e.get("source") == "pen", 40,
                       "minimized by a double press")
        states = s.watcher.states()
        settled = [e for e in states if e["state"] in ("open", "minimized")]
        check(settled and all(e["cause"] == "ack" for e in settled),
              f"canvas events whose cause is not ack: {[(e['state'], e['cause']) for e in settled if e['cause'] != 'ack']}")
        print(f"  {len(settled)} transitions, all ended by the overlay's ack", flush=True)


def test_minimize_reopen_same_pixels():
    """Open shows every stroke; minimize leaves the bare desktop; reopening brings back the same pixels (P2 on screen)."""
    with stack() as s:
        strokes = s.request("strokes")["strokes"]
        s.open_and_wait()
        first = DESKTOP_SESSION.screenshot()
        n = check_canvas(first, strokes, [(0, 0, 30)], "open")
        s.minimize_and_wait()
        bare = DESKTOP_SESSION.screenshot()
        left = foreign_pixels(bare)
        check(not left, f"after minimize {len(left)} pixels are not the desktop, e.g. {left[:5]}")
        s.open_and_wait()
        again = DESKTOP_SESSION.screenshot()
        differ = sum(1 for i in range(0, len(first[2]), 3) if first[2][i:i + 3] != again[2][i:i + 3])
        check(differ == 0, f"reopened canvas differs from the first in {differ} pixels")
        settled = [e for e in s.watcher.states() if e["state"] in ("open", "minimized")]
        check(all(e["cause"] == "ack" for e in settled), f"not all acked: {[(e['state'], e['cause']) for e in settled]}")
        print(f"  {len(strokes)} strokes, {n} points; reopened pixel for pixel; {len(settled)} transitions acked", flush=True)


def client_geometry(name):
    """Where an application's own window (inside the window manager's frame) lies on the screen."""
    deadline = time.monotonic() + 5
    while True:
        out = subprocess.run(["xwininfo", "-name", name], env=DESKTOP_SESSION.env, capture_output=True, text=True).stdout
        fields = dict(re.findall(r"^\s*(Absolute upper-left [XY]|Width|Height):\s*(-?\d+)", out, re.M))
        if len(fields) == 4:
            return (int(fields["Absolute upper-left X"]), int(fields["Absolute upper-left Y"]),
                    int(fields["Width"]), int(fields["Height"]))
        check(time.monotonic() < deadline, f"no window named {name} on the screen")
        time.sleep(0.1)


def test_see_through_over_applications():
    """Applications stay visible through the canvas; the recording's ink lies over them."""
    apps = [subprocess.Popen(argv, env=DESKTOP_SESSION.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for argv in (["xlogo", "-geometry", "260x260+800+110"], ["xcalc", "-geometry", "+120+330"])]
    try:
        with stack() as s:
            strokes = s.request("strokes")["strokes"]
            time.sleep(1.0)
            # The client area, not the frame: the window manager repaints a title bar when the
            # canvas takes the focus from it, and that is not the canvas covering the application.
            left, top, width, height = client_geometry("xlogo")
            below = DESKTOP_SESSION.screenshot()
            s.open_and_wait()
            over = DESKTOP_SESSION.screenshot()
            points = screen_points([t for t in strokes if t.get("tool") != "eraser"], WIDTH, HEIGHT)
            missing = [p for p in points if pixel(over, *p) == pixel(below, *p) and not inked(over, *p)]
            check(len(missing) <= len(points) // 50, f"{len(missing)} of {len(points)} points without ink")
            # Inside the xlogo window, away from the strokes, the application shows unchanged.
            near = {(x + dx, y + dy) for x, y in screen_points(strokes, WIDTH, HEIGHT) for dx in range(-12, 13) for dy in range(-12, 13)}
            window = [(x, y) for y in range(top + 4, top + height - 4, 3) for x in range(left + 4, left + width - 4, 3)
                      if (x, y) not in near]
            changed = [p for p in window if pixel(over, *p) != pixel(below, *p)]
            check(window and not changed, f"{len(changed)} of {len(window)} pixels of the application under the canvas changed")
            check(len({pixel(below, *p) for p in window}) > 1, "the application window was not on screen")
            print(f"  {len(window)} application pixels seen through the canvas unchanged", flush=True)
    finally:
        for app in apps:
            app.terminate()
            app.wait(5)


def test_an_annotation_session_over_a_text_editor_shows_its_ink_and_the_windows_through_it():
    """The README's picture (docs/images/canvas.png with --screenshot): over xedit showing a checklist
    and xcalc, a line highlighted, an item circled, "Ship it!" written and an arrow, drawn as the mouse
    draws (scene.py); the ink where it was drawn, both applications unchanged away from it."""
    import scene
    page = os.path.join(ARGS.scratch, "checklist.txt")
    with open(page, "w") as f:
        f.write(scene.CHECKLIST)
    apps = [subprocess.Popen(argv, env=DESKTOP_SESSION.env, cwd=ARGS.scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for argv in (["xedit", "-geometry", "600x400+60+90", "checklist.txt"], ["xcalc", "-geometry", "+900+300"])]
    try:
        with stack(empty=True) as s:
            editor, calculator = client_geometry("xedit"), client_geometry("Calculator")
            time.sleep(1.0)
            s.open_and_wait()
            # xedit's text below its buttons, message pane and status line, right of its scroll bar.
            left, top, width, height = editor
            text = (left + 20, top + 112, width - 24, height - 114)
            print(scene.annotate(s.request, DESKTOP_SESSION.screenshot, s.settle_screen, [text, calculator], pixel, check,
                                 ARGS.screenshot, scene.write_png), flush=True)
    finally:
        for app in apps:
            app.terminate()
            app.wait(5)


def test_escape_minimizes():
    with stack() as s:
        s.open_and_wait()
        n = len(s.watcher.canvas)
        # Focus it, then a real key press through XTEST (a chained `key` would be a synthetic
        # XSendEvent to the window, which GTK ignores).
        subprocess.run(["xdotool", "search", "--name", "^stylus-canvas$", "windowactivate", "--sync"],
                       env=DESKTOP_SESSION.env, capture_output=True)
        subprocess.run(["xdotool", "key", "Escape"], env=DESKTOP_SESSION.env, check=True)
        e = s.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in s.watcher.canvas[n:], 5, "minimized after Escape")
        check(e["cause"] == "ack", f"minimized by {e['cause']}, not ack")


def test_undo():
    """Ctrl+Z in the window undoes: the last stroke's ink leaves the screen, every other stroke stays."""
    with stack() as s:
        strokes = s.request("strokes")["strokes"]
        s.open_and_wait()
        n = len(s.watcher.canvas)
        since = time.monotonic()
        subprocess.run(["xdotool", "search", "--name", "^stylus-canvas$", "windowactivate", "--sync"],
                       env=DESKTOP_SESSION.env, capture_output=True)
        subprocess.run(["xdotool", "key", "ctrl+z"], env=DESKTOP_SESSION.env, check=True)
        e = s.watcher.wait(lambda e: e["event"] == "canvas" and e["cause"] == "undo" and e in s.watcher.canvas[n:], 5, "an undo after Ctrl+Z")
        check(e["stroke_count"] == len(strokes) - 1 and e["state"] == "open", f"{e}")
        s.wait_overlay(f"strokes: {len(strokes) - 1} (rebuild)", 5, since)
        s.settle_screen()
        image = DESKTOP_SESSION.screenshot()
        kept, removed = strokes[:-1], strokes[-1:]
        check(s.request("strokes")["strokes"] == kept, "the daemon did not remove exactly the last stroke")
        n_kept = check_canvas(image, kept, [(0, 0, 30)], "after undo")
        near = {(x + dx, y + dy) for x, y in screen_points(kept, WIDTH, HEIGHT) for dx in range(-12, 13) for dy in range(-12, 13)}
        gone = [p for p in screen_points(removed, WIDTH, HEIGHT) if p not in near]
        check(gone, "every point of the last stroke lies on another stroke: nothing to see")
        still = [p for p in gone if inked(image, *p)]
        check(not still, f"{len(still)} of {len(gone)} points of the undone stroke still have ink, e.g. {still[:5]}")
        print(f"  {len(kept)} strokes ({n_kept} points) stay; {len(gone)} points of the undone stroke are bare", flush=True)


def test_undo_redo_and_a_clear_taken_back_on_a_large_drawing_redraw_what_drawing_afresh_draws():
    """The canvas redraws an undo, a redo, a clear taken back or a stroke erased whole
    only where the drawing changed, or from a copy of its earlier strokes, rather than
    from nothing: `stylus-canvas --render-bench` goes through 60 undos, 60 redos, clears
    taken back and a stroke erased from the middle of 80 strokes (16 000 points: pen,
    highlighter, eraser; a long wave across the picture every sixth, which takes the
    copy, between short strokes, which take the changed region; the last 20 off this
    surface) and compares the layer after each with the same strokes drawn one by one into
    fresh layers, pixel for pixel."""
    strokes = []
    for s in range(60):
        tool = ["pen", "pen", "highlighter", "eraser", "pen", "highlighter", "pen"][s % 7]
        n = 200
        if s % 6 == 0:
            xs = [0.05 + 0.9 * i / (n - 1) for i in range(n)]
            ys = [0.1 + 0.8 * s / 60 + 0.05 * math.sin(i / 7 + s) for i in range(n)]
        else:
            x0, y0 = 0.05 + 0.15 * (s % 6), 0.1 + 0.13 * (s % 7)
            xs = [x0 + 0.06 * i / (n - 1) + 0.01 * math.sin(i / 5) for i in range(n)]
            ys = [y0 + 0.03 * math.cos(i / 9 + s) for i in range(n)]
        strokes.append({"device": 1, "tool": tool, "color": ["#d61a1c", "#3465a4", "#edd400"][s % 3], "width": 8 + s % 5,
                        "points": [[x, y, 0.2 + 0.8 * ((i * 3) % 10) / 10, 0, 0, 1_000_000 * s + 5_000 * i] for i, (x, y) in enumerate(zip(xs, ys))]})
    # Then strokes this surface does not show (another monitor's part of the drawing), the
    # last ones: undone past the copy, they change nothing here.
    for s in range(20):
        n = 200
        strokes.append({"device": 1, "tool": "pen", "color": "#3465a4", "width": 8,
                        "points": [[1.2 + 0.3 * i / n, 0.5, 0.5, 0, 0, 100_000_000 + 1_000_000 * s + 5_000 * i] for i in range(n)]})
    run = subprocess.run([ARGS.canvas, "--render-bench", "800x600", "60"], input=json.dumps({"canvas": "open", "strokes": strokes}),
                         capture_output=True, text=True, timeout=120)
    print("".join(f"  {line}\n" for line in run.stdout.splitlines()), end="", flush=True)
    check(run.returncode == 0, f"stylus-canvas --render-bench exited {run.returncode}: {run.stdout.strip()} {run.stderr.strip()}")
    checked = re.search(r"identical to a fresh drawing after all (\d+) checked redraws", run.stdout)
    check(checked and int(checked.group(1)) >= 20, f"not every redraw was checked: {run.stdout}")


def test_every_default_key_and_a_rebound_one_do_their_actions_on_the_open_canvas():
    """Real key presses (XTEST) on the focused canvas: each default key changes the style or
    the drawing as its action does (the daemon's answer to `tool` after each), a key rebound
    in [canvas.keys] does its new action and an unbound one nothing; Escape minimizes."""
    with private_directory("stylus-canvas-test-") as root:
        os.makedirs(os.path.join(root, "stylusd"))
        with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
            f.write('[canvas.keys]\nq = "tool:eraser"\nh = "none"\n')
        s = Stack(ARGS, DESKTOP_SESSION, root, (), False, drawn_state())
        try:
            strokes = len(s.request("strokes")["strokes"])
            s.open_and_wait()
            subprocess.run(["xdotool", "search", "--name", "^stylus-canvas$", "windowactivate", "--sync"],
                           env=DESKTOP_SESSION.env, capture_output=True)

            def press(key, what, expected):
                subprocess.run(["xdotool", "key", key], env=DESKTOP_SESSION.env, check=True)
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    status = s.request("status")
                    if what(status) == expected:
                        return
                    time.sleep(0.05)
                check(False, f"key {key}: {what(s.request('status'))}, not {expected}")

            def tool(status):
                return status["tool"]["tool"]

            def color(status):
                return status["tool"]["color"]

            def width(status):
                return status["tool"]["width"]

            def count(status):
                return status["canvas"]["stroke_count"]
            for key, name in [("p", "pen"), ("e", "eraser"), ("l", "line"), ("a", "arrow"), ("r", "rectangle"),
                              ("o", "ellipse"), ("x", "laser"), ("q", "eraser"), ("p", "pen")]:
                press(key, tool, name)
            subprocess.run(["xdotool", "key", "h"], env=DESKTOP_SESSION.env, check=True)   # unbound by the file
            for i, hex_colour in enumerate(PALETTE):
                press(str(i + 1), color, hex_colour)
            press("plus", width, 12)
            press("minus", width, 8)
            press("KP_Add", width, 12)
            press("ctrl+z", count, strokes - 1)
            press("ctrl+shift+z", count, strokes)
            press("ctrl+z", count, strokes - 1)
            press("ctrl+y", count, strokes)
            press("Delete", count, 0)
            press("ctrl+z", count, strokes)
            check(tool(s.request("status")) == "pen", "h, unbound in [canvas.keys], changed the tool")
            press("Escape", lambda st: st["canvas"]["state"] in ("minimizing", "minimized"), True)
            print(f"  {len(PALETTE) + 20} keys did their actions", flush=True)
        finally:
            s.close()


def check_the_default_keys(send, request, what, unchecked=None):
    """Each key of canvas-spec.json's default table sent (`send(name)`, the table's own name:
    `ctrl+shift+z`, `plus`, `delete`) to the open canvas, which holds strokes: after each, the
    daemon's status is as the key's action says (a tool, a palette colour, a board, which the
    same key takes off again, a width step, undo, redo, clear), Escape last. A key whose action
    the style already shows goes after the others of its kind, so that each changes something.
    `unchecked`: keys known not to reach the canvas there, with the reason, which the log says."""
    keys = dict(canvas_spec.spec()["constants"]["keys"])
    for key, reason in (unchecked or {}).items():
        print(f"  {what}: key {key} ({keys.pop(key)}) NOT CHECKED: {reason}", flush=True)
    steps = canvas_spec.spec()["constants"]["widthSteps"]
    status = request("status")
    strokes = status["canvas"]["stroke_count"]
    check(strokes >= 2, f"{what}: the keys need a drawing of two strokes at least, not {strokes}")

    def press(key, field, expected):
        send(key)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            got = field(request("status"))
            if got == expected:
                return
            time.sleep(0.05)
        check(False, f"{what}: key {key} ({keys[key]}): {field(request('status'))}, not {expected}")

    def kind(prefix, field, value):
        chosen = [(key, action.split(":", 1)[1]) for key, action in keys.items() if action.startswith(prefix)]
        now = field(request("status"))
        for key, arg in sorted(chosen, key=lambda c: value(c[1]) == now):
            if value(arg) is None:   # a colour's place past the palette's end (9 of 8): nothing changes
                before = field(request("status"))
                send(key)
                time.sleep(0.5)
                check(field(request("status")) == before, f"{what}: key {key} ({keys[key]}) changed {before} to {field(request('status'))}")
                continue
            press(key, field, value(arg))
        return len(chosen)
    n = kind("tool:", lambda st: st["tool"]["tool"], lambda arg: arg)
    n += kind("color:", lambda st: st["tool"]["color"], lambda arg: PALETTE[int(arg) - 1] if int(arg) <= len(PALETTE) else None)
    board = lambda st: st["canvas"].get("background")   # noqa: E731
    for key, action in keys.items():
        if action.startswith("background:"):
            press(key, board, action.split(":", 1)[1])
            n += 1
    last = [key for key, action in keys.items() if action.startswith("background:")][-1]
    press(last, board, "none")   # the board that shows: its key takes it off
    width = lambda st: st["tool"]["width"]   # noqa: E731
    start = width(request("status"))
    up = [key for key, action in keys.items() if action == "width:+"]
    down = [key for key, action in keys.items() if action == "width:-"]
    for key in up:
        press(key, width, min([w for w in steps if w > width(request("status"))] or [steps[-1]]))
    for key in down:
        press(key, width, max([w for w in steps if w < width(request("status"))] or [steps[0]]))
    n += len(up) + len(down)
    count = lambda st: st["canvas"]["stroke_count"]   # noqa: E731
    undo = [key for key, action in keys.items() if action == "undo"]
    redo = [key for key, action in keys.items() if action == "redo"]
    clear = [key for key, action in keys.items() if action == "clear-canvas"]
    for key in redo:
        press(undo[0], count, strokes - 1)
        press(key, count, strokes)
    for key in clear:
        press(key, count, 0)
        press(undo[0], count, strokes)
    n += len(undo) + len(redo) + len(clear)
    # Snapshot and copy change no status: the drawing and the open canvas stay as they were (what they
    # write or hold is checked by snapshot_test.py, where the desktop offers a capture).
    shares = [key for key, action in keys.items() if action in ("snapshot", "copy")]
    for key in shares:
        before = request("status")
        send(key)
        time.sleep(0.3)
        after = request("status")
        check(after["canvas"]["state"] == "open" and after["canvas"]["stroke_count"] == before["canvas"]["stroke_count"],
              f"{what}: key {key} ({keys[key]}) changed the canvas: {before['canvas']} to {after['canvas']}")
    n += len(shares)
    minimize = [key for key, action in keys.items() if action == "minimize-canvas"]
    for key in minimize:
        press(key, lambda st: st["canvas"]["state"] in ("minimizing", "minimized"), True)
    n += len(minimize)
    check(n == len(keys), f"{what}: {len(keys) - n} keys of the table were not tried: the test knows no such action")
    print(f"  {what}: {n} default keys did their actions (the width by steps from {start})", flush=True)


def test_tools_and_colours_draw_as_their_style_says():
    """The layer-shell suite's styled strokes on X11: a blue pen line, a yellow highlighter over
    it and over itself, a green arrow, a purple rectangle, each as the renderer rule says."""
    import layer_shell_test as lt
    with private_directory("stylus-canvas-test-") as root:
        s = Stack(ARGS, DESKTOP_SESSION, root, (), False, lt.styled_state(ARGS.scratch), False, False)
        try:
            s.open_and_wait()
            lt.check_styles(DESKTOP_SESSION.screenshot(), DESKTOP)
        finally:
            s.close()


def flattened(command, stdin=None):
    """An image file made opaque over the desktop's colour, as the screen shows the canvas: (width, height, RGB)."""
    picture = subprocess.run(command, input=stdin, capture_output=True, check=True).stdout
    ppm = subprocess.run(["convert", "png:-", "-background", DESKTOP_HEX, "-flatten", "-depth", "8", "ppm:-"],
                         input=picture, capture_output=True, check=True).stdout
    return parse_ppm(ppm)


def ink_agreement(shot, picture, tolerance=24):
    """Of the pixels either image inks (unlike the desktop), how many the two show alike
    (every channel within `tolerance`): (agreeing, inked)."""
    w, h, a = shot
    w2, h2, b = picture
    check((w, h) == (w2, h2), f"sizes differ: {w}x{h} and {w2}x{h2}")
    d = bytes(DESKTOP)
    agree = inked_count = 0
    for y in range(BORDER, h - BORDER):
        ra, rb = a[y * w * 3:(y + 1) * w * 3], b[y * w * 3:(y + 1) * w * 3]
        if ra == rb == d * w:
            continue   # most rows: bare desktop in both
        for x in range(BORDER, w - BORDER):
            pa, pb = ra[x * 3:x * 3 + 3], rb[x * 3:x * 3 + 3]
            if sum(abs(i - j) for i, j in zip(pa, d)) <= 30 and sum(abs(i - j) for i, j in zip(pb, d)) <= 30:
                continue
            inked_count += 1
            if pa == pb or all(abs(i - j) <= tolerance for i, j in zip(pa, pb)):
                agree += 1
    return agree, inked_count


def test_export_png_and_svg_match_the_canvas():
    """`export` of the styled drawing (pen, highlighter over it and over itself, arrow,
    rectangle) and an eraser pass across the pen line, at the screen's size: the PNG
    (stylus-canvas's renderer, no display) and the SVG (rsvg-convert) each show at least
    99 % of the canvas's ink pixels as the screen does."""
    import layer_shell_test as lt
    with open(lt.styled_state(ARGS.scratch)) as f:
        state = json.load(f)
    n = 21
    state["strokes"].append({"device": 1, "tool": "eraser", "color": "#d61a1c", "width": 8,
                             "x": [0.3] * n, "y": [0.15 + 0.02 * i for i in range(n)], "pressure": [1.0] * n,
                             "tilt_x": [0.0] * n, "tilt_y": [0.0] * n, "time_us": [2_000_000 + 10_000 * i for i in range(n)]})
    path = os.path.join(ARGS.scratch, "export-state.json")
    with open(path, "w") as f:
        json.dump(state, f)
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas
    with private_directory("stylus-canvas-test-") as root:
        s = Stack(ARGS, DESKTOP_SESSION, root, (), False, path, False, False)
        try:
            s.open_and_wait()
            shot = DESKTOP_SESSION.screenshot()
            check(is_desktop(shot, int(0.3 * WIDTH), int(0.25 * HEIGHT)), "the eraser left ink on the pen line: nothing to compare it with")
            png, svg = os.path.join(root, "export.png"), os.path.join(root, "export.svg")
            for target in (png, svg):
                r = s.request("export", path=target, width=WIDTH, height=HEIGHT)
                check((r["width"], r["height"]) == (WIDTH, HEIGHT), f"{r}")
            for name, picture in [("PNG", flattened(["cat", png])), ("SVG", flattened(["rsvg-convert", "-w", str(WIDTH), "-h", str(HEIGHT), svg]))]:
                agree, inked_count = ink_agreement(shot, picture)
                exact, _ = ink_agreement(shot, picture, tolerance=0)
                check(inked_count > 2000, f"{name}: only {inked_count} ink pixels: no drawing to compare")
                check(is_desktop(picture, int(0.3 * WIDTH), int(0.25 * HEIGHT)), f"the {name}'s eraser left the pen line's ink")
                share = agree / inked_count
                print(f"  {name}: {agree} of {inked_count} ink pixels agree with the canvas ({share:.2%}; {exact} identical)", flush=True)
                check(share >= 0.99, f"the exported {name} differs from the canvas: {share:.2%} of {inked_count} ink pixels agree")
        finally:
            s.close()
            os.environ.pop("STYLUSD_RENDERER", None)
PALETTE = canvas_spec.palette_colors()
# What the canvas logs once it told the daemon where the palette's buttons are (colours, tools,
# width - and +, the board): one region a button, as many as the spec lays out on this screen.
PALETTE_REGIONS_REPORTED = f"palette: {len(canvas_spec.palette_buttons(WIDTH, HEIGHT))} regions reported"


def palette_board_button(width=WIDTH, height=HEIGHT):
    """The centre of the palette's board button in window pixels, where the spec lays it out."""
    b = next(b for b in canvas_spec.palette_buttons(width, height) if b["kind"] == "board")
    return int(b["x"] + b["side"] / 2), int(b["y"] + b["side"] / 2)


# The boards a click on the board button goes through from none (`background:next`), with
# the paper a point away from the ink and the palette then shows (None: the desktop).
BOARD_CYCLE = [("white", (0xff, 0xff, 0xff)), ("black", (0, 0, 0)), ("grid", (0xff, 0xff, 0xff)), ("none", None)]


def palette_swatches(width=WIDTH, height=HEIGHT):
    """The centre of each colour swatch in window pixels, as the canvas spec lays out the
    palette (Sources/CanvasModel/canvas-spec.json, the figures PaletteLayout is held to)."""
    return canvas_spec.palette_swatch_centres(width, height)


def check_palette_swatches(image, width=WIDTH, height=HEIGHT, palette=PALETTE):
    """Each swatch in its exact colour where the layout puts it."""
    for (x, y), hex_colour in zip(palette_swatches(width, height), palette):
        want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
        got = pixel(image, x, y)
        check(all(abs(a - b) <= 2 for a, b in zip(got, want)), f"the swatch of {hex_colour} at {(x, y)} is {got}")


def check_a_tap_picked_blue(tools, watcher, request, lead_in):
    """After the recording's tap on the blue swatch: a tool event from the pen, and the
    stroke that follows, the only one, blue. Returns the strokes."""
    tools.sock.settimeout(lead_in + 10)
    e = tools.next_event()
    check(e["event"] == "tool" and e["source"] == "pen" and e["color"] == "#3465a4", f"the tap's event: {e}")
    watcher.wait(lambda e: e["event"] == "stroke", 10, "the stroke after the tap")
    strokes = request("strokes")["strokes"]
    check(len(strokes) == 1 and strokes[0]["color"] == "#3465a4", f"strokes after the tap: {[(x['color'], len(x['points'])) for x in strokes]}")
    return strokes


def check_a_reload_reorders_the_swatches(root, request, wait_log, settle, screenshot, width=WIDTH, height=HEIGHT):
    """config.toml (in `root`/stylusd) gets the palette reversed, the daemon reloads it: the
    canvas reports its regions again and every swatch shows its new colour at once."""
    reversed_palette = PALETTE[::-1]
    with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
        f.write('[canvas]\nshow_palette = "always"\npalette = [%s]\n' % ", ".join(f'"{c}"' for c in reversed_palette))
    since = time.monotonic()
    request("reload")
    wait_log(PALETTE_REGIONS_REPORTED, 5, since)
    settle()
    check_palette_swatches(screenshot(), width, height, palette=reversed_palette)


def palette_recording(root, tap, stroke, lead_in):
    """The pen, in proximity at once; after `lead_in` s a tap at `tap` (window pixels of
    the screen the tablet maps to), then a stroke through `stroke`."""
    r = PenRecording()
    K, A = PenRecording.EV_KEY, PenRecording.EV_ABS
    r.frame((K, r.TOOL["pen"], 1), *r.axes(640, 400), (A, r.ABS_DISTANCE, 30))
    r.frame(*r.axes(*tap), after_us=round(lead_in * 1_000_000))
    r.frame((K, r.BTN_TOUCH, 1), (A, r.ABS_PRESSURE, 900), *r.axes(*tap), after_us=20_000)
    r.frame((A, r.ABS_PRESSURE, 1000), *r.axes(tap[0] + 1, tap[1]), after_us=30_000)
    r.frame((K, r.BTN_TOUCH, 0), (A, r.ABS_PRESSURE, 0), after_us=30_000)
    r.frame(*r.axes(*stroke[0]), after_us=520_000)
    for i, p in enumerate(stroke):
        r.frame(*([(K, r.BTN_TOUCH, 1)] if i == 0 else []), (A, r.ABS_PRESSURE, 1200), *r.axes(*p), after_us=20_000 if i == 0 else 10_000)
    r.frame((K, r.BTN_TOUCH, 0), (A, r.ABS_PRESSURE, 0), after_us=40_000)
    r.frame((K, r.TOOL["pen"], 0), after_us=350_000 - 10_000 * len(stroke))
    return r.write(os.path.join(root, "palette.events"))


def test_the_palette_shows_its_swatches_and_a_pen_tap_picks_the_next_strokes_colour_without_drawing():
    """[canvas] show_palette = "always": the open canvas shows the palette's swatches where
    PaletteLayout puts them; the replayed pen taps the blue swatch (a tool event from the
    pen, no stroke, no ink on the swatch), then draws a stroke elsewhere, which is blue. A
    reload that reorders [canvas] palette shows the new swatches at once."""
    lead_in = 8.0
    swatches = palette_swatches()
    blue = swatches[4]
    stroke = [(500 + 30 * i, 300 + 10 * i) for i in range(11)]
    with private_directory("stylus-canvas-test-") as root:
        os.makedirs(os.path.join(root, "stylusd"))
        with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
            f.write('[canvas]\nshow_palette = "always"\n')
        started = time.monotonic()
        s = Stack(ARGS, DESKTOP_SESSION, root, (), True, None, recording=palette_recording(root, blue, stroke, lead_in), speed="1")
        try:
            tools = Client(s.socket)
            tools.request("subscribe", topics=["tool"])
            since = time.monotonic()
            s.open_and_wait()
            s.wait_overlay(PALETTE_REGIONS_REPORTED, 5, since)
            check(time.monotonic() - started < lead_in - 1, f"the canvas was ready {time.monotonic() - started:.1f} s after the start, "
                  f"too late for the tap at {lead_in} s")
            image = DESKTOP_SESSION.screenshot()
            check_palette_swatches(image)
            left_of_row = (swatches[0][0] - 14, swatches[0][1])
            check(pixel(image, *left_of_row) != DESKTOP, f"no palette strip behind the swatches at {left_of_row}")
            # The tap: the colour changes, from the pen, and nothing is drawn.
            strokes = check_a_tap_picked_blue(tools, s.watcher, s.request, lead_in)
            first = strokes[0]["points"][0]
            check(abs(first[0] * WIDTH - stroke[0][0]) < 3, f"the stroke does not begin where the pen drew it: {first}")
            since = time.monotonic()
            s.wait_overlay("strokes: 1", 5, since - 5)
            s.settle_screen()
            image = DESKTOP_SESSION.screenshot()
            got = pixel(image, *blue)
            check(all(abs(a - b) <= 2 for a, b in zip(got, (0x34, 0x65, 0xa4))), f"the tapped swatch shows {got}: ink was drawn on it")
            mid = stroke[5]
            got = pixel(image, *mid)
            check(abs(got[0] - 0x34) <= 30 and abs(got[2] - 0xa4) <= 30 and got != DESKTOP, f"the stroke after the tap is not blue at {mid}: {got}")
            check_a_reload_reorders_the_swatches(root, s.request, s.wait_overlay, s.settle_screen, DESKTOP_SESSION.screenshot)
            print(f"  8 swatches where the layout puts them; the tap picked #3465a4 and drew nothing; the next stroke is blue; "
                  f"a reload's palette shows at once", flush=True)
        finally:
            s.close()


@contextlib.contextmanager
def click_target():
    """A small xev window at (300, 300), mapped; yields the list of lines xev prints (its button events)."""
    xev = subprocess.Popen(["xev", "-geometry", "200x150+300+300", "-event", "button", "-name", "click-target"],
                           env=DESKTOP_SESSION.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seen = []
    threading.Thread(target=lambda: [seen.append(l) for l in xev.stdout], daemon=True).start()
    try:
        # Mapped, not merely started: a loaded machine takes its time.
        subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "click-target"],
                       env=DESKTOP_SESSION.env, check=True, timeout=10, stdout=subprocess.DEVNULL)
        yield seen
    finally:
        xev.terminate()
        xev.wait(5)


def click_reaches_window_below(overlay_args, pen_captured=False, filter_without_capture=False, config=None, drawn=None):
    """A small xev window under the open canvas; a click on it; whether xev saw the press.
    `drawn`, a list, gets the strokes the daemon holds after the click."""
    with stack(overlay_args, pen_captured=pen_captured, filter_without_capture=filter_without_capture, config=config) as s, \
            click_target() as seen:
        since = time.monotonic()
        s.open_and_wait()
        if "--click-through" in overlay_args or (pen_captured and config == POINTER_PASS):
            s.wait_overlay("click-through: empty input region", 5, since)
        subprocess.run(["xdotool", "mousemove", "400", "375", "click", "1"], env=DESKTOP_SESSION.env, check=True)
        # The press reaches xev or it does not; give a loaded machine 2 s to tell.
        end = time.monotonic() + 2.0
        while time.monotonic() < end and not any("ButtonPress" in l for l in seen):
            time.sleep(0.05)
        subprocess.run(["xdotool", "mousemove", "0", "0"], env=DESKTOP_SESSION.env, check=True)
        if drawn is not None:
            drawn.extend(s.request("strokes")["strokes"])
        return any("ButtonPress" in l for l in seen)


def test_click_through_reaches_the_window_below():
    check(click_reaches_window_below(["--click-through"]), "with --click-through the click did not reach the window below")


def test_without_click_through_the_canvas_takes_the_click():
    check(not click_reaches_window_below([]), "without --click-through the click went through the canvas to the window below")


def test_with_the_pen_captured_and_pointer_pass_the_canvas_lets_clicks_through():
    """Filter mode with `[canvas] pointer = "pass"`: the daemon holds the pen, so the canvas needs no
    pointer input and a mouse keeps working under it."""
    drawn = []
    check(click_reaches_window_below([], pen_captured=True, config=POINTER_PASS, drawn=drawn),
          "with the daemon in filter mode (capturing the pen) and pointer = pass the canvas still took the click")
    check(not [t for t in drawn if t.get("source") == "pointer"], "with pointer = pass the click drew a stroke")


def test_with_the_pen_captured_a_click_on_the_open_canvas_draws_rather_than_passing():
    """Filter mode with the default `[canvas] pointer = "draw"`: the open canvas takes the mouse
    over its whole window, so the click is a dot of the canvas's, not a click on the window below."""
    drawn = []
    check(not click_reaches_window_below([], pen_captured=True, drawn=drawn),
          "with pointer = draw the click went through the open canvas to the window below")
    pointer = [t for t in drawn if t.get("source") == "pointer"]
    check(len(pointer) == 1, f"the click drew {len(pointer)} pointer strokes: {[(t.get('source'), len(t['points'])) for t in drawn[-3:]]}")
    x, y = screen_points(pointer, WIDTH, HEIGHT)[0]
    check(abs(x - 400) <= 2 and abs(y - 375) <= 2, f"the click's dot is at {(x, y)}, not at (400, 375)")


def test_in_filter_mode_without_the_pen_captured_the_canvas_takes_the_click():
    """Filter mode, but the pen still reaches the desktop (capture_while_canvas_open = false, or a node
    waiting to be grabbed): the daemon says captures_pen false, and the canvas must take the pen's clicks."""
    check(not click_reaches_window_below([], filter_without_capture=True),
          "with the daemon in filter mode but not capturing the pen, the click went through the canvas")


def test_daemon_restart_redraws_within_2s():
    with stack() as s:
        strokes = s.request("strokes")["strokes"]
        s.open_and_wait()
        before = DESKTOP_SESSION.screenshot()
        check_canvas(before, strokes, [(0, 0, 30)], "before the restart")
        s.daemon.terminate()
        s.daemon.wait(10)
        stopped = time.monotonic()
        s.start_daemon(replay=False)
        status = s.request("status")
        check(status["canvas"]["state"] == "open", f"the restarted daemon restored the canvas as {status['canvas']['state']}")
        s.wait_overlay("reconnected", 5, stopped)
        s.wait_overlay("strokes:", 2, stopped)
        while True:
            image = DESKTOP_SESSION.screenshot()
            if image[2] == before[2]:
                break
            check(time.monotonic() - stopped < 2.0, "the canvas was not the same within 2 s of the restart")
            time.sleep(0.05)
        print(f"  same {len(strokes)} strokes on screen {time.monotonic() - stopped:.2f} s after the daemon stopped", flush=True)


WHITE = (255, 255, 255)


def board_share(image, strokes, color=WHITE, exclude=(), matches=None, skip_rows=0):
    """Of the pixels away from every pen stroke (12 px), outside the discs `exclude` and below
    the first `skip_rows` rows, the share that is the board's colour (or that `matches(rgb bytes)`
    accepts): (share, counted)."""
    w, h, rgb = image
    points = screen_points([t for t in strokes if t.get("tool") != "eraser"], w, h)
    near = {(x + dx, y + dy) for x, y in points for dy in range(-12, 13) for dx in range(-12, 13)}
    board, counted = bytes(color), 0
    same = 0
    for y in range(skip_rows, h):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        for x in range(w):
            if (x, y) in near or any((x - ex) ** 2 + (y - ey) ** 2 <= r * r for ex, ey, r in exclude):
                continue
            counted += 1
            if (matches(row[x * 3:x * 3 + 3]) if matches else row[x * 3:x * 3 + 3] == board):
                same += 1
    return same / max(1, counted), counted


BOARD = canvas_spec.spec()["constants"]["board"]


def rgb_of(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def board_matcher(value):
    """What a pixel of the board `value` is: its colour; for the grid, the paper, a line or
    (a line antialiased across a pixel's edge) a blend of the two."""
    if value != "grid":
        colour = bytes(rgb_of(BOARD[value]))
        return lambda p: p == colour
    paper, line = rgb_of(BOARD["gridPaper"]), rgb_of(BOARD["gridLine"])
    low, high = [min(a, b) - 1 for a, b in zip(paper, line)], [max(a, b) + 1 for a, b in zip(paper, line)]
    return lambda p: all(lo <= c <= hi for c, lo, hi in zip(p, low, high))


def check_the_boards(stylusctl, socket, screenshot, strokes, desktop, exclude=(), skip_rows=0):
    """`stylusctl background white`, `black`, `grid` on the open canvas: each covers at least 99 %
    of the pixels away from the ink (the grid's lines visible on its paper) with the ink drawn on
    it; `background none` shows `desktop` there again. The screen is read until it agrees (the
    canvas paints when it hears the `background` event), for 5 s at most."""
    for value in ("white", "black", "grid", "none"):
        ctl = subprocess.run([stylusctl, "--socket", socket, "background", value], capture_output=True, text=True, timeout=20)
        check(ctl.returncode == 0 and ctl.stdout.strip() == f"background {value}", f"stylusctl background {value}: {ctl.stdout} {ctl.stderr}")
        matches = board_matcher(value) if value != "none" else (lambda p, d=bytes(desktop): p == d)
        deadline = time.monotonic() + 5
        while True:
            image = screenshot()
            share, counted = board_share(image, strokes, exclude=exclude, matches=matches, skip_rows=skip_rows)
            if share >= 0.99 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        shown = "the desktop" if value == "none" else f"the {value} board"
        check(share >= 0.99, f"background {value}: only {share:.2%} of {counted} pixels away from the ink show {shown}")
        if value == "none":
            print(f"  none: {share:.2%} of the pixels away from the ink show the desktop again", flush=True)
            continue
        n, missing = ink_on_board(image, strokes, rgb_of(BOARD["gridPaper" if value == "grid" else value]))
        check(len(missing) <= n // 50, f"background {value}: {len(missing)} of {n} points have no ink on the board, e.g. {missing[:5]}")
        line = ""
        if value == "grid":
            paper, on_grid = bytes(rgb_of(BOARD["gridPaper"])), board_matcher("grid")
            w, h, rgb = image
            lines = sum(1 for i in range(skip_rows * w * 3, len(rgb), 3) if rgb[i:i + 3] != paper and on_grid(rgb[i:i + 3]))
            check(lines >= w, f"background grid: only {lines} pixels of the grid's lines on the screen")
            line = f", {lines} pixels of grid lines"
        print(f"  {value}: {share:.2%} of {counted} pixels away from the ink are the board{line}; {n - len(missing)} of {n} points inked",
              flush=True)


def ink_on_board(image, strokes, color=WHITE):
    """The pen strokes' points with ink on the board: some pixel within 2 px clearly not the board's colour."""
    w, h, _ = image
    points = screen_points([t for t in strokes if t.get("tool") != "eraser"], w, h)

    def inked_here(x, y):
        return any(sum(abs(a - b) for a, b in zip(pixel(image, xx, yy), color)) > 60
                   for yy in range(max(0, y - 2), min(h, y + 3)) for xx in range(max(0, x - 2), min(w, x + 3)))
    missing = [p for p in points if not inked_here(*p)]
    return len(points), missing


def test_a_white_board_covers_the_screen_under_the_ink_is_exported_and_survives_a_restart():
    """`stylusctl background white` on the open canvas: at least 99 % of the pixels away from the
    ink are white and the ink is still drawn on it; a PNG export has the same board under the
    same ink; a restarted daemon gives it back; `background none` shows the desktop again."""
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas
    try:
        with stack() as s:
            strokes = s.request("strokes")["strokes"]
            s.open_and_wait()

            def board(value):
                since = time.monotonic()
                ctl = subprocess.run([os.path.join(ARGS.bin, "stylusctl"), "--socket", s.socket, "background", value],
                                     capture_output=True, text=True, timeout=20)
                check(ctl.returncode == 0 and ctl.stdout.strip() == f"background {value}", f"stylusctl background {value}: {ctl.stdout} {ctl.stderr}")
                s.wait_overlay(f"background {value}", 5, since)
                s.settle_screen()

            def check_white(image, what):
                share, counted = board_share(image, strokes, exclude=[(0, 0, 30)])
                n, missing = ink_on_board(image, strokes)
                print(f"  {what}: {share:.2%} of {counted} pixels away from the ink are white; {n - len(missing)} of {n} points inked", flush=True)
                check(share >= 0.99, f"{what}: only {share:.2%} of the pixels away from the ink are the white board")
                check(len(missing) <= n // 50, f"{what}: {len(missing)} of {n} points have no ink on the board, e.g. {missing[:5]}")

            board("white")
            check_white(DESKTOP_SESSION.screenshot(), "the canvas")
            png = os.path.join(s.root, "board.png")
            r = s.request("export", path=png, width=WIDTH, height=HEIGHT)
            check((r["width"], r["height"]) == (WIDTH, HEIGHT), f"{r}")
            check_white(flattened(["cat", png]), "the exported PNG")

            s.daemon.terminate()
            s.daemon.wait(10)
            stopped = time.monotonic()
            s.start_daemon(replay=False)
            check(s.request("status")["canvas"].get("background") == "white", "the restarted daemon lost the board")
            s.wait_overlay("reconnected", 5, stopped)
            s.wait_overlay("strokes:", 5, stopped)
            s.settle_screen()
            check_white(DESKTOP_SESSION.screenshot(), "after a restart")

            board("none")
            share, counted = board_share(DESKTOP_SESSION.screenshot(), strokes, DESKTOP, exclude=[(0, 0, 30)])
            check(share >= 0.99, f"without the board only {share:.2%} of the pixels away from the ink show the desktop")
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


def indicator_pixels(image, kind, colour, opacity, desktop=None):
    """Of the indicator's pixels (the spec's rectangles), how many show `colour` at `opacity` over
    the desktop (a badge: its box holds some pixel of the colour, its outline and anti-aliasing
    aside): (matching, all)."""
    w, h, _ = image
    want = tuple(round(c * opacity + d * (1 - opacity)) for c, d in zip(colour, desktop or DESKTOP))
    rects = canvas_spec.indicator_rects(kind, w, h)
    if kind == "badge":
        x0, y0, bw, bh = rects[0]
        centre = pixel(image, int(x0 + bw / 2), int(y0 + bh / 2))
        return int(all(abs(a - b) <= 6 for a, b in zip(centre, colour))), 1
    matching = total = 0
    for x0, y0, rw, rh in rects:
        for y in range(int(y0), int(y0 + rh)):
            for x in range(int(x0), int(x0 + rw)):
                total += 1
                matching += all(abs(a - b) <= 6 for a, b in zip(pixel(image, x, y), want))
    return matching, total


def test_the_open_canvas_shows_its_frame_in_the_current_colour_and_no_export_holds_it():
    """[canvas] indicator: by default a 2-px frame on the screen's edges in the current colour
    at the spec's opacity while open, gone when minimized, never in an export; `badge` is a dot
    in the top right corner; `none` leaves the edges to the desktop. A reload applies at the
    next opening."""
    opacity = canvas_spec.spec()["constants"]["indicator"]["frameOpacity"]
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas
    try:
        check_the_indicator(opacity)
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


def check_the_indicator(opacity):
    with stack(empty=True) as s:
        s.request("tool", tool="pen", color="#3465a4")
        s.open_and_wait()
        s.settle_screen()
        matching, total = indicator_pixels(DESKTOP_SESSION.screenshot(), "frame", (0x34, 0x65, 0xa4), opacity)
        print(f"  open: {matching} of {total} frame pixels in the pen's blue at {opacity}", flush=True)
        check(matching == total, f"the frame: only {matching} of {total} pixels are the current colour")
        s.request("tool", color="#4e9a06")
        s.wait_overlay("style pen, #4e9a06", 5)
        s.settle_screen()
        matching, total = indicator_pixels(DESKTOP_SESSION.screenshot(), "frame", (0x4e, 0x9a, 0x06), opacity)
        check(matching == total, f"after a colour change only {matching} of {total} frame pixels follow it")
        png = os.path.join(s.root, "indicator.png")
        s.request("export", path=png, width=WIDTH, height=HEIGHT)
        with open(png, "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "no PNG")
        exported = flattened(["cat", png])
        check(not foreign_pixels(exported) and all(is_desktop(exported, x, y) for x in range(0, WIDTH, 7) for y in (0, 1, HEIGHT - 1)),
              "the export holds the frame")
        s.minimize_and_wait()
        shot = DESKTOP_SESSION.screenshot()
        edge = [(x, y) for x in range(WIDTH) for y in (0, 1, HEIGHT - 2, HEIGHT - 1) if not is_desktop(shot, x, y)]
        check(not edge, f"minimized, the frame stays at {len(edge)} pixels, e.g. {edge[:5]}")

        for kind in ("badge", "none"):
            write_config(s.root, f'[canvas]\nindicator = "{kind}"\n')
            check(s.request("reload")["canvas"]["indicator"] == kind, f"the reload did not set {kind}")
            s.open_and_wait()
            s.wait_overlay(f"indicator {kind}", 5)
            s.settle_screen()
            shot = DESKTOP_SESSION.screenshot()
            edge = [(x, y) for x in range(WIDTH) for y in (0, 1, HEIGHT - 2, HEIGHT - 1) if not is_desktop(shot, x, y)]
            check(not edge, f"{kind}: {len(edge)} edge pixels are not the desktop, e.g. {edge[:5]}")
            if kind == "badge":
                matching, _ = indicator_pixels(shot, "badge", (0x4e, 0x9a, 0x06), 1)
                check(matching == 1, f"no badge at the top right corner: {pixel(shot, WIDTH - 14, 14)}")
            else:
                check(is_desktop(shot, WIDTH - 14, 14), f"none: the corner shows {pixel(shot, WIDTH - 14, 14)}")
            s.minimize_and_wait()


def test_killed_daemon_hides_within_3s():
    with stack() as s:
        s.open_and_wait()
        check(foreign_pixels(DESKTOP_SESSION.screenshot()), "the open canvas shows nothing")
        s.daemon.kill()
        killed = time.monotonic()
        while foreign_pixels(DESKTOP_SESSION.screenshot()):
            check(time.monotonic() - killed < 3.0, "the canvas still shows 3 s after the daemon was killed")
            time.sleep(0.1)
        print(f"  hidden {time.monotonic() - killed:.2f} s after SIGKILL", flush=True)


def test_a_canvas_hidden_while_click_through_takes_the_clicks_when_shown_in_observe_mode():
    """Filter mode, the canvas opened click-through and minimized; the daemon gives the pen back
    (observe mode: here the proxy stops saying captures_pen, and the overlay reconnects); opened
    again, the canvas takes the clicks (the window manager's frame must not keep the old empty
    input shape)."""
    with stack([], pen_captured=True, config=POINTER_PASS) as s, click_target() as seen:
        since = time.monotonic()
        s.open_and_wait()
        s.wait_overlay("click-through: empty input region", 5, since)
        check(click_lands_on(seen), "with the pen captured the click did not go through the open canvas")
        s.minimize_and_wait()
        s.wait_overlay("hidden", 3, since)
        since = time.monotonic()
        s.proxy.captures = False
        s.proxy.drop_connections()
        s.wait_overlay("reconnected", 5, since)
        since = time.monotonic()
        s.open_and_wait()
        # The input shape is set as the window maps: on a busy machine after the open has been acked.
        s.wait_overlay("input region: the whole window takes pointer input", 5, since)
        # On screen, so mapped by the window manager, before the click.
        end = time.monotonic() + 5
        while not foreign_pixels(DESKTOP_SESSION.screenshot()):
            check(time.monotonic() < end, "the canvas opened again does not show")
            time.sleep(0.05)
        s.settle_screen()
        check(not click_lands_on(seen), "the canvas shown again in observe mode let the click through")
        remaps = [l for t, l in s.overlay_log if t >= since and "input region: the whole window" in l]
        check(len(remaps) == 1, f"the canvas was mapped {len(remaps)} times to take pointer input (a window mapped twice "
              f"is off the screen in between): {remaps}")


def test_without_a_window_manager_the_canvas_covers_the_monitor():
    """No window manager honours "fullscreen" on a bare X server: the canvas sizes
    itself to its monitor, so it covers the screen rather than a 200x200 corner."""
    desktop = Desktop(compositor=False, window_manager=False)
    try:
        with private_directory("stylus-canvas-test-") as root:
            s = Stack(ARGS, desktop, root, (), False, drawn_state(), False, False)
            try:
                s.open_and_wait()
                tree = subprocess.run(["xwininfo", "-root", "-tree"], env=desktop.env, capture_output=True, text=True).stdout
                windows = [line.strip() for line in tree.splitlines() if '"stylus-canvas"' in line]
                check(windows and all(f"{WIDTH}x{HEIGHT}+0+0" in w for w in windows), f"the canvas windows: {windows}")
            finally:
                s.close()
    finally:
        desktop.close()


def canvas_settles(desktop, strokes, what, timeout=5):
    """check_canvas on screenshots until it passes (the canvas redraws after a change), or its last failure."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check_canvas(desktop.screenshot(), strokes, [(0, 0, 30)], what)
        except Failure:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_without_a_compositor_the_ink_shows_over_the_desktop_and_one_that_comes_or_goes_changes_nothing_seen():
    """No compositing manager: a 32-bit window's clear pixels would be black, so the canvas is
    shaped to its ink and the desktop shows around it. A compositor that starts while the canvas
    shows, and one that dies, are followed at once: the screen keeps the ink and the desktop."""
    desktop = Desktop(compositor=False)
    try:
        with private_directory("stylus-canvas-test-") as root:
            s = Stack(ARGS, desktop, root, (), False, drawn_state(), False, False)
            try:
                strokes = s.request("strokes")["strokes"]
                s.open_and_wait()
                s.wait_overlay("no compositing manager: the canvas window is shaped to its ink", 5)
                n = canvas_settles(desktop, strokes, "no compositor")
                compositor = subprocess.Popen(["xcompmgr"], env=desktop.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    s.wait_overlay("a compositing manager started", 5)
                    canvas_settles(desktop, strokes, "a compositor started")
                finally:
                    compositor.kill()
                    compositor.wait(5)
                s.wait_overlay("the compositing manager went", 5)
                canvas_settles(desktop, strokes, "the compositor killed")
                print(f"  {n} points inked, the desktop around them, with no compositor, one started and one killed", flush=True)
            finally:
                s.close()
    finally:
        desktop.close()


def test_an_eraser_set_to_stroke_takes_the_strokes_it_touches_off_the_screen_whole():
    """`[canvas] eraser = "stroke"`: three lines drawn with the pen, then the eraser end
    down across the middle one only: that whole line leaves the screen, the other two stay;
    undo brings it back, redo takes it off again."""
    with private_directory("stylus-canvas-test-") as root:
        os.makedirs(os.path.join(root, "stylusd"))
        with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
            f.write('[canvas]\neraser = "stroke"\n')
        lines = [[(x, y) for x in range(300, 981, 10)] for y in (250, 400, 550)]
        recording = os.path.join(root, "eraser.events")
        pen_session(recording, [("pen", line) for line in lines] + [("eraser", [(640, y) for y in range(350, 451, 10)])])
        s = Stack(ARGS, DESKTOP_SESSION, root, (), True, recording=recording, speed="1")
        try:
            erase = s.watcher.wait(lambda e: e["event"] == "canvas" and e.get("cause") == "erase", 40, "an erase")
            check(erase["stroke_count"] == 2, f"the eraser did not take exactly one of three strokes: {erase}")
            s.wait_overlay("(rebuild)", 5)

            def shown(image, y):
                return [x for x in range(320, 961, 40) if inked(image, x, y)]
            s.settle_screen()
            image = DESKTOP_SESSION.screenshot()
            check(len(shown(image, 250)) == 17 and len(shown(image, 550)) == 17, "a line the eraser did not touch lost ink")
            check(not shown(image, 400), f"the erased line still shows at x = {shown(image, 400)}")
            since = time.monotonic()
            s.request("undo")
            s.wait_overlay("strokes: 3 (rebuild)", 5, since)
            s.settle_screen()
            check(len(shown(DESKTOP_SESSION.screenshot(), 400)) == 17, "undo did not bring the erased line back")
            since = time.monotonic()
            s.request("redo")
            s.wait_overlay("strokes: 2 (rebuild)", 5, since)
            s.settle_screen()
            check(not shown(DESKTOP_SESSION.screenshot(), 400), "redo did not take the line off again")
            print("  the rubbed line left the screen whole, came back on undo, left again on redo", flush=True)
        finally:
            s.close()


def click_lands_on(seen):
    """A click at the middle of the xev window; whether xev saw a new ButtonPress within 0.5 s."""
    n = len([l for l in seen if "ButtonPress" in l])
    subprocess.run(["xdotool", "mousemove", "400", "375", "click", "1"], env=DESKTOP_SESSION.env, check=True)
    end = time.monotonic() + 0.5
    while time.monotonic() < end and len([l for l in seen if "ButtonPress" in l]) == n:
        time.sleep(0.02)
    subprocess.run(["xdotool", "mousemove", "0", "0"], env=DESKTOP_SESSION.env, check=True)
    return len([l for l in seen if "ButtonPress" in l]) > n


def test_a_daemon_that_dies_holding_the_pen_leaves_no_click_through_canvas():
    """Filter mode, canvas open and click-through: the daemon is killed, so the kernel gives the
    pen back to the desktop. Until the canvas hides, it takes the clicks itself (a pen stroke
    would otherwise click the applications under a canvas still on screen); once hidden, a
    click reaches the window below again."""
    with stack([], pen_captured=True, config=POINTER_PASS) as s, click_target() as seen:
        since = time.monotonic()
        s.open_and_wait()
        s.wait_overlay("click-through: empty input region", 5, since)
        check(click_lands_on(seen), "with the pen captured the click did not go through the open canvas")
        since = time.monotonic()
        s.daemon.kill()
        s.daemon.wait(5)
        s.wait_overlay("takes pointer input", 1.5, since)
        check(time.monotonic() - since < 1.5, "the overlay took too long to notice the daemon's death")
        time.sleep(0.3)   # the window manager maps the canvas again (its frame keeps no empty input shape)
        check(not click_lands_on(seen), f"after the daemon died the click went through the canvas still on screen: {[l for t, l in s.overlay_log if t >= since]}")
        s.wait_overlay("hidden", 3, since)
        check(click_lands_on(seen), "after the canvas hid, the click did not reach the window below")
        print(f"  the canvas took the clicks from {[round(t - since, 2) for t, l in s.overlay_log if t >= since and 'takes pointer input' in l][0]} s "
              f"after SIGKILL until it hid", flush=True)


# ---------------------------------------------------------------- the mouse draws

BLUE = (0x34, 0x65, 0xa4)


def mouse_drag(points, pause="0.03"):
    """A left-button drag through `points` (screen pixels) with xdotool's XTEST pointer, then the pointer to the corner."""
    argv = ["xdotool", "mousemove", str(points[0][0]), str(points[0][1]), "sleep", pause, "mousedown", "1"]
    for x, y in points[1:]:
        argv += ["sleep", pause, "mousemove", str(x), str(y)]
    argv += ["sleep", pause, "mouseup", "1", "sleep", pause, "mousemove", "0", "0"]
    subprocess.run(argv, env=DESKTOP_SESSION.env, check=True)


def near_colour(image, x, y, colour, reach=2, tolerance=40):
    """Whether a pixel within `reach` of (x, y) shows `colour`."""
    return any(all(abs(a - b) <= tolerance for a, b in zip(pixel(image, x + dx, y + dy), colour))
               for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1))


def check_drag_inked(image, drag, colour, what):
    """Ink of `colour` along every segment of the drag (its middles and ends)."""
    along = [p for a, b in zip(drag, drag[1:]) for p in (a, ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2))] + [drag[-1]]
    missing = [p for p in along if not near_colour(image, *p, colour)]
    check(not missing, f"{what}: no {colour} ink at {len(missing)} of {len(along)} points of the drag, e.g. "
          f"{[(p, pixel(image, *p)) for p in missing[:3]]}")


def check_drag_bare(image, drag, what):
    still = [p for p in drag if inked(image, *p)]
    check(not still, f"{what}: ink remains at {len(still)} of {len(drag)} points of the drag, e.g. {still[:3]}")


def pointer_stroke(s, since_events):
    """The `stroke` event of the canvas's mouse stroke, after the first `since_events` canvas events."""
    return s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "pointer" and e in s.watcher.canvas[since_events:],
                          5, "a stroke event from the pointer")


def test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens():
    """[canvas] pointer = "draw" (the default): an xdotool drag on the open canvas leaves ink of
    the current colour where it went; the daemon records it with "source":"pointer" where
    dragged; it stays through a minimize and an opening, and through a daemon restart (the
    state file); `stylusctl undo` takes it off the screen and out of `strokes`."""
    drag = [(200 + 40 * i, 500 - 15 * i) for i in range(16)]
    with stack(empty=True) as s:
        s.request("tool", color="#3465a4")
        s.open_and_wait()
        since = time.monotonic()
        n = len(s.watcher.canvas)
        mouse_drag(drag)
        e = pointer_stroke(s, n)
        s.wait_overlay("strokes: 1", 5, since)
        s.settle_screen()
        check_drag_inked(DESKTOP_SESSION.screenshot(), drag, BLUE, "after the drag")
        strokes = s.request("strokes")["strokes"]
        check(len(strokes) == 1 and strokes[0]["source"] == "pointer" and strokes[0]["color"] == "#3465a4" and e["index"] == 0,
              f"the daemon's strokes: {[(t.get('source'), t['color'], len(t['points'])) for t in strokes]}")
        pts = screen_points(strokes, WIDTH, HEIGHT)
        check(max(abs(x - drag[0][0]) + abs(y - drag[0][1]) for x, y in pts[:1]) <= 3
              and abs(pts[-1][0] - drag[-1][0]) + abs(pts[-1][1] - drag[-1][1]) <= 3,
              f"the recorded stroke runs {pts[0]} to {pts[-1]}, the drag {drag[0]} to {drag[-1]}")
        check(all(min(abs(x - dx) + abs(y - dy) for dx, dy in drag) <= 3 for x, y in pts),
              "a recorded point lies off the drag")
        s.minimize_and_wait()
        check_drag_bare(DESKTOP_SESSION.screenshot(), drag, "minimized")
        s.open_and_wait()
        check_drag_inked(DESKTOP_SESSION.screenshot(), drag, BLUE, "opened again")
        s.daemon.terminate()
        s.daemon.wait(10)
        stopped = time.monotonic()
        s.start_daemon(replay=False)
        check(s.request("strokes")["strokes"] == strokes, "the restarted daemon does not hold the mouse's stroke as it was")
        s.wait_overlay("reconnected", 5, stopped)
        s.wait_overlay("strokes: 1", 5, stopped)
        s.settle_screen()
        check_drag_inked(DESKTOP_SESSION.screenshot(), drag, BLUE, "after the daemon restarted")
        since = time.monotonic()
        undo = subprocess.run([os.path.join(ARGS.bin, "stylusctl"), "--socket", s.socket, "undo"], capture_output=True, text=True)
        check(undo.returncode == 0, f"stylusctl undo: {undo.returncode} {undo.stdout} {undo.stderr}")
        s.wait_overlay("(undo, 0 strokes)", 5, since)
        s.settle_screen()
        check_drag_bare(DESKTOP_SESSION.screenshot(), drag, "after stylusctl undo")
        check(s.request("strokes")["strokes"] == [], "undo left the stroke in strokes")
        print(f"  a {len(drag)}-point drag: {len(pts)} points recorded as the pointer's, blue on screen through a "
              f"minimize, an opening and a restart; undone off the screen", flush=True)


def test_with_a_replayed_pen_only_the_pens_strokes_are_recorded():
    """The replayed pen draws three lines through the daemon while the canvas is open: the
    daemon holds exactly those three, all the pen's, each drawn once on screen, and none
    from the pointer. (Xvfb has no tablet device: the replayed pen reaches the daemon only,
    so this checks the canvas adds no stroke of its own; XInput 2's tablet filter is seen
    only on a real tablet.)"""
    lines = [[(x, y) for x in range(300, 981, 20)] for y in (250, 400, 550)]
    with private_directory("stylus-canvas-test-") as root:
        recording = os.path.join(root, "pen.events")
        pen_session(recording, [("pen", line) for line in lines])
        s = Stack(ARGS, DESKTOP_SESSION, root, (), True, recording=recording, speed="1")
        try:
            s.watcher.wait(lambda e: e["event"] == "stroke" and e["index"] == 2, 40, "the pen's three strokes")
            time.sleep(0.5)
            strokes = s.request("strokes")["strokes"]
            check(len(strokes) == 3 and all(t.get("source", "pen") == "pen" for t in strokes),
                  f"the daemon holds {[(t.get('source'), len(t['points'])) for t in strokes]}, not the pen's three strokes")
            s.wait_overlay("strokes: 3", 5)
            s.settle_screen()
            check_canvas(DESKTOP_SESSION.screenshot(), strokes, s.watcher.hover_discs() + [(0, 0, 30)], "the pen's lines")
            print("  3 strokes, all the pen's, on screen once", flush=True)
        finally:
            s.close()


def test_each_pen_draws_and_shows_its_own_style_on_the_canvas():
    """Two pens with their own serials, each given a colour by `[pens.NAME]`: while pen A
    hovers, the open canvas's frame shows A's green; pen B comes in and it shows B's blue;
    each pen's line is in its own colour on screen."""
    green, blue = (0x4e, 0x9a, 0x06), (0x34, 0x65, 0xa4)
    opacity = canvas_spec.spec()["constants"]["indicator"]["frameOpacity"]
    with private_directory("stylus-canvas-test-") as root:
        os.makedirs(os.path.join(root, "stylusd"))
        with open(os.path.join(root, "stylusd", "config.toml"), "w") as f:
            f.write('[pens.a]\nserial = "0xa1"\ncolor = "#4e9a06"\nwidth = 12\n\n'
                    '[pens.b]\nserial = "0xb2"\ncolor = "#3465a4"\nwidth = 12\n')
        lines = [[(x, y) for x in range(300, 981, 20)] for y in (300, 500)]
        recording = os.path.join(root, "two-pens.events")
        pen_session(recording, [("pen", line) for line in lines], serials=[0xa1, 0xb2])
        s = Stack(ARGS, DESKTOP_SESSION, root, (), True, recording=recording, speed="1")
        try:
            s.wait_overlay("style pen, #4e9a06", 20)
            s.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "open", 40, "open by pen A's double press")
            s.settle_screen()
            shot = DESKTOP_SESSION.screenshot()
            check(not any("#3465a4" in l for _, l in s.overlay_log), "pen B came in before pen A's frame was seen")
            matching, total = indicator_pixels(shot, "frame", green, opacity)
            check(matching == total, f"pen A hovers: only {matching} of {total} frame pixels are its green")
            s.watcher.wait(lambda e: e["event"] == "stroke" and e["index"] == 1, 40, "both pens' lines")
            s.wait_overlay("style pen, #3465a4", 5)
            s.wait_overlay("strokes: 2", 5)
            s.settle_screen()
            shot = DESKTOP_SESSION.screenshot()
            matching, total = indicator_pixels(shot, "frame", blue, opacity)
            check(matching == total, f"pen B came in: only {matching} of {total} frame pixels are its blue")
            for y, want, who in ((300, green, "A"), (500, blue, "B")):
                inked = [x for x in range(320, 961, 40) if all(abs(a - b) <= 24 for a, b in zip(pixel(shot, x, y), want))]
                check(len(inked) == 17, f"pen {who}'s line shows its colour at {len(inked)} of 17 points")
            print("  pen A: green frame and line; pen B: blue frame and line", flush=True)
        finally:
            s.close()


def test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing():
    """[canvas] show_palette = "always": a mouse click on the blue swatch selects blue (a tool
    event), draws nothing (no stroke, the swatch unmarked); a drag elsewhere then draws blue."""
    blue = palette_swatches()[4]
    drag = [(500 + 30 * i, 300 + 10 * i) for i in range(11)]
    with stack(empty=True, config='[canvas]\nshow_palette = "always"\n') as s:
        tools = Client(s.socket)
        tools.request("subscribe", topics=["tool"])
        since = time.monotonic()
        s.open_and_wait()
        s.wait_overlay(PALETTE_REGIONS_REPORTED, 5, since)
        mouse_drag([blue, (blue[0] + 1, blue[1])])
        tools.sock.settimeout(5)
        e = tools.next_event()
        check(e["event"] == "tool" and e["color"] == "#3465a4", f"the click's event: {e}")
        time.sleep(0.3)
        check(s.request("strokes")["strokes"] == [], "the click on the palette drew a stroke")
        s.settle_screen()
        got = pixel(DESKTOP_SESSION.screenshot(), *blue)
        check(all(abs(a - b) <= 2 for a, b in zip(got, BLUE)), f"the clicked swatch shows {got}: ink was drawn on it")
        n = len(s.watcher.canvas)
        mouse_drag(drag)
        pointer_stroke(s, n)
        strokes = s.request("strokes")["strokes"]
        check(len(strokes) == 1 and strokes[0]["color"] == "#3465a4", f"after the click: {[(t['color'], len(t['points'])) for t in strokes]}")
        s.settle_screen()
        check_drag_inked(DESKTOP_SESSION.screenshot(), drag, BLUE, "the drag after the click")
        tools.close()
        print("  the click picked #3465a4 and drew nothing; the drag after it is blue", flush=True)


def test_a_mouse_click_on_the_board_button_goes_to_the_next_board_without_drawing():
    """[canvas] show_palette = "always": each mouse click on the palette's board button goes on to the
    next board (`background:next`: white, black, grid, none), shown at once under the ink (a point away
    from the palette has the board's paper, or the desktop for none); the button's middle shows the
    board's paper; no click draws a stroke."""
    button = palette_board_button()
    away = (WIDTH // 2 + 10, HEIGHT // 3 + 9)   # between the grid's lines (32 px apart here)
    with stack(empty=True, config='[canvas]\nshow_palette = "always"\n') as s:
        since = time.monotonic()
        s.open_and_wait()
        s.wait_overlay(PALETTE_REGIONS_REPORTED, 5, since)
        for name, paper in BOARD_CYCLE:
            since = time.monotonic()
            mouse_drag([button, (button[0] + 1, button[1])])
            s.wait_overlay(f"background {name}", 5, since)
            check(s.request("status")["canvas"].get("background") == name, f"after a click the board is {s.request('status')['canvas'].get('background')}, not {name}")
            s.settle_screen()
            image = DESKTOP_SESSION.screenshot()
            got = pixel(image, *away)
            if paper is None:
                check(is_desktop(image, *away), f"board none: {got} at {away}, not the desktop")
            else:
                check(all(abs(a - b) <= 2 for a, b in zip(got, paper)), f"board {name}: {got} at {away}, not {paper}")
                icon = pixel(image, *button)
                check(all(abs(a - b) <= 2 for a, b in zip(icon, paper)), f"board {name}: the button shows {icon}, not the board's {paper}")
            print(f"  a click: board {name}", flush=True)
        check(s.request("strokes")["strokes"] == [], "a click on the board button drew a stroke")


TEXT_RED = (0xd6, 0x1a, 0x1c)


def text_ink(image, box, colour, tolerance=60):
    """How many pixels of `colour` lie inside `box` (x0, y0, x1, y1) and outside it, inside the frame."""
    w, h, _ = image
    inside_box = outside_box = 0
    for y in range(BORDER, h - BORDER):
        for x in range(BORDER, w - BORDER):
            if all(abs(a - b) <= tolerance for a, b in zip(pixel(image, x, y), colour)):
                if box[0] <= x < box[2] and box[1] <= y < box[3]:
                    inside_box += 1
                else:
                    outside_box += 1
    return inside_box, outside_box


def check_kept_text(request, stroke_event, text, at, width=None, height=None):
    """After Escape ended a text typed at `at` (window pixels): the canvas is still open and the
    daemon holds that one text, red, its anchor at the click; its strokes."""
    width, height = width or WIDTH, height or HEIGHT
    check(request("status")["canvas"]["state"] == "open", "Escape ending the text minimized the canvas")
    strokes = request("strokes")["strokes"]
    check(len(strokes) == 1 and strokes[0]["tool"] == "text" and strokes[0]["text"] == text and stroke_event["index"] == 0
          and strokes[0]["color"] == "#d61a1c", f"the daemon's strokes: {strokes}")
    x, y = strokes[0]["points"][0][:2]
    check(abs(x * width - at[0]) <= 2 and abs(y * height - at[1]) <= 2, f"the text is at {(x * width, y * height)}, the click at {at}")
    return strokes


def test_a_text_typed_on_the_canvas_shows_at_once_is_kept_exported_alike_and_undone():
    """The text tool (issue 37): a click with the text tool places the caret; `xdotool type`
    shows the words at once in the current colour where clicked; Escape ends the text (the
    canvas stays open) and sends it: `strokes` lists it with its words where clicked, it stays on
    the screen, a PNG export agrees with the screen on at least 98 % of its ink pixels, and
    undo takes it off the screen."""
    at = (300, 300)
    # Width 8: size 24 of a drawing 1600 wide, on this 1280-wide screen 19.2 px; "Hello World" is
    # about 11 × 0.6 em wide and one line of 1.25 em tall below the click.
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(11 * size) + 4, at[1] + int(1.25 * size) + 4)
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas   # the daemon's PNG export draws with this canvas
    try:
        text_session(at, box)
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


def text_session(at, box):
    with stack(empty=True) as s:
        s.request("tool", tool="text", color="#d61a1c", width=8)
        s.open_and_wait()
        subprocess.run(["xdotool", "mousemove", str(at[0]), str(at[1]), "sleep", "0.1", "click", "1", "sleep", "0.3"],
                       env=DESKTOP_SESSION.env, check=True)
        subprocess.run(["xdotool", "type", "--delay", "40", "Hello World"], env=DESKTOP_SESSION.env, check=True)
        s.settle_screen()
        typing, stray = text_ink(DESKTOP_SESSION.screenshot(), box, TEXT_RED)
        check(typing > 40 and stray == 0, f"while typing: {typing} red pixels in the text's box, {stray} outside it")
        check(s.request("strokes")["strokes"] == [], "a text was recorded before it ended")
        n, since = len(s.watcher.canvas), time.monotonic()
        subprocess.run(["xdotool", "key", "Escape"], env=DESKTOP_SESSION.env, check=True)
        e = s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in s.watcher.canvas[n:],
                           5, "the text's stroke event")
        s.wait_overlay("strokes: 1", 5, since)
        s.settle_screen()
        strokes = check_kept_text(s.request, e, "Hello World", at)
        shot = DESKTOP_SESSION.screenshot()
        kept, stray = text_ink(shot, box, TEXT_RED)
        check(kept > 40 and stray == 0, f"once kept: {kept} red pixels in the text's box, {stray} outside it")
        png = os.path.join(ARGS.scratch, "text-export.png")
        r = s.request("export", path=png, width=WIDTH, height=HEIGHT)
        check((r["width"], r["height"]) == (WIDTH, HEIGHT), f"{r}")
        agree, inked_count = ink_agreement(shot, flattened(["cat", png]))
        check(inked_count > 40 and agree / inked_count >= 0.98,
              f"the exported text differs from the screen: {agree} of {inked_count} ink pixels agree")
        since = time.monotonic()
        s.request("undo")
        s.wait_overlay("(undo, 0 strokes)", 5, since)
        s.settle_screen()
        gone, _ = text_ink(DESKTOP_SESSION.screenshot(), box, TEXT_RED)
        check(gone == 0, f"after undo: {gone} red pixels remain in the text's box")
        print(f"  typed 'Hello World': {typing} red pixels while typing, {kept} kept; export agrees on "
              f"{agree} of {inked_count} ink pixels; undone off the screen", flush=True)


XIM_NAME = "stylustest"


def build_xim_server(folder):
    """Tests/overlay/x11/xim_server.c, the suite's XIM server (xcb-imdkit), into `folder`; copied from --tools when given."""
    out = os.path.join(folder, "xim_server")
    if getattr(ARGS, "tools", None):
        shutil.copy2(os.path.join(ARGS.tools, "xim_server"), out)
        return out
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "xcb-imdkit", "xcb"], capture_output=True, text=True)
    check(flags.returncode == 0, "xcb-imdkit's pkg-config file is missing: install libxcb-imdkit-dev")
    subprocess.run(["cc", "-O1", "-o", out, os.path.join(HERE, "x11", "xim_server.c"), *flags.stdout.split()], check=True)
    return out


class XimServer:
    """xim_server serving @im=XIM_NAME on the desktop; `lines` what it said (ready, ic, key, preedit, commit)."""

    def __init__(self, path, env):
        self.lines = []
        self.proc = subprocess.Popen([path, XIM_NAME], env=env, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def wait(self, word, count, timeout=5):
        end = time.monotonic() + timeout
        while self.lines.count(word) < count:
            check(time.monotonic() < end, f"the XIM server said {self.lines}, not {count} × {word!r}")
            check(self.proc.poll() is None, f"the XIM server exited ({self.proc.returncode})")
            time.sleep(0.02)

    def close(self):
        self.proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)


def longest_run(image, y, colour, tolerance=60):
    """The longest run of pixels of `colour` on row y."""
    w, _, _ = image
    best = run = 0
    for x in range(w):
        run = run + 1 if all(abs(a - b) <= tolerance for a, b in zip(pixel(image, x, y), colour)) else 0
        best = max(best, run)
    return best


def rightmost_ink(image, box, colour, tolerance=60):
    """The rightmost column inside `box` (x0, y0, x1, y1) with a pixel of `colour`; box[0] - 1 when none."""
    for x in range(box[2] - 1, box[0] - 1, -1):
        for y in range(box[1], box[3]):
            if all(abs(a - b) <= tolerance for a, b in zip(pixel(image, x, y), colour)):
                return x
    return box[0] - 1


@contextlib.contextmanager
def xim_session():
    """The suite's XIM server, XMODIFIERS naming it, and a stack whose canvas is open with the text tool and connected to it."""
    server = XimServer(build_xim_server(ARGS.scratch), DESKTOP_SESSION.env)
    DESKTOP_SESSION.env["XMODIFIERS"] = f"@im={XIM_NAME}"
    try:
        server.wait("ready", 1)
        with stack(empty=True) as s:
            open_with_the_text_tool(s)
            yield s, server
    finally:
        DESKTOP_SESSION.env.pop("XMODIFIERS", None)
        server.close()


def open_with_the_text_tool(s, connected=True):
    """Opens the canvas with the text tool in red, width 8; waits until it connected to the suite's XIM server when `connected`."""
    s.request("tool", tool="text", color="#d61a1c", width=8)
    s.open_and_wait()
    if connected:
        s.wait_overlay(f"xim: connected to @im={XIM_NAME}", 5)


def check_texts(s, wanted, what):
    """The daemon's strokes are the texts `wanted`, (text, x, y) each, their anchors within 2 px (window pixels)."""
    texts = [(t["text"], t["points"][0][0] * WIDTH, t["points"][0][1] * HEIGHT) for t in s.request("strokes")["strokes"]]
    check(len(texts) == len(wanted) and all(t == w and abs(x - wx) <= 2 and abs(y - wy) <= 2
                                            for (t, x, y), (w, wx, wy) in zip(texts, wanted)), f"{what} {texts}")


def xdotool_until(server, word, count, *command):
    """Runs xdotool's `command` on the desktop, then waits until the XIM server said `word` `count` times."""
    subprocess.run(["xdotool", *command], env=DESKTOP_SESSION.env, check=True)
    server.wait(word, count)


def xim_click(s, at):
    """A click at `at` (window pixels) with the text tool, waiting until the IM's context for its text is made; when it began."""
    since = time.monotonic()
    subprocess.run(["xdotool", "mousemove", str(at[0]), str(at[1]), "sleep", "0.1", "click", "1"], env=DESKTOP_SESSION.env, check=True)
    s.wait_overlay("xim: input context for the text", 5, since)
    return since


def key_and_text_stroke(s, key, what):
    """Presses `key` (Escape) and waits for the stroke event of the text it ends."""
    n = len(s.watcher.canvas)
    subprocess.run(["xdotool", "key", key], env=DESKTOP_SESSION.env, check=True)
    return s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in s.watcher.canvas[n:], 5, what)


def test_an_xim_input_method_types_on_the_x11_canvas_its_preedit_underlined_and_never_sent():
    """The text tool's input method on X11 (issue 37 item 4): with XMODIFIERS=@im=NAME and the
    suite's XIM server running, a click with the text tool opens an input context; keys the IM
    hands back type as plain keys, in order ("abc", typed fast); F2 makes it show the preedit "にほんご" after them,
    underlined (a one-pixel line in the text's colour under it) while the daemon holds no
    stroke; F3 commits "日本語 é" in its place, no longer underlined; Escape (handed back) ends
    the text, whose stroke is the typed and committed string without the preedit, shown at the click.
    A new caret gets a new context; a tap elsewhere while typing starts a text there that the IM
    still types into (its commit lands there); the IM gets key releases too; a tap elsewhere while
    the preedit shows keeps the text without it, off the screen too; minimizing the canvas closes the context."""
    at = (300, 300)
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(8 * size) + 4, at[1] + int(1.25 * size) + 4)
    underline = round(at[1] + (0.8 + 0.15) * size)
    with xim_session() as (s, server):
        since = xim_click(s, at)
        server.wait("ic", 1)
        # Fast, so that keys come while the caret's spot is still being sent: they keep their order.
        subprocess.run(["xdotool", "type", "--delay", "5", "abc"], env=DESKTOP_SESSION.env, check=True)
        server.wait("key", 3)
        # Releases too: IMs such as fcitx5 toggle on a lone Shift's release.
        server.wait("release", 3)
        n = len(s.watcher.canvas)
        subprocess.run(["xdotool", "key", "F2"], env=DESKTOP_SESSION.env, check=True)
        server.wait("preedit", 1)
        s.settle_screen()
        shot = DESKTOP_SESSION.screenshot()
        shown, stray = text_ink(shot, box, TEXT_RED)
        check(shown > 40 and stray == 0, f"with the preedit: {shown} red pixels in the text's box, {stray} outside it")
        lined = max(longest_run(shot, y, TEXT_RED) for y in (underline - 1, underline, underline + 1))
        check(lined >= 2 * size, f"the preedit's underline: the longest red run near row {underline} is {lined} px")
        check(s.request("strokes")["strokes"] == [], "a stroke was recorded while the preedit showed")
        check(not any(e["event"] == "stroke" for e in s.watcher.canvas[n:]), "the preedit reached the daemon")
        subprocess.run(["xdotool", "key", "F3"], env=DESKTOP_SESSION.env, check=True)
        server.wait("commit", 1)
        s.wait_overlay("xim: committed 5 characters", 5, since)
        s.settle_screen()
        shot = DESKTOP_SESSION.screenshot()
        unlined = max(longest_run(shot, y, TEXT_RED) for y in (underline - 1, underline, underline + 1))
        check(unlined < 2 * size, f"the committed text is still underlined: a red run of {unlined} px near row {underline}")
        e = key_and_text_stroke(s, "Escape", "the text's stroke event")
        s.settle_screen()
        check_kept_text(s.request, e, "abc日本語 é", at)
        kept, stray = text_ink(DESKTOP_SESSION.screenshot(), box, TEXT_RED)
        check(kept > 40 and stray == 0, f"once kept: {kept} red pixels in the text's box, {stray} outside it")
        s.wait_overlay("xim: input context closed", 5, since)
        # A new caret gets a context of its own, which a minimize closes.
        since = xim_click(s, (600, 500))
        server.wait("ic", 2)
        subprocess.run(["xdotool", "type", "x"], env=DESKTOP_SESSION.env, check=True)
        server.wait("key", 5)
        # A tap elsewhere while typing ends that text and starts one there, whose commit the IM still types.
        since = xim_click(s, (900, 200))
        # A context of its own, asked for right behind the old one's destroy (as on another
        # monitor's canvas): that create must go out although xcb-imdkit queued it behind an answer.
        server.wait("ic", 3)
        subprocess.run(["xdotool", "key", "F3"], env=DESKTOP_SESSION.env, check=True)
        server.wait("commit", 2)
        s.wait_overlay("xim: committed 5 characters", 5, since)
        key_and_text_stroke(s, "Escape", "the second text's stroke event")
        # A text that ends while the preedit shows keeps what was typed and committed, not the
        # preedit, which goes from the screen too (the IM's composition is dropped with its context).
        at4 = (300, 600)
        band = (at4[0] - 2, at4[1] - 2, 700, at4[1] + int(1.25 * size) + 4)
        since = xim_click(s, at4)
        keys = server.lines.count("key")
        subprocess.run(["xdotool", "type", "ab"], env=DESKTOP_SESSION.env, check=True)
        server.wait("key", keys + 2)
        s.settle_screen()
        typed_right = rightmost_ink(DESKTOP_SESSION.screenshot(), band, TEXT_RED)
        subprocess.run(["xdotool", "key", "F2"], env=DESKTOP_SESSION.env, check=True)
        server.wait("preedit", 2)
        s.settle_screen()
        preedit_right = rightmost_ink(DESKTOP_SESSION.screenshot(), band, TEXT_RED)
        check(preedit_right > typed_right + 2 * size, f"the preedit shows no further right ({preedit_right}) than 'ab' ({typed_right})")
        n = len(s.watcher.canvas)
        subprocess.run(["xdotool", "mousemove", "900", "600", "sleep", "0.1", "click", "1"], env=DESKTOP_SESSION.env, check=True)
        s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in s.watcher.canvas[n:],
                       5, "the stroke of the text ended while the preedit showed")
        s.settle_screen()
        ended_right = rightmost_ink(DESKTOP_SESSION.screenshot(), band, TEXT_RED)
        check(ended_right <= typed_right + 1, f"the preedit stayed on the screen: ink to x={ended_right}, 'ab' and its caret to {typed_right}")
        subprocess.run(["xdotool", "key", "Escape"], env=DESKTOP_SESSION.env, check=True)
        check_texts(s, [("abc日本語 é", *at), ("x", 600, 500), ("日本語 é", 900, 200), ("ab", *at4)], "after a tap elsewhere while typing, and one while the preedit showed, the texts are")
        s.minimize_and_wait()
        s.wait_overlay("xim: input context closed", 5, since)
        print(f"  'abc' handed back, the preedit underlined ({lined} px) and unsent, '日本語 é' committed; "
              f"kept with {kept} red pixels at the click", flush=True)


def test_an_xim_answer_that_comes_after_its_text_ended_is_dropped():
    """An IM's commit for a context the canvas left (the suite's server holds back "late" after
    F5 until the context loses the focus, which a tap elsewhere does) does not land in the new
    text: each text keeps what was typed in it."""
    first, second = (300, 300), (600, 500)
    with xim_session() as (s, server):
        since = xim_click(s, first)
        xdotool_until(server, "key", 1, "type", "q")
        xdotool_until(server, "pending", 1, "key", "F5")
        xim_click(s, second)
        server.wait("late", 1)
        xdotool_until(server, "key", 2, "type", "r")
        key_and_text_stroke(s, "Escape", "the second text's stroke event")
        check_texts(s, [("q", *first), ("r", *second)], "with a commit for the first text's context coming after it ended, the texts are")
        s.wait_overlay("xim: dropped a commit", 1, since)
        print("  the late commit for the context left behind was dropped; the texts are 'q' and 'r'", flush=True)


def test_a_key_the_xim_hands_back_after_its_text_ended_does_what_it_does_without_a_text():
    """"abc" Escape "p" typed faster than the IM answers (the suite's server after F7 hands each
    press back one press late, the last when the client takes the focus off its context): Escape,
    handed back, ends the text "abc", and "p", handed back for the context just left while no
    text is typed, picks the pen as it does without an IM (it was dropped)."""
    at = (300, 300)
    with xim_session() as (s, server):
        xim_click(s, at)
        xdotool_until(server, "behind", 1, "key", "F7")
        check(s.request("status")["tool"]["tool"] == "text", f"before: {s.request('status')['tool']}")
        n = len(s.watcher.canvas)
        subprocess.run(["xdotool", "key", "a", "b", "c", "Escape", "p"], env=DESKTOP_SESSION.env, check=True)
        s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in s.watcher.canvas[n:], 5,
                       "the text's stroke event")
        check_texts(s, [("abc", *at)], "typed one press behind the keys, the text is")
        until = time.monotonic() + 5
        while s.request("status")["tool"]["tool"] != "pen" and time.monotonic() < until:
            time.sleep(0.05)
        tool = s.request("status")["tool"]["tool"]
        check(tool == "pen", f"'p' handed back after Escape ended the text left the tool {tool}, not the pen")
        print("  'abc' Escape 'p', each handed back a press late: the text 'abc', then 'p' picked the pen", flush=True)


def test_an_xim_server_that_starts_after_the_canvas_types_the_next_text():
    """The login race (fcitx5 after the canvas): with XMODIFIERS=@im=NAME and no such server yet,
    a text types plain keys; once the server starts, the canvas connects to it by itself, and
    the IM's commit lands in the next text."""
    first, second = (300, 300), (600, 500)
    # No server at all: an earlier test's server, killed, left its name in the root's list.
    subprocess.run(["xprop", "-root", "-remove", "XIM_SERVERS"], env=DESKTOP_SESSION.env, check=True)
    DESKTOP_SESSION.env["XMODIFIERS"] = f"@im={XIM_NAME}"
    server = None
    try:
        with stack(empty=True) as s:
            since = time.monotonic()
            open_with_the_text_tool(s, connected=False)
            subprocess.run(["xdotool", "mousemove", str(first[0]), str(first[1]), "sleep", "0.1", "click", "1"],
                           env=DESKTOP_SESSION.env, check=True)
            s.wait_overlay(f"xim: no XIM server @im={XIM_NAME}", 5, since)
            subprocess.run(["xdotool", "type", "ab"], env=DESKTOP_SESSION.env, check=True)
            key_and_text_stroke(s, "Escape", "the plain text's stroke event")
            server = XimServer(build_xim_server(ARGS.scratch), DESKTOP_SESSION.env)
            server.wait("ready", 1)
            s.wait_overlay(f"xim: connected to @im={XIM_NAME}", 5, since)
            since = xim_click(s, second)
            server.wait("ic", 1)
            xdotool_until(server, "commit", 1, "key", "F3")
            s.wait_overlay("xim: committed 5 characters", 5, since)
            key_and_text_stroke(s, "Escape", "the IM's text's stroke event")
            check_texts(s, [("ab", *first), ("日本語 é", *second)], "plain keys before the server, its commit after: the texts are")
            print("  'ab' typed plain without a server; the server started later and its commit landed in the next text", flush=True)
    finally:
        DESKTOP_SESSION.env.pop("XMODIFIERS", None)
        if server:
            server.close()


def test_an_xim_server_that_stops_answering_keys_leaves_them_typing_plain():
    """A hung XIM server (the suite's, after F4: it answers nothing, requests included): keys
    unanswered for a second make the canvas ask it something it must answer (its spot); keys
    that keep coming a second after that question type plain, those it swallowed first, in
    order, so nothing typed is lost; the next text types plain at once."""
    at, second = (300, 300), (300, 500)
    with xim_session() as (s, server):
        since = xim_click(s, at)
        xdotool_until(server, "key", 2, "type", "ab")
        xdotool_until(server, "mute", 1, "key", "F4")
        # A key each 200 ms (xdotool waits half the delay after a press, half after its release).
        subprocess.run(["xdotool", "type", "--delay", "400", "cdefghij"], env=DESKTOP_SESSION.env, check=True)
        time.sleep(1.2)
        e = key_and_text_stroke(s, "Escape", "the text's stroke event (Escape, typed plain)")
        s.wait_overlay(f"xim: @im={XIM_NAME} answered none of", 1, since)
        check_kept_text(s.request, e, "abcdefghij", at)
        subprocess.run(["xdotool", "mousemove", str(second[0]), str(second[1]), "sleep", "0.1", "click", "1"], env=DESKTOP_SESSION.env, check=True)
        time.sleep(0.3)
        e = type_and_text_stroke(s, "xy", "the next text's stroke event (typed plain at once)")
        check_texts(s, [("abcdefghij", *at), ("xy", *second)], "the texts typed plain are")
        print("  'cdefghij' typed plain once the IM answered neither keys nor a request; the next text 'xy' typed plain at once", flush=True)


def type_and_text_stroke(s, text, what):
    """Types `text`, then Escape, and waits for the stroke event of the text it ends."""
    subprocess.run(["xdotool", "type", "--delay", "40", text], env=DESKTOP_SESSION.env, check=True)
    return key_and_text_stroke(s, "Escape", what)


def test_an_xim_input_method_that_takes_keys_without_a_word_keeps_them():
    """An IM choosing among candidates takes keys and says nothing for a while (the suite's server
    after F6, which still answers requests): the canvas asks it something, it answers, and the keys
    stay its own, however long the pauses; nothing is typed plain."""
    at, away = (300, 300), (700, 500)
    with xim_session() as (s, server):
        since = xim_click(s, at)
        xdotool_until(server, "key", 2, "type", "ab")
        xdotool_until(server, "swallow", 1, "key", "F6")
        for keys in ("xy", "z", "w"):
            subprocess.run(["xdotool", "type", "--delay", "40", keys], env=DESKTOP_SESSION.env, check=True)
            time.sleep(1.2)
        s.wait_overlay(f"xim: @im={XIM_NAME} is alive", 5, since)
        lines = [l for _, l in s.overlay_log]
        check(not any("answered none of" in l for l in lines), f"a live IM was taken for hung: {lines[-6:]}")
        # A tap elsewhere ends the text: only what the IM handed back is in it.
        subprocess.run(["xdotool", "mousemove", str(away[0]), str(away[1]), "sleep", "0.1", "click", "1"], env=DESKTOP_SESSION.env, check=True)
        s.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard", 5, "the text's stroke event (a tap elsewhere)")
        check_texts(s, [("ab", *at)], "the texts, the IM's keys kept from them, are")
        print("  'xy', 'z', 'w' taken by the IM over 3.6 s: asked, it answered; the text is 'ab', nothing typed plain", flush=True)


def help_panel_pixels(shot, layout, desktop=DESKTOP):
    """(pixels of the help panel's right padding that are its colour over the desktop, how many
    were looked at, pixels of the title's row that are not): the strip right of the columns holds no text."""
    h = canvas_spec.spec()["constants"]["help"]
    # A scaled panel (a small screen) has fractional edges: look inside them.
    x, y, w, ht = (int(v) for v in layout["panel"])
    panel = [int(h["panelColor"][i:i + 2], 16) for i in (1, 3, 5)]
    want = [round(h["panelOpacity"] * p + (1 - h["panelOpacity"]) * d) for p, d in zip(panel, desktop)]
    strip = [(x + w - 7, yy) for yy in range(y + 12, y + ht - 12, 9)]
    matching = sum(all(abs(a - b) <= 4 for a, b in zip(pixel(shot, px, py), want)) for px, py in strip)
    tx, baseline = (int(v) for v in layout["title"])
    inked = sum(1 for px in range(tx, tx + 300) for py in range(baseline - 12, baseline + 3)
                if any(abs(a - b) > 60 for a, b in zip(pixel(shot, px, py), want)))
    return matching, len(strip), inked


def unchanged_in(rect, before, after):
    """Pixels of `rect` (x, y, width, height), every 11th, that differ between two screenshots."""
    x, y, w, h = rect
    return [(px, py) for px in range(max(0, x), x + w, 11) for py in range(max(0, y), y + h, 11)
            if any(abs(a - b) > 2 for a, b in zip(pixel(before, px, py), pixel(after, px, py)))]


def test_f1_shows_the_help_where_the_spec_puts_it_any_key_or_click_hides_it_and_no_export_holds_it():
    """The help overlay: F1 on the open canvas shows the key table on a panel where the spec's
    `help` vector for the screen puts it (its colour over the desktop, its title inked); an
    export then holds no panel; any key (e, bound to the eraser) hides it and does nothing else;
    ? shows it again and a click hides it without drawing; Escape hides it before it minimizes."""
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas
    try:
        check_the_help(canvas_spec.help_layout(WIDTH, HEIGHT, canvas_spec.help_default_lines()))
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


def test_on_an_800x600_screen_the_help_shrinks_to_fit_it():
    """The key table in two blocks is 904 px wide: on an 800x600 screen (a projector's, an old
    netbook's) the panel shrinks by the spec vector's scale and stays on the screen, its title
    drawn, instead of losing its first and last columns over the edges."""
    global DESKTOP_SESSION, WIDTH, HEIGHT
    layout = canvas_spec.help_layout(800, 600, canvas_spec.help_default_lines())
    x, _, w, _ = layout["panel"]
    check(layout["scale"] < 1 and x >= 0 and x + w <= 800, f"the spec's 800x600 help vector is not a shrunk panel: {layout['panel']}")
    small, saved = Desktop(size=(800, 600)), (DESKTOP_SESSION, WIDTH, HEIGHT)
    DESKTOP_SESSION, WIDTH, HEIGHT = small, 800, 600
    os.environ["STYLUSD_RENDERER"] = ARGS.canvas
    try:
        check_the_help(layout)
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)
        DESKTOP_SESSION, WIDTH, HEIGHT = saved
        small.close()


def check_the_help(layout):
    x, y, w, h = (int(v) for v in layout["panel"])
    with stack(empty=True) as s:
        s.open_and_wait()
        subprocess.run(["xdotool", "search", "--name", "^stylus-canvas$", "windowactivate", "--sync"],
                       env=DESKTOP_SESSION.env, capture_output=True)

        def key(name, log):
            since = time.monotonic()
            subprocess.run(["xdotool", "key", name], env=DESKTOP_SESSION.env, check=True)
            s.wait_overlay(log, 5, since)
            s.settle_screen()
            return DESKTOP_SESSION.screenshot()

        def bare(shot):
            return [(px, py) for px in range(x, x + w, 11) for py in range(y, y + h, 11) if not is_desktop(shot, px, py)]

        shot = key("F1", "help shown")
        matching, looked, inked = help_panel_pixels(shot, layout)
        print(f"  F1: {matching} of {looked} panel pixels where the spec puts it, {inked} title pixels inked", flush=True)
        # Beside the panel, the desktop: a panel wider than the spec's (unscaled on a small screen) covers it.
        beside = [(px, py) for px in (x - 6, x + w + 6) if 0 <= px < WIDTH for py in range(y + 10, y + h - 10, 13)
                  if not is_desktop(shot, px, py)]
        check(not beside, f"F1: the panel reaches beyond where the spec puts it, at {beside[:5]}")
        check(matching == looked, f"F1: only {matching} of {looked} pixels of the panel's strip are its colour")
        check(inked > 50, f"F1: the title is not drawn ({inked} pixels)")
        png = os.path.join(s.root, "help.png")
        s.request("export", path=png, width=WIDTH, height=HEIGHT)
        exported = flattened(["cat", png])
        check(not bare(exported), f"the export holds the help: {bare(exported)[:5]}")
        left = bare(key("e", "help hidden"))
        check(not left, f"after a key the help stays at {len(left)} pixels, e.g. {left[:5]}")
        check(s.request("status")["tool"]["tool"] == "pen", "the key that hid the help did its action too")
        matching, looked, _ = help_panel_pixels(key("question", "help shown"), layout)
        check(matching == looked, f"?: only {matching} of {looked} pixels of the panel's strip are its colour")
        since = time.monotonic()
        subprocess.run(["xdotool", "mousemove", "300", "300", "click", "1"], env=DESKTOP_SESSION.env, check=True)
        s.wait_overlay("help hidden (a click)", 5, since)
        s.settle_screen()
        left = bare(DESKTOP_SESSION.screenshot())
        check(not left, f"after a click the help stays at {len(left)} pixels, e.g. {left[:5]}")
        time.sleep(0.3)
        check(s.request("strokes")["strokes"] == [], "the click that hid the help drew")
        key("F1", "help shown")
        key("Escape", "help hidden")
        check(s.request("status")["canvas"]["state"] == "open", "the Escape that hid the help minimized too")
        print("  e, a click and Escape each hid it and did nothing else; the export holds no panel", flush=True)


TESTS = [test_replay_double_press_opens_the_canvas_with_its_ink, test_minimize_reopen_same_pixels,
         test_the_open_canvas_shows_its_frame_in_the_current_colour_and_no_export_holds_it,
         test_see_through_over_applications, test_an_annotation_session_over_a_text_editor_shows_its_ink_and_the_windows_through_it,
         test_escape_minimizes, test_undo,
         test_every_default_key_and_a_rebound_one_do_their_actions_on_the_open_canvas, test_undo_redo_and_a_clear_taken_back_on_a_large_drawing_redraw_what_drawing_afresh_draws,
         test_tools_and_colours_draw_as_their_style_says,
         test_an_eraser_set_to_stroke_takes_the_strokes_it_touches_off_the_screen_whole,
         test_export_png_and_svg_match_the_canvas,
         test_a_white_board_covers_the_screen_under_the_ink_is_exported_and_survives_a_restart,
         test_click_through_reaches_the_window_below, test_without_click_through_the_canvas_takes_the_click,
         test_with_the_pen_captured_and_pointer_pass_the_canvas_lets_clicks_through,
         test_with_the_pen_captured_a_click_on_the_open_canvas_draws_rather_than_passing,
         test_in_filter_mode_without_the_pen_captured_the_canvas_takes_the_click,
         test_daemon_restart_redraws_within_2s, test_killed_daemon_hides_within_3s,
         test_a_daemon_that_dies_holding_the_pen_leaves_no_click_through_canvas,
         test_a_canvas_hidden_while_click_through_takes_the_clicks_when_shown_in_observe_mode,
         test_without_a_window_manager_the_canvas_covers_the_monitor,
         test_without_a_compositor_the_ink_shows_over_the_desktop_and_one_that_comes_or_goes_changes_nothing_seen,
         test_the_palette_shows_its_swatches_and_a_pen_tap_picks_the_next_strokes_colour_without_drawing,
         test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens,
         test_with_a_replayed_pen_only_the_pens_strokes_are_recorded,
         test_each_pen_draws_and_shows_its_own_style_on_the_canvas,
         test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing,
         test_a_mouse_click_on_the_board_button_goes_to_the_next_board_without_drawing,
         test_a_text_typed_on_the_canvas_shows_at_once_is_kept_exported_alike_and_undone,
         test_an_xim_input_method_types_on_the_x11_canvas_its_preedit_underlined_and_never_sent,
         test_an_xim_answer_that_comes_after_its_text_ended_is_dropped,
         test_a_key_the_xim_hands_back_after_its_text_ended_does_what_it_does_without_a_text,
         test_an_xim_server_that_starts_after_the_canvas_types_the_next_text,
         test_an_xim_server_that_stops_answering_keys_leaves_them_typing_plain,
         test_an_xim_input_method_that_takes_keys_without_a_word_keeps_them,
         test_f1_shows_the_help_where_the_spec_puts_it_any_key_or_click_hides_it_and_no_export_holds_it,
         test_on_an_800x600_screen_the_help_shrinks_to_fit_it]


def canvas_arguments():
    """The command line every canvas suite takes: the programs' folder, the canvas, --only."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build-static", "release"), help="stylusd's folder")
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    parser.add_argument("--only", default="", help="run only the tests whose name contains this")
    return parser


def main():
    global ARGS, DESKTOP_SESSION
    parser = canvas_arguments()
    parser.add_argument("--screenshot", default=None, help="save the annotation scene (scene.py) over the desktop here (PNG)")
    parser.add_argument("--no-install", action="store_true")
    parser.add_argument("--tools", default=None, help="a folder with xim_server built already (--build-tools), for a system without a compiler")
    parser.add_argument("--build-tools", default=None, metavar="FOLDER", help="build xim_server into FOLDER and exit")
    ARGS = parser.parse_args()
    if ARGS.build_tools:
        os.makedirs(ARGS.build_tools, exist_ok=True)
        build_xim_server(ARGS.build_tools)
        return 0
    ARGS.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    if not ARGS.no_install:
        install_missing()
    for path in (os.path.join(ARGS.bin, "stylusd"), ARGS.canvas):
        check(os.access(path, os.X_OK), f"{path} is not built")
    DESKTOP_SESSION = Desktop()
    try:
        return run_tests("overlay", TESTS, ARGS.only)
    finally:
        DESKTOP_SESSION.close()
        shutil.rmtree(ARGS.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
