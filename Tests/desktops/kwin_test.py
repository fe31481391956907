#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylus-canvas on KWin (Wayland, layer-shell), nested in headless sway: KWin 5.27 on
the Debian 12 host (make test-overlay), KWin 6 in the Debian 13 root (make test-desktops): KWin's
window fills sway's 1280x800 output, so grim on sway shows what KWin composites.
KWin alone paints a black desktop: see-through is checked over a coloured
fullscreen application (Tests/overlay/wayland/app.py) running on KWin.

Snapshots use org.kde.KWin.ScreenShot2, which KWin offers only when it composites
with OpenGL: nested in sway it cannot (no DRM render node here: KWin falls back to
QPainter, and with KWIN_COMPOSE=O2 it exits), so those tests run KWin's own
`--virtual` backend, which gets EGL on Mesa's llvmpipe, on a session bus shared
with the canvas. Their reference is KWin's own screenshot of the same output, taken
by this script through ScreenShot2 (GIO by ctypes; the script's interpreter is
authorised by a desktop file of the test's own, as the canvas is).

/usr/bin/kwin_wayland carries a file capability a container may refuse
("Operation not permitted"): a plain copy runs. Run as root, the suite runs
itself as `nobody`, as the layer-shell suite does (make test-desktops runs it in
the Debian 13 root of Tests/desktops/trixie_root.sh).

    python3 Tests/desktops/kwin_test.py [--bin DIR] [--canvas FILE] [--tools DIR] [--only NAME]
"""
import ctypes
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "overlay"))
import overlay_test as ot  # noqa: E402  (puts Tests/support on sys.path)
import layer_shell_test as lt  # noqa: E402
from stylustest import check, run_tests  # noqa: E402

WIDTH, HEIGHT = lt.WIDTH, lt.HEIGHT
SOCKET = "wayland-kwin"


class KWin:
    """kwin_wayland (a plain copy) as a window of `sway`, with its own session bus."""

    def __init__(self, sway, scratch):
        self.sway = sway
        binary = os.path.join(scratch, "kwin_wayland")
        shutil.copyfile(shutil.which("kwin_wayland"), binary)
        os.chmod(binary, 0o755)
        self.env = dict(sway.env, QT_QPA_PLATFORM="wayland", XDG_CURRENT_DESKTOP="KDE", KDE_FULL_SESSION="true")
        self.log = open(os.path.join(sway.runtime, "kwin.log"), "w")
        self.proc = subprocess.Popen(["dbus-run-session", "--", binary, "--wayland-display", sway.env["WAYLAND_DISPLAY"],
                                      "--socket", SOCKET, "--width", str(WIDTH), "--height", str(HEIGHT)],
                                     env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(os.path.join(sway.runtime, SOCKET)):
            check(time.monotonic() < deadline and self.proc.poll() is None, f"KWin did not start: {self.tail()}")
            time.sleep(0.1)
        self.env = dict(sway.env, WAYLAND_DISPLAY=SOCKET)
        # KWin's window up on sway's output: sway's green desktop gone from its middle.
        deadline = time.monotonic() + 15
        while ot.pixel(sway.screenshot(), WIDTH // 2, HEIGHT // 2) == lt.DESKTOP:
            check(time.monotonic() < deadline and self.proc.poll() is None, f"KWin's window never showed: {self.tail()}")
            time.sleep(0.1)

    def tail(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read().splitlines()[-8:]

    def close(self):
        # Nothing of KWin's to keep: its session bus and it go at once.
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        self.log.close()


def fullscreen_application(kwin, screenshot):
    """Tests/overlay/wayland/app.py fullscreen on KWin, once `screenshot` shows it from corner to corner
    (without a `screenshot`: once it says it is shown)."""
    lines, errors = [], tempfile.TemporaryFile()
    app = subprocess.Popen([sys.executable, os.path.join(ot.HERE, "wayland", "app.py"), "--fullscreen"],
                           env=dict(kwin.env, GDK_BACKEND="wayland", GSK_RENDERER="cairo", NO_AT_BRIDGE="1"),
                           stdout=subprocess.PIPE, stderr=errors, text=True)
    threading.Thread(target=lambda: [lines.append(line.strip()) for line in app.stdout], daemon=True).start()
    # Screenshots only once it says it is shown: on KWin --virtual each one costs KWin (llvmpipe) a frame's readback.
    deadline = time.monotonic() + 30
    while "mapped" not in lines or screenshot and not all(ot.pixel(screenshot(), x, y) == lt.APP
                                                          for x, y in ((5, 5), (WIDTH - 5, HEIGHT - 5))):
        if time.monotonic() >= deadline or app.poll() is not None:
            app.kill()
            errors.seek(0)
            check(False, f"the fullscreen application never covered KWin's output (exit {app.wait()}): {lines} "
                         f"{errors.read()[-300:]} {kwin.tail()}")
        time.sleep(0.1)
    return app


class Session:
    """sway, KWin in it, the fullscreen application on KWin, stylusd with the recording's strokes, stylus-canvas on KWin.
    `capture`: KWin --virtual alone instead (VirtualKWin, no sway), the palette always shown; True or False: whether an
    applications entry authorises the canvas for ScreenShot2."""

    def __init__(self, capture=None):
        self.runtime = tempfile.mkdtemp(prefix="stylus-kwin-")
        os.chmod(self.runtime, 0o700)
        self.sway = self.kwin = self.app = self.stack = None
        self.root = tempfile.mkdtemp(prefix="stylus-canvas-test-")
        os.chmod(self.root, 0o700)
        try:
            if capture is None:
                self.sway = lt.Sway(self.runtime)
                self.kwin = KWin(self.sway, ot.ARGS.scratch)
                screenshot = self.sway.screenshot
            else:
                self.kwin = VirtualKWin(self.runtime, ot.ARGS.scratch, os.path.realpath(ot.ARGS.canvas) if capture else None)
                screenshot = self.kwin.screenshot if self.kwin.compositing == "OpenGL" else None
                os.makedirs(os.path.join(self.root, "stylusd"))
                with open(os.path.join(self.root, "stylusd", "config.toml"), "w") as f:
                    f.write('[canvas]\nshow_palette = "always"\n')
            self.app = fullscreen_application(self.kwin, screenshot)
            desktop = ot.Desktop.__new__(ot.Desktop)
            desktop.env = dict(self.kwin.env, GDK_BACKEND="wayland")
            desktop.screenshot = screenshot
            self.stack = ot.Stack(ot.ARGS, desktop, self.root, (), replay=False, state=ot.drawn_state())
        except BaseException:
            self.close()
            raise

    def close(self):
        for part in (self.stack,):
            if part:
                part.close()
        if self.app and self.app.poll() is None:
            self.app.terminate()
            self.app.wait(5)
        for part in (self.kwin, self.sway):
            if part:
                part.close()
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.runtime, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def test_the_canvas_is_above_a_fullscreen_application_on_kwin_and_see_through():
    """Open: the recorded points inked and the application visible away from them, drawn at once
    at the output's scale 1 (KWin 6.3 sends no preferred scale there: the canvas waited 250 ms for
    one at every open); minimized: the application back pixel for pixel; both transitions ended by
    the canvas's ack."""
    with Session() as s:
        strokes = s.stack.request("strokes")["strokes"]
        before = s.sway.screenshot()
        since = time.monotonic()
        s.stack.open_and_wait()
        s.stack.wait_overlay("layer surface on", 5)
        s.stack.settle_screen()
        waited = [l for t, l in s.stack.overlay_log if t >= since and ("waiting for the preferred scale" in l or "no preferred scale" in l)]
        check(not waited, f"at scale 1 the open waited for a preferred scale: {waited}")
        lt.check_drawn_only_at(s.stack, 1, since)
        inked, visible, n = lt.ink_and_background(s.sway.screenshot(), strokes, lt.APP)
        check(inked >= 0.90, f"over a fullscreen application on KWin only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the fullscreen application away from the ink is visible (black?)")
        lt.minimized_back_to(s.stack, s.sway.screenshot, before)
        print(f"  {inked:.1%} of {n} points inked, {visible:.2%} of the application visible; minimized: restored pixel for "
              "pixel; both transitions acked", flush=True)


def edge_band(strokes):
    """The pixels of the open canvas's frame band (the spec's frame width, all round) away from the recorded
    ink (13 px), where the indicator alone decides what shows."""
    border = ot.canvas_spec.indicator_border()
    ink = {(x + dx, y + dy) for x, y in ot.screen_points(strokes, WIDTH, HEIGHT) for dx in range(-13, 14) for dy in range(-13, 14)}
    return [(x, y) for y in range(HEIGHT) for x in range(WIDTH)
            if (x < border or y < border or x >= WIDTH - border or y >= HEIGHT - border) and (x, y) not in ink]


def check_the_edges_show(shot, band, colour, what):
    """Every pixel of `band` on the screen is `colour` (within 6 per channel)."""
    other = [(x, y) for x, y in band if not all(abs(a - b) <= 6 for a, b in zip(ot.pixel(shot, x, y), colour))]
    check(not other, f"{what}: {len(other)} of {len(band)} edge pixels away from the ink are not {colour}, "
                     f"e.g. {[(p, ot.pixel(shot, *p)) for p in other[:3]]}")


def check_no_frame_in(png, band, what):
    """A PNG of the ink alone (an export, a snapshot without screen capture): transparent on `band`."""
    import snapshot_test as st
    rgba = st.png_pixels(png, "rgba")
    check(len(rgba) == WIDTH * HEIGHT * 4, f"{what} holds {len(rgba) // 4} pixels, not {WIDTH}×{HEIGHT}")
    framed = [(x, y) for x, y in band if rgba[(y * WIDTH + x) * 4 + 3] != 0]
    check(not framed, f"{what} holds the frame: {len(framed)} of {len(band)} edge pixels away from the ink are not transparent, "
                      f"e.g. {framed[:5]}")


def test_the_open_canvas_on_kwin_shows_its_frame_badge_or_nothing_and_no_export_or_snapshot_holds_it():
    """[canvas] indicator on KWin (sway's screenshot of KWin's window, over the fullscreen application):
    the frame all round in the current colour at the spec's opacity while open, following a colour change,
    gone when minimized; after a reload, `badge` a dot in the top right corner with the edges the
    application's, and `none` the edges and that corner the application's. Neither the export nor the
    snapshot (the ink alone here: nested KWin composites without OpenGL and offers no ScreenShot2; the
    captured snapshot's frame band is checked by test_the_snapshot_on_kwin_is_the_screen_with_the_ink)
    holds the frame: their edge band away from the ink is transparent."""
    import snapshot_test as st
    blue, green = (0x34, 0x65, 0xa4), (0x4e, 0x9a, 0x06)
    opacity = ot.canvas_spec.spec()["constants"]["indicator"]["frameOpacity"]
    os.environ["STYLUSD_RENDERER"] = ot.ARGS.canvas   # export draws its PNG with the canvas's renderer
    try:
        with Session() as k:
            s = k.stack
            strokes = s.request("strokes")["strokes"]
            band = edge_band(strokes)
            s.request("tool", tool="pen", color="#3465a4")
            s.open_and_wait()
            s.wait_overlay("layer surface on", 5)
            s.settle_screen()
            matching, total = ot.indicator_pixels(k.sway.screenshot(), "frame", blue, opacity, lt.APP)
            check(matching >= 0.99 * total, f"the frame: only {matching} of {total} pixels are the pen's blue at {opacity}")
            s.request("tool", color="#4e9a06")
            s.wait_overlay("style pen, #4e9a06", 5)
            s.settle_screen()
            followed, _ = ot.indicator_pixels(k.sway.screenshot(), "frame", green, opacity, lt.APP)
            check(followed >= 0.99 * total, f"after a colour change only {followed} of {total} frame pixels follow it")
            exported = os.path.join(k.root, "indicator.png")
            s.request("export", path=exported, width=WIDTH, height=HEIGHT)
            check_no_frame_in(exported, band, "the export")
            snapshot = os.path.join(k.root, "shot.png")
            inked, n, _ = st.snapshot_of_the_ink_alone(s, snapshot, strokes)
            check_no_frame_in(snapshot, band, "the snapshot")
            s.minimize_and_wait()
            check_the_edges_show(k.sway.screenshot(), band, lt.APP, "minimized")
            for kind in ("badge", "none"):
                ot.write_config(k.root, f'[canvas]\nindicator = "{kind}"\n')
                check(s.request("reload")["canvas"]["indicator"] == kind, f"the reload did not set {kind}")
                s.open_and_wait()
                s.wait_overlay(f"indicator {kind}", 5)
                s.settle_screen()
                shot = k.sway.screenshot()
                check_the_edges_show(shot, band, lt.APP, kind)
                corner = (WIDTH - ot.canvas_spec.spec()["constants"]["indicator"]["badgeInset"],
                          ot.canvas_spec.spec()["constants"]["indicator"]["badgeInset"])
                if kind == "badge":
                    badge, _ = ot.indicator_pixels(shot, "badge", green, 1)
                    check(badge == 1, f"no badge at the top right corner: {ot.pixel(shot, *corner)}")
                else:
                    check(all(abs(a - b) <= 6 for a, b in zip(ot.pixel(shot, *corner), lt.APP)),
                          f"none: the top right corner shows {ot.pixel(shot, *corner)}")
                s.minimize_and_wait()
            print(f"  frame: {matching} of {total} pixels the pen's blue at {opacity}, then its green; gone when minimized; "
                  f"badge: a green dot, bare edges; none: bare edges and corner; the export and the snapshot (the ink alone, "
                  f"{inked} of {n} points) transparent on the {len(band)} edge pixels away from the ink", flush=True)
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


class VirtualKWin:
    """kwin_wayland --virtual (a plain copy) compositing with OpenGL (llvmpipe) on a session bus of its own.
    `canvas`: the canvas executable that an applications entry of KWin's data folder lets call ScreenShot2 (the
    repository's Overlay/stylus-canvas.desktop with its Exec, as `make install` writes it), or None. The reference
    screenshots come from a copy of this interpreter with an entry of its own: KWin takes the first entry whose
    Exec is the caller's executable, and the system's Python has entries of its own (without the line)."""

    def __init__(self, runtime, scratch, canvas):
        self.runtime = runtime
        self.proc = self.bus = None
        self.python = os.path.join(scratch, "stylus-test-python")
        if not os.path.exists(self.python):
            shutil.copyfile(os.readlink("/proc/self/exe"), self.python)
            os.chmod(self.python, 0o755)
        applications = os.path.join(runtime, "data", "applications")
        os.makedirs(applications)
        with open(os.path.join(applications, "stylus-test-python.desktop"), "w") as f:
            f.write(f"[Desktop Entry]\nType=Application\nName=test\nExec={self.python}\nNoDisplay=true\n"
                    "X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2\n")
        if canvas:
            with open(ot.ARGS.desktop_file) as f:
                entry = re.sub(r"(?m)^Exec=.*$", lambda _: f"Exec={canvas}", f.read())
            check("X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2" in entry, f"{ot.ARGS.desktop_file} does not authorise ScreenShot2")
            with open(os.path.join(applications, "stylus-canvas.desktop"), "w") as f:
                f.write(entry)
        socket = os.path.join(runtime, "bus")
        self.address = f"unix:path={socket}"
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address={self.address}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not os.path.exists(socket):
            check(time.monotonic() < deadline and self.bus.poll() is None, "the session bus did not start")
            time.sleep(0.05)
        base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
        base.update(XDG_RUNTIME_DIR=runtime, HOME=runtime, DBUS_SESSION_BUS_ADDRESS=self.address,
                    XDG_DATA_HOME=os.path.join(runtime, "data"), XDG_CACHE_HOME=os.path.join(runtime, "cache"),
                    XDG_CONFIG_HOME=os.path.join(runtime, "config"))
        binary = os.path.join(scratch, "kwin_wayland")
        if not os.path.exists(binary):
            shutil.copyfile(shutil.which("kwin_wayland"), binary)
            os.chmod(binary, 0o755)
        self.log = open(os.path.join(runtime, "kwin.log"), "w")
        # The applications cache built before KWin starts, as a session's is: KWin building its own at the first
        # ScreenShot2 call sometimes keeps an empty one (NoAuthorized for everyone) for seconds or longer.
        for tool in ("kbuildsycoca6", "kbuildsycoca5"):
            if shutil.which(tool):
                subprocess.run([tool, "--noincremental"], env=base, stdout=self.log, stderr=subprocess.STDOUT, timeout=60)
                break
        self.proc = subprocess.Popen([binary, "--virtual", "--socket", SOCKET, "--width", str(WIDTH), "--height", str(HEIGHT)],
                                     env=dict(base, KWIN_COMPOSE="O2", QT_QPA_PLATFORM="offscreen", XDG_CURRENT_DESKTOP="KDE"),
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.env = dict(base, WAYLAND_DISPLAY=SOCKET)
        # Up once ScreenShot2 is offered, or once KWin says it composites otherwise (KWin 6's virtual backend
        # composites with OpenGL only on a DRM render node, which this machine lacks): `compositing` says which.
        deadline = time.monotonic() + 30
        self.compositing = None
        while not self.offers_screenshot():
            self.compositing = self.dbus_call("org.kde.KWin", "/KWin", "org.kde.KWin.supportInformation")
            self.compositing = next(iter(re.findall(r"Compositing Type: (\w+)", self.compositing)), None)
            if self.compositing and self.compositing != "OpenGL":
                return
            check(time.monotonic() < deadline and self.proc.poll() is None,
                  f"KWin --virtual offers no org.kde.KWin.ScreenShot2 ({self.compositing} compositing): {self.tail()}")
            time.sleep(0.2)
        self.compositing = "OpenGL"

    def dbus_call(self, destination, path, method, *arguments):
        r = subprocess.run(["dbus-send", f"--bus={self.address}", "--print-reply", f"--dest={destination}", path, method, *arguments],
                           capture_output=True, text=True, timeout=10)
        return r.stdout

    def offers_screenshot(self):
        return "boolean true" in self.dbus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                "string:org.kde.KWin.ScreenShot2")

    def screenshot(self):
        """KWin's own picture of its output: (width, height, RGB bytes), by screenshot2 in the interpreter's copy."""
        r = subprocess.run([self.python, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import kwin_test; "
                            "w, h, rgb = kwin_test.screenshot2(sys.argv[2]); sys.stdout.buffer.write(b'%d %d\\n' % (w, h) + rgb)",
                            HERE, self.address], env=dict(os.environ, PYTHONHOME=f"{sys.base_prefix}:{sys.base_exec_prefix}"),
                           capture_output=True, timeout=30)
        check(r.returncode == 0, f"KWin's screenshot: {r.stderr.decode(errors='replace')[-400:]}")
        header, rgb = r.stdout.split(b"\n", 1)
        width, height = map(int, header.split())
        return width, height, rgb

    def tail(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read().splitlines()[-8:]

    def close(self):
        for proc in (self.proc, self.bus):
            if proc and proc.poll() is None:
                proc.kill()
                proc.wait(5)
        if self.proc:
            self.log.close()


def screenshot2(address, timeout=10):
    """org.kde.KWin.ScreenShot2.CaptureActiveScreen on the bus at `address`, by GIO through ctypes (the
    call passes a pipe's write end): (width, height, RGB bytes)."""
    gio = ctypes.CDLL("libgio-2.0.so.0")
    for name in ("g_dbus_connection_new_for_address_sync", "g_unix_fd_list_new", "g_variant_new_parsed",
                 "g_dbus_connection_call_with_unix_fd_list_sync", "g_variant_print"):
        getattr(gio, name).restype = ctypes.c_void_p
    gio.g_dbus_connection_new_for_address_sync.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                                           ctypes.c_void_p]
    gio.g_unix_fd_list_append.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    gio.g_dbus_connection_call_with_unix_fd_list_sync.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    gio.g_variant_print.argtypes = [ctypes.c_void_p, ctypes.c_int]
    gio.g_object_unref.argtypes = [ctypes.c_void_p]
    gio.g_variant_unref.argtypes = [ctypes.c_void_p]
    gio.g_free.argtypes = [ctypes.c_void_p]

    class GError(ctypes.Structure):
        _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]

    error = ctypes.POINTER(GError)()
    # G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | MESSAGE_BUS_CONNECTION
    bus = gio.g_dbus_connection_new_for_address_sync(address.encode(), 1 | 8, None, None, ctypes.byref(error))
    check(bus, f"no connection to KWin's bus: {error.contents.message if error else '?'}")
    read_end, write_end = os.pipe()
    fds = gio.g_unix_fd_list_new()
    try:
        index = gio.g_unix_fd_list_append(fds, write_end, None)
        os.close(write_end)
        parameters = gio.g_variant_new_parsed(f"({{'native-resolution': <true>, 'include-cursor': <false>}}, handle {index})".encode())
        reply = gio.g_dbus_connection_call_with_unix_fd_list_sync(
            bus, b"org.kde.KWin.ScreenShot2", b"/org/kde/KWin/ScreenShot2", b"org.kde.KWin.ScreenShot2", b"CaptureActiveScreen",
            parameters, None, 0, timeout * 1000, fds, None, None, ctypes.byref(error))
        check(reply, f"KWin's ScreenShot2 refused this script: {error.contents.message.decode() if error else '?'}")
        printed = gio.g_variant_print(reply, 1)
        text = ctypes.string_at(printed).decode()
        gio.g_free(printed)
        gio.g_variant_unref(reply)
        fields = {k: int(v) for k, v in re.findall(r"'(width|height|stride|format)': <uint32 (\d+)>", text)}
        check(len(fields) == 4, f"KWin's screenshot answer: {text}")
        width, height, stride, layout = fields["width"], fields["height"], fields["stride"], fields["format"]
        # Read to the image's size, not to the pipe's end: KWin 5.27 keeps a copy of the write end open after it wrote.
        data, deadline = bytearray(), time.monotonic() + timeout
        while len(data) < stride * height:
            ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
            check(ready, f"KWin wrote {len(data)} of {stride * height} bytes of its screenshot in {timeout} s")
            chunk = os.read(read_end, stride * height - len(data))
            check(chunk, f"KWin closed its screenshot after {len(data)} of {stride * height} bytes")
            data += chunk
    finally:
        os.close(read_end)
        gio.g_object_unref(fds)
        gio.g_object_unref(bus)
    check(len(data) >= stride * height, f"KWin's screenshot: {len(data)} bytes for {height} rows of {stride}")
    rows = b"".join(bytes(data[y * stride:y * stride + width * 4]) for y in range(height))
    rgb = bytearray(width * height * 3)
    # QImage's 32-bit layouts: (A)RGB32 one native word (B, G, R, A in memory), RGBX/RGBA8888 bytewise.
    order = {4: (2, 1, 0), 5: (2, 1, 0), 6: (2, 1, 0), 16: (0, 1, 2), 17: (0, 1, 2), 18: (0, 1, 2)}.get(layout)
    check(order, f"KWin's screenshot is in QImage format {layout}, which this script does not read")
    for channel, offset in enumerate(order):
        rgb[channel::3] = rows[offset::4]
    return width, height, bytes(rgb)


def test_the_snapshot_on_kwin_is_the_screen_with_the_ink():
    """ScreenShot2 with the canvas authorised: the snapshot agrees with KWin's own screenshot on >= 99 %
    of the pixels outside the palette, shows the application under the palette and the frame, and holds the ink.
    Where KWin composites without OpenGL (no ScreenShot2): the ink alone, the note saying there is no capture."""
    import snapshot_test as st
    with Session(capture=True) as k:
        s = k.stack
        strokes = s.request("strokes")["strokes"]
        if k.kwin.compositing != "OpenGL":
            s.open_and_wait()
            inked, n, clear = st.snapshot_of_the_ink_alone(s, os.path.join(k.root, "shot.png"), strokes, "no screen capture")
            print(f"  KWin composites with {k.kwin.compositing} here (no DRM render node), so it offers no ScreenShot2: "
                  f"checked instead that the snapshot is the ink alone ({inked} of {n} points, {clear:.0%} transparent) "
                  "and says there is no capture", flush=True)
            return
        shot = st.snapshot_against(s, k.kwin.screenshot, "KWin's screenshot", pauses=(0.5, 0.3))
        # copy --snapshot: the same capture onto the clipboard (zwlr_data_control on KWin), pasted back as the file's pixels.
        paste = None
        if shutil.which("wl-paste"):
            import snapshot_sway
            paste = lambda: snapshot_sway.wl_paste(k.kwin.env, "-t", "image/png")  # noqa: E731
        same = st.copy_snapshot_pasted(s, shot.path, paste)
        pasted = "not pasted back (no wl-paste here)" if same is None else f"pasted back, {same:.2%} equal to the file"
        print(f"  {shot.outside:.2%} of {shot.n} pixels agree with KWin's screenshot; the palette's {shot.m} pixels are the application; "
              f"{shot.inked} points inked; {shot.took * 1000:.0f} ms for stylusctl snapshot; copy --snapshot {pasted}", flush=True)


def test_without_its_desktop_file_kwin_refuses_and_the_snapshot_is_the_ink_saying_why():
    """No applications entry names the canvas: KWin answers NoAuthorized, and the snapshot is the ink
    alone on transparency, its note naming the refusal and the desktop file's line."""
    import snapshot_test as st
    with Session(capture=False) as k:
        if k.kwin.compositing != "OpenGL":
            print(f"  NOT RUN: KWin composites with {k.kwin.compositing} here and offers no ScreenShot2 to refuse", flush=True)
            return
        s = k.stack
        strokes = s.request("strokes")["strokes"]
        s.open_and_wait()
        inked, n, clear = st.snapshot_of_the_ink_alone(s, os.path.join(k.root, "shot.png"), strokes, "NoAuthorized",
                                                    "X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2")
        print(f"  refused (NoAuthorized): the ink alone ({inked} of {n} points, {clear:.0%} transparent), "
              "and the note names the desktop file's line", flush=True)


def kwin_version():
    """"5.27.5", from its package (the binary itself may not run before it is copied), for the suite's line."""
    try:
        version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "kwin-wayland"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        version = ""
    return version.split(":")[-1].split("-")[0] or "(version unknown)"


def main():
    parser = ot.canvas_arguments()
    lt.tools_arguments(parser)
    parser.add_argument("--desktop-file", default=os.path.join(ot.ROOT, "Overlay", "stylus-canvas.desktop"),
                        help="the canvas's desktop file, installed with its Exec for the snapshot tests")
    args = parser.parse_args()
    missing = [tool for tool in ("sway", "grim", "swaymsg", "kwin_wayland", "dbus-run-session", "dbus-daemon", "dbus-send") if not shutil.which(tool)]
    check(not missing, f"missing {missing}: KWin 6 runs in the root of Tests/desktops/trixie_root.sh")
    if os.getuid() == 0:
        return lt.as_unprivileged(args, os.path.join("Tests", "desktops", "kwin_test.py"),
                                  extra=("--desktop-file", os.path.abspath(args.desktop_file)))
    args.scratch = tempfile.mkdtemp(prefix="stylus-kwin-fixture-")
    ot.ARGS = args
    try:
        lt.build_pointer(args.scratch)
        return run_tests(f"kwin {kwin_version()}", [
            test_the_canvas_is_above_a_fullscreen_application_on_kwin_and_see_through,
            test_the_open_canvas_on_kwin_shows_its_frame_badge_or_nothing_and_no_export_or_snapshot_holds_it,
            test_the_snapshot_on_kwin_is_the_screen_with_the_ink,
            test_without_its_desktop_file_kwin_refuses_and_the_snapshot_is_the_ink_saying_why,
        ], only=args.only)
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
