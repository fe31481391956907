#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The overlay on the X server: toggle → first frame, pen sample → ink, and memory, beside gromit-mpx.
The native xcb canvas only: GTK 4 left stylus-canvas, and the last figures of the GTK 4
window it replaced (STYLUS_CANVAS_X11=gtk, measured in the same run) are in docs/PERFORMANCE.md.

A headless desktop like the overlay tests' (Xvfb, openbox, xcompmgr). Everything
seen is read back from the X server (XGetImage on the root window through ctypes:
what the X server shows, composited), never from the overlay's own log.

- Toggle: stylusd starts from a state holding the bundled recording's strokes;
  each round sends `toggle` (open) and polls one pixel the canvas inks until it
  leaves the desktop's colour (the fade-in's first frame), then `toggle` again
  and waits for the minimized state and the bare pixel. The overlay's RSS before
  it was ever shown, shown with those strokes, and hidden again.
- gromit-mpx in the same run: `gromit-mpx --visibility` toggles its window, timed
  until that window is viewable (XGetWindowAttributes.map_state); its RSS hidden,
  shown after the same strokes were drawn through it with the mouse, and hidden again.
  Without gromit-mpx this part says SKIPPED and why.
- Ink: stylusd replays, at its recorded pace, a session written for the bundled
  recording's pen (see ink_recording) and opens the canvas by its double press; for
  each sample that extends a stroke, the time from the moment the replay was due to
  read it (the `pen` event's time_us, CLOCK_MONOTONIC) to the first XGetImage that
  shows the overlay's ink under it. INK_TRACE=FILE writes each sample's
  (due, seen, x, y, inked at the first poll) as JSON.
- Soak: memory over a long session at 1920x1080 (issue 36's goal: <= 40 MiB resident and flat
  over the last half of a 10-minute looped replay). Two desktops like the one above but at
  1920x1080, side by side for the same minutes: on one, stylusd replays the bundled recording
  looped at its recorded pace (`--replay FILE --loop`) with the canvas opened and kept open
  (BTN_STYLUS's double press bound to open-canvas, so the recording's double press cannot
  minimize it every other loop; the drawing is cleared only if the daemon reports its limits
  reached, which ten minutes of this recording do not reach); on the other, gromit-mpx with
  painting on, the recording's pen strokes dragged through it with xdotool every 15 s. Both
  RSS (VmRSS) every 15 s: start, peak, last, and over the last half the slope (least squares,
  MiB/min) and max - min.

    python3 bench/overlay_bench.py [--bin .build/release] [--canvas Overlay/.build/release/stylus-canvas]
                                   [--rounds 50] [--only toggle|ink|soak] [--soak-minutes 10]

    python3 bench/overlay_bench.py --bin .build-static/release --canvas Overlay/.build-static/release/stylus-canvas --only soak
"""
import argparse
import ctypes
import ctypes.util
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "overlay"))
import overlay_test as ot  # noqa: E402  (puts Tests/support on sys.path)
from daemon import Daemon  # noqa: E402
from measures import memory_kib, percentile, rss_kib  # noqa: E402
from stylusclient import Client  # noqa: E402


class XAttributes(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p),
                ("root", ctypes.c_ulong), ("class_", ctypes.c_int), ("bit_gravity", ctypes.c_int),
                ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong),
                ("map_installed", ctypes.c_int), ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]


class X:
    """Just enough Xlib to read a pixel and a window's map state."""

    def __init__(self, display):
        self.lib = ctypes.CDLL(ctypes.util.find_library("X11"))
        self.lib.XOpenDisplay.restype = ctypes.c_void_p
        self.lib.XDefaultRootWindow.restype = ctypes.c_ulong
        self.lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.lib.XGetImage.restype = ctypes.c_void_p
        self.lib.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                       ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.lib.XGetPixel.restype = ctypes.c_ulong
        self.lib.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        self.lib.XDestroyImage.argtypes = [ctypes.c_void_p]
        self.lib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XAttributes)]
        self.dpy = self.lib.XOpenDisplay(display.encode())
        self.root = self.lib.XDefaultRootWindow(self.dpy)

    def pixel(self, x, y):
        image = self.lib.XGetImage(self.dpy, self.root, x, y, 1, 1, 0xFFFFFFFF, 2)   # ZPixmap
        value = self.lib.XGetPixel(image, 0, 0)
        self.lib.XDestroyImage(image)
        return (value >> 16) & 255, (value >> 8) & 255, value & 255

    def row_pixels(self, y, xs):
        """The pixels at columns `xs` of row `y`, as the X server shows them: one XGetImage
        of the row from min(xs) to max(xs), so one round trip whatever their number."""
        x0 = min(xs)
        image = self.lib.XGetImage(self.dpy, self.root, x0, y, max(xs) - x0 + 1, 1, 0xFFFFFFFF, 2)   # ZPixmap
        values = {x: self.lib.XGetPixel(image, x - x0, 0) for x in xs}
        self.lib.XDestroyImage(image)
        return {x: ((v >> 16) & 255, (v >> 8) & 255, v & 255) for x, v in values.items()}

    def viewable(self, window):
        attributes = XAttributes()
        if not self.lib.XGetWindowAttributes(self.dpy, window, ctypes.byref(attributes)):
            return False
        return attributes.map_state == 2   # IsViewable


def wait_until(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.0005)   # a poll every ~0.5 ms plus its round trip, without spinning a core the measured need
    return False


def check_compositor(desktop, part):
    """Figures taken without this desktop's X server or compositor are of another desktop: say so
    instead of printing them. (xcompmgr exits with status 1 when another compositor already runs on
    its display, as when another test's Xvfb took the same display number at the same moment.)"""
    for p in desktop.procs:
        if p.args[0] in ("Xvfb", "xcompmgr"):
            ot.check(p.poll() is None, f"{p.args[0]} exited (status {p.returncode}) during {part}: its figures are void")


def toggle_rounds(socket, rounds, bare, wait_until, last_open):
    """`rounds` times: `toggle`, then the time until `bare()` (the probe pixel shows the
    desktop) turns false: the first frame on screen; then waits for `open` (the fade's end
    and its ack), toggles back and waits for `minimized` and the bare pixel. One more
    opening after the measured ones calls `last_open` while open. Times in ms."""
    times = []
    client = Client(socket)
    state = lambda: client.request("status")["result"]["canvas"]["state"]
    try:
        for round_ in range(rounds + 1):
            started = time.perf_counter()
            client.request("toggle")
            ot.check(wait_until(lambda: not bare()), "no canvas frame within 3 s")
            if round_ < rounds:
                times.append((time.perf_counter() - started) * 1000)
            ot.check(wait_until(lambda: state() == "open"), "not open")
            if round_ == rounds:
                last_open()
            client.request("toggle")
            ot.check(wait_until(lambda: state() == "minimized"), "not minimized")
            ot.check(wait_until(bare), "the canvas did not leave the screen")
    finally:
        client.close()
    return times


def bench_canvas(args, desktop, x):
    """`toggle` → first frame, over the strokes of the whole bundled recording; the overlay's RSS
    before it was ever shown, shown with those strokes, and hidden again."""
    with ot.private_directory("stylus-canvas-bench-") as root:
        s = ot.Stack(args, desktop, root, (), replay=False, state=ot.drawn_state())
        try:
            strokes = s.request("strokes")["strokes"]
            # The middle point of the longest pen stroke: certainly inked.
            pen = max((t for t in strokes if t.get("tool") != "eraser"), key=lambda t: len(t["points"]))
            px, py = ot.screen_points([pen], ot.WIDTH, ot.HEIGHT)[len(pen["points"]) // 2]
            check_bare = lambda: x.pixel(px, py) == ot.DESKTOP
            # Until the desktop settles (a grey 128 there for a moment after the start, 2026-11-28).
            ot.check(wait_until(check_bare, 5), f"the probe pixel ({px}, {py}) is {x.pixel(px, py)} before opening, not the desktop's {ot.DESKTOP}")
            rss = {"never shown": rss_kib(s.overlay.pid)}

            def last_open():
                time.sleep(0.5)
                rss["shown"] = rss_kib(s.overlay.pid)
            times = toggle_rounds(s.socket, args.rounds, check_bare, wait_until, last_open)
            time.sleep(0.5)
            rss["hidden again"] = rss_kib(s.overlay.pid)
            return times, rss, strokes
        finally:
            s.close()


# ---------------------------------------------------------------- ink latency

INK_ROWS = 30              # strokes, one per screen row
INK_STEP_PX = 14           # screen pixels between consecutive samples of a stroke
INK_PERIOD_US = 5_000      # between samples: 200 a second (the replay runs at the recorded pace)
INK_PRESSURE = 1200        # of 2047 (0.59): a line 3.9 px wide on a 1280 px screen
LEAD_IN_S = 4              # hover before the double press: the overlay connects meanwhile


def ink_recording(path):
    """A session of the bundled recording's pen (its header: the same Cintiq 22HDT) written so
    that each sample's ink can be told apart on screen: hover while the overlay connects, a
    BTN_STYLUS double press (the canvas opens as a user opens it), then INK_ROWS horizontal
    strokes whose samples lie INK_STEP_PX apart. The pixel under a sample is then inked by that
    sample's segment alone: the previous sample lies farther than the line's half width (2 px)
    and the hover ring's outer radius (8.5 px), rows lie 20 px apart. The bundled recording
    itself cannot give that: its 264 tip-down samples mostly lie within a line width of the one
    before, so a pixel under a sample is often inked by the sample before it."""
    with open(ot.RECORDING) as f:
        header = [l for l in f if not l.startswith("E:")]
    x_max, y_max = ot.axis_max(header, "ABS_X"), ot.axis_max(header, "ABS_Y")
    ux = lambda px: round((px + 0.5) / ot.WIDTH * x_max)    # the middle of screen pixel px
    uy = lambda py: round((py + 0.5) / ot.HEIGHT * y_max)
    out = []
    t = 1_000_000 * 1_000_000

    def frame(*events, after_us=INK_PERIOD_US):
        nonlocal t
        t += after_us
        stamp = f"{t // 1_000_000}.{t % 1_000_000:06d}"
        out.extend(f"E: {stamp} {kind:04x} {code:04x} {value}\n" for kind, code, value in events)
        out.append(f"E: {stamp} 0000 0000 0\n")

    EV_KEY, EV_ABS = 1, 3
    BTN_TOOL_PEN, BTN_TOUCH, BTN_STYLUS = 0x140, 0x14a, 0x14b
    ABS_X, ABS_Y, ABS_PRESSURE, ABS_DISTANCE = 0, 1, 0x18, 0x19
    frame((EV_KEY, BTN_TOOL_PEN, 1), (EV_ABS, ABS_X, ux(20)), (EV_ABS, ABS_Y, uy(20)), (EV_ABS, ABS_DISTANCE, 30))
    hover = lambda ms: [frame((EV_ABS, ABS_X, ux(20) + i % 2)) for i in range(ms * 1000 // INK_PERIOD_US)]
    hover(LEAD_IN_S * 1000)
    for _ in range(2):   # 100 ms presses 300 ms apart: a double press of the default 500 ms interval
        frame((EV_KEY, BTN_STYLUS, 1))
        frame((EV_KEY, BTN_STYLUS, 0), after_us=100_000)
        hover(200)
    hover(3000)          # the fade in and the overlay's ack
    samples = 0
    for row in range(INK_ROWS):
        y = 110 + 20 * row
        xs = list(range(40, ot.WIDTH - 40, INK_STEP_PX))
        frame((EV_ABS, ABS_X, ux(xs[0])), (EV_ABS, ABS_Y, uy(y)), (EV_ABS, ABS_DISTANCE, 0),
              (EV_ABS, ABS_PRESSURE, INK_PRESSURE), (EV_KEY, BTN_TOUCH, 1))
        for i, x in enumerate(xs[1:]):
            frame((EV_ABS, ABS_X, ux(x)), (EV_ABS, ABS_PRESSURE, INK_PRESSURE + i % 2))
            samples += 1
        frame((EV_ABS, ABS_PRESSURE, 0), (EV_ABS, ABS_DISTANCE, 10), (EV_KEY, BTN_TOUCH, 0))
        hover(50)
    frame((EV_KEY, BTN_TOOL_PEN, 0))
    with open(path, "w") as f:
        f.writelines(header + out)
    return samples


def is_ink(rgb):
    """The overlay's pen ink (opaque red, 214 26 28), not the desktop, the hover ring or a blend with either."""
    r, g, b = rgb
    return r > 170 and g < 70 and b < 70


def monotonic():
    """CLOCK_MONOTONIC, the clock of stylusd's replay schedule and of its events' time_us."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class RecordedPaceStack(ot.Stack):
    """The overlay tests' stack with the replay at its recorded pace: a `pen` event's time_us is
    then the moment the replay was due to read that sample (start + its offset in the recording,
    on CLOCK_MONOTONIC), the counterpart of the kernel's timestamp on a live pen's event."""

    def start_daemon(self, replay, speed="1"):
        super().start_daemon(replay, speed)


class XLooks:
    """Pixels read back from the X server, one XGetImage per row: each point's answer is
    stamped when its row's reply returned."""

    def __init__(self, x):
        self.x = x

    def look(self, points):
        """[(is the pixel the overlay's ink, CLOCK_MONOTONIC when it was read)] for [(x, y)]."""
        seen = {}
        for y in sorted({p[1] for p in points}):
            xs = [p[0] for p in points if p[1] == y]
            pixels = self.x.row_pixels(y, xs)
            seen_at = monotonic()
            for px in xs:
                seen[(px, y)] = (is_ink(pixels[px]), seen_at)
        return [seen[p] for p in points]


# A reader of the pen topic and nothing else, in its own process (no lock shared with the loop
# that reads the screen back): each sample's time_us and when this process had it.
PEN_STAMPER = r"""
import json, socket, sys, time
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(sys.argv[1])
stream = sock.makefile("rb", buffering=0)
stream.readline()
sock.sendall(b'{"id":1,"cmd":"subscribe","topics":["pen"]}\n')
print("ready", flush=True)
for line in stream:
    at = time.clock_gettime(time.CLOCK_MONOTONIC)
    if b'"event":"pen"' in line:
        e = json.loads(line)
        if e.get("tip"):
            print(e["time_us"], at, flush=True)
sys.stdout.flush()
"""


def pen_stamper(socket_path):
    """The PEN_STAMPER process, once subscribed; `stamps(p)` gives its {time_us: arrival (s)} after it ends."""
    p = subprocess.Popen([sys.executable, "-c", PEN_STAMPER, socket_path], stdout=subprocess.PIPE, text=True)
    ot.check(p.stdout.readline().strip() == "ready", "the pen stamper did not subscribe")
    return p


def stamps(p):
    p.terminate()
    out, _ = p.communicate(timeout=10)
    pairs = (line.split() for line in out.splitlines() if len(line.split()) == 2)
    return {int(t): float(at) for t, at in pairs}


def bench_ink(args, desktop, looks):
    """Pen sample → its ink on the X server, for every sample that extends a stroke while the canvas
    is open. Start: the sample's time_us in its `pen` event, the moment stylusd's replay was due to
    read it (CLOCK_MONOTONIC), so a late reader here does not shorten the figure. End: the first
    XGetImage reply (CLOCK_MONOTONIC when it returned) in which the pixel under the sample is the
    overlay's ink. The loop reads its subscription and polls every pending pixel (one XGetImage per
    row) every ~0.5 ms plus the round trip; the intervals are reported: the ink may have been on
    screen up to one interval before it was seen. Also reported: the time from due to this reader
    having the event (the daemon's share, and this reader's lateness). `looks` reads the pixels
    back (XLooks on X11; a wlr-screencopy reader under sway, bench/layer_shell_bench.py)."""
    with ot.private_directory("stylus-canvas-ink-") as root:
        recording = os.path.join(root, "ink.events")
        expected = ink_recording(recording)
        s = RecordedPaceStack(args, desktop, root, (), replay=True, recording=recording)
        try:
            stamper = pen_stamper(s.socket)
            client = Client(s.socket)
            client.send("subscribe", topics=["canvas", "pen"])     # its answer is read below, with the events
            client.sock.setblocking(False)
            state, tip_before, ended = None, False, False
            pending = []                  # [x, y, due (s), not polled yet]
            latencies, intervals, late, trace, delivery, dues = [], [], [], [], [], []
            first_look, dropped, drawing = 0, 0, False
            last_poll = None
            deadline = time.monotonic() + 120
            while not (ended and not pending):
                ot.check(time.monotonic() < deadline, f"the generated session did not end within 120 s "
                                                      f"({len(latencies)} samples measured)")
                if not pending:
                    select.select([client.sock], [], [], 0.05)
                try:
                    messages = client.read_available()
                except BlockingIOError:
                    messages = []
                except EOFError:
                    raise ot.Failure("stylusd closed the subscription")
                read_at = client.received_at    # CLOCK_MONOTONIC, as monotonic() here
                for e in messages:
                    kind = e.get("event")
                    if kind == "canvas":
                        state = e["state"]
                    elif kind == "dropped":
                        dropped += e["count"]
                    elif kind == "proximity" and e["state"] == "out" and drawing:
                        ended = True
                    elif kind == "pen":
                        tip = bool(e.get("tip"))
                        # A sample that extends a stroke draws a segment ending under it.
                        if tip and tip_before and state == "open":
                            drawing = True
                            due = e["time_us"] / 1e6
                            delivery.append((read_at - due) * 1000)
                            dues.append(e["time_us"])
                            pending.append([min(ot.WIDTH - 1, int(e["x"] * ot.WIDTH)),
                                            min(ot.HEIGHT - 1, int(e["y"] * ot.HEIGHT)), due, True])
                        tip_before = tip
                if not pending:
                    last_poll = None
                    continue
                looked = list(pending)
                for p, (inked, seen_at) in zip(looked, looks.look([(p[0], p[1]) for p in looked])):
                    if inked:
                        first_look += p[3]
                        latencies.append((seen_at - p[2]) * 1000)
                        trace.append((p[2], seen_at, p[0], p[1], p[3]))
                        pending.remove(p)
                    elif seen_at - p[2] > 2:
                        late.append((p[0], p[1]))
                        pending.remove(p)
                    else:
                        p[3] = False
                if last_poll is not None:
                    intervals.append((seen_at - last_poll) * 1000)
                last_poll = seen_at
                time.sleep(0.0005)
            client.close()
            arrived = stamps(stamper)
            # Due -> a reader that does nothing else has it: the daemon's share of the latency.
            delivery_alone = [(arrived[t] - t / 1e6) * 1000 for t in dues if t in arrived]
            ot.check(len(delivery_alone) >= len(dues) * 9 // 10, f"the stamper had {len(delivery_alone)} of {len(dues)} samples")
            ot.check(drawing, "the canvas never opened during the generated session")
            shown = rss_kib(s.overlay.pid)
            s.minimize_and_wait()
            time.sleep(0.5)
            hidden = rss_kib(s.overlay.pid)
            return dict(latencies=latencies, expected=expected, late=late, first_look=first_look, dropped=dropped,
                        intervals=intervals, trace=trace, delivery=delivery, delivery_alone=delivery_alone,
                        rss_shown=shown, rss_hidden=hidden)
        finally:
            s.close()


def draw_with_the_mouse(env, strokes):
    """The strokes drawn with the core pointer (XTEST): press, move through the points, release."""
    argv = ["xdotool"]
    for stroke in strokes:
        points = ot.screen_points([stroke], ot.WIDTH, ot.HEIGHT)
        argv += ["mousemove", str(points[0][0]), str(points[0][1]), "mousedown", "1"]
        for px, py in points[1:]:
            argv += ["mousemove", str(px), str(py)]
        argv += ["mouseup", "1"]
    subprocess.run(argv + ["mousemove", "0", "0"], env=env, check=True)


def bench_gromit(args, desktop, x, strokes):
    """`gromit-mpx --visibility` → its window viewable; its RSS hidden before drawing, shown with the
    recording's strokes drawn through it (painting switched on by --toggle, strokes drawn with the
    mouse), hidden again."""
    if not shutil.which("gromit-mpx"):
        return None, "gromit-mpx is not installed"
    env = dict(desktop.env, GDK_BACKEND="x11")
    proc = subprocess.Popen(["gromit-mpx"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gromit = lambda *argv: subprocess.run(["gromit-mpx", *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        found = subprocess.run(["xdotool", "search", "--class", "gromit"], env=env, capture_output=True, text=True).stdout.split()
        if not found:
            return None, "gromit-mpx opened no window"
        windows = [int(w) for w in found]
        visible = lambda: any(x.viewable(w) for w in windows)
        if visible():   # it starts shown: hide it first
            gromit("--visibility")
            wait_until(lambda: not visible())
        time.sleep(0.5)
        rss = {"never shown": rss_kib(proc.pid)}
        times = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            gromit("--visibility")
            if not wait_until(visible):
                return None, "gromit-mpx's window did not become viewable"
            times.append((time.perf_counter() - started) * 1000)
            gromit("--visibility")
            wait_until(lambda: not visible())
        gromit("--visibility")
        wait_until(visible)
        gromit("--toggle")          # painting on: it grabs the pointer
        time.sleep(0.5)
        draw_with_the_mouse(env, strokes)
        gromit("--toggle")          # painting off; the drawing stays shown
        time.sleep(0.5)
        ink = ot.foreign_pixels(desktop.screenshot())
        if len(ink) < 100:
            return None, f"drawing through gromit-mpx left {len(ink)} pixels on screen; its memory would not be comparable"
        rss["shown"] = rss_kib(proc.pid)
        gromit("--visibility")
        wait_until(lambda: not visible())
        time.sleep(0.5)
        rss["hidden again"] = rss_kib(proc.pid)
        return times, rss
    finally:
        proc.terminate()
        proc.wait(5)


def report_toggles(args, desktop, x, canvas="stylus-canvas"):
    times, rss, strokes = bench_canvas(args, desktop, x)
    check_compositor(desktop, "the overlay's toggles")
    points = sum(len(t["points"]) for t in strokes)
    print(f"{canvas}: toggle -> first frame on the X server, {len(times)} toggles: "
          f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms", flush=True)
    print(f"{canvas} RSS: never shown {mib(rss['never shown'])}; shown with the recording's {len(strokes)} strokes "
          f"({points} points) {mib(rss['shown'])}; hidden again {mib(rss['hidden again'])}", flush=True)
    gromit, detail = bench_gromit(args, desktop, x, strokes)
    check_compositor(desktop, "gromit-mpx's toggles")
    if gromit is None:
        print(f"gromit-mpx: SKIPPED: {detail}", flush=True)
    else:
        print(f"gromit-mpx --visibility -> window viewable, {len(gromit)} toggles: "
              f"p50 {percentile(gromit, 50):.1f} ms, p99 {percentile(gromit, 99):.1f} ms, max {max(gromit):.1f} ms "
              f"(includes starting the gromit-mpx client process)", flush=True)
        print(f"gromit-mpx RSS: never shown {mib(detail['never shown'])}; shown with the same strokes drawn through it "
              f"{mib(detail['shown'])}; hidden again {mib(detail['hidden again'])}", flush=True)


def report_ink(args, desktop, x, canvas="stylus-canvas"):
    ink = bench_ink(args, desktop, XLooks(x))
    check_compositor(desktop, "the ink latency run")
    t, iv = ink["latencies"], ink["intervals"]
    ot.check(len(t) >= ink["expected"] * 9 // 10,
             f"ink seen for only {len(t)} of {ink['expected']} samples ({len(ink['late'])} not within 2 s, "
             f"e.g. {ink['late'][:3]}; {ink['dropped']} dropped by the daemon for this reader)")
    print(f"{canvas}: pen sample due in the replay -> its ink on the X server, "
          f"{len(t)} of {ink['expected']} samples at 200/s: p50 {percentile(t, 50):.1f} ms, p99 {percentile(t, 99):.1f} ms, "
          f"max {max(t):.1f} ms; polled every {percentile(iv, 50):.2f} ms (p99 {percentile(iv, 99):.2f} ms); "
          f"{ink['first_look']} inked at the first poll, {len(ink['late'])} not within 2 s; "
          f"due -> this reader has the event p50 {percentile(ink['delivery'], 50):.2f} ms, "
          f"p99 {percentile(ink['delivery'], 99):.2f} ms"
          f"; due -> a reader that only reads (its own process) has it p50 {percentile(ink['delivery_alone'], 50):.2f} ms, "
          f"p99 {percentile(ink['delivery_alone'], 99):.2f} ms", flush=True)
    if os.environ.get("INK_TRACE"):
        with open(os.environ["INK_TRACE"], "w") as f:
            json.dump(ink["trace"], f)
    print(f"{canvas} RSS after drawing {len(t)} samples in {INK_ROWS} strokes: shown {mib(ink['rss_shown'])}, "
          f"hidden {mib(ink['rss_hidden'])}", flush=True)


# ---------------------------------------------------------------- soak: memory over a long session

SOAK_SIZE = (1920, 1080)
SOAK_PERIOD_S = 15
FLAT_MIB = 1.0             # the last half's max - min at most this: flat (the samples' noise is well below)


def memory_of(pid):
    """VmRSS and what it is made of, KiB."""
    return memory_kib(pid, ["VmRSS", "RssAnon", "RssFile", "RssShmem"])


class LoopedReplayStack(ot.Stack):
    """The overlay tests' stack with the bundled recording replayed at its recorded pace, again and
    again; the recording's BTN_STYLUS double press opens (rather than toggles) the canvas, so a
    loop never minimizes it."""

    def __init__(self, *args, **kwargs):
        self.daemon = self.overlay = None
        try:
            super().__init__(*args, **kwargs)
        except BaseException:
            self.close()     # a looping replay left running would draw for ever
            raise

    def start_daemon(self, replay, speed="1"):
        argv = ["--socket", self.socket, "--state-file", self.state_file, "--transition-ms", ot.TRANSITION_MS,
                "--replay", self.recording, "--speed", speed, "--loop", "--bind", "BTN_STYLUS=open-canvas"]
        stylusd = Daemon([os.path.join(self.args.bin, "stylusd")], self.root, *argv, runtime=self.root, state=self.root,
                         config=self.root, log=False, ready="socket")
        self.daemon, self.daemon_log = stylusd.proc, []


def sample_until(end, sample):
    """Calls `sample(elapsed s)` every SOAK_PERIOD_S from now until `end` (monotonic), the last at `end`."""
    started = time.monotonic()
    k = 0
    while True:
        due = started + k * SOAK_PERIOD_S
        if due > end + 0.5:
            return
        time.sleep(max(0.0, due - time.monotonic()))
        sample(time.monotonic() - started)
        k += 1


def soak_canvas(args, desktop, end, result):
    """stylus-canvas open over the looped replay until `end`; its samples into `result`."""
    try:
        with ot.private_directory("stylus-canvas-soak-") as root:
            s = LoopedReplayStack(args, desktop, root, (), replay=True)
            try:
                s.open_and_wait()
                client = Client(s.socket)
                samples, daemon = [], []
                result.update(samples=samples, daemon=daemon, reopened=0, cleared=0)

                def sample(elapsed):
                    ot.check(s.overlay.poll() is None, f"stylus-canvas exited: {s.overlay_log[-5:]}")
                    ot.check(s.daemon.poll() is None, "stylusd exited")
                    check_compositor(desktop, "the soak")
                    samples.append((elapsed, memory_of(s.overlay.pid)))
                    daemon.append((elapsed, rss_kib(s.daemon.pid)))
                    canvas = client.request("status")["result"]["canvas"]
                    result["canvas"] = canvas
                    if canvas["state"] not in ("open", "opening"):
                        client.request("open")
                        result["reopened"] += 1
                    if canvas["full"]:   # at the daemon's limits recording stops: start afresh
                        client.request("clear")
                        result["cleared"] += 1
                sample_until(end, sample)
                result["smaps"] = smaps_rollup(s.overlay.pid)
                client.close()
            finally:
                s.close()
    except (ot.Failure, OSError, KeyError) as error:
        result["error"] = str(error)


def soak_gromit(desktop, strokes, end, result):
    """gromit-mpx, painting on, the strokes dragged through it every SOAK_PERIOD_S until `end`."""
    if not shutil.which("gromit-mpx"):
        result["error"] = "gromit-mpx is not installed"
        return
    proc = None
    try:
        env = dict(desktop.env, GDK_BACKEND="x11")
        proc = subprocess.Popen(["gromit-mpx"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gromit = lambda *argv: subprocess.run(["gromit-mpx", *argv], env=env, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
        time.sleep(2)
        ot.check(proc.poll() is None, f"gromit-mpx exited (status {proc.returncode})")
        gromit("--toggle")          # painting on: it grabs the pointer
        time.sleep(0.5)
        samples = []
        result["samples"] = samples
        result["passes"] = 0

        def sample(elapsed):
            ot.check(proc.poll() is None, f"gromit-mpx exited (status {proc.returncode})")
            check_compositor(desktop, "gromit-mpx's soak")
            draw_with_the_mouse(env, strokes)
            result["passes"] += 1
            if result["passes"] == 1:
                ink = ot.foreign_pixels(desktop.screenshot())
                ot.check(len(ink) >= 100, f"drawing through gromit-mpx left {len(ink)} pixels on screen")
            samples.append((elapsed, memory_of(proc.pid)))
        sample_until(end, sample)
        result["smaps"] = smaps_rollup(proc.pid)
    except (ot.Failure, OSError, subprocess.CalledProcessError) as error:
        result["error"] = str(error)
    finally:
        if proc:
            proc.terminate()
            proc.wait(5)


def smaps_rollup(pid):
    """/proc/PID/smaps_rollup's Rss, Anonymous, Pss_File and Pss_Shmem, KiB (shared file pages
    counted by their share, unlike RssFile)."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        f.readline()   # the address range
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    return {k: int(fields[k].split()[0]) if k in fields else 0 for k in ("Rss", "Anonymous", "Pss_File", "Pss_Shmem")}


def growth(samples):
    """Over the samples of the last half of the run ([(s, KiB)]): the least-squares slope in
    MiB/min, max - min in MiB, and how many samples."""
    half = samples[-1][0] / 2
    last = [(t / 60, kib / 1024) for t, kib in samples if t >= half]
    if len(last) < 2:
        return 0.0, 0.0, len(last)
    mt = sum(t for t, _ in last) / len(last)
    mv = sum(v for _, v in last) / len(last)
    slope = sum((t - mt) * (v - mv) for t, v in last) / sum((t - mt) ** 2 for t, _ in last)
    values = [v for _, v in last]
    return slope, max(values) - min(values), len(last)


def report_soak_of(name, result, minutes, goal=False):
    if "error" in result or not result.get("samples"):
        print(f"{name} soak: NOT MEASURED: {result.get('error', 'no sample')}", flush=True)
        return
    series = result["samples"]
    rss = [(t, m["VmRSS"]) for t, m in series]
    values = [kib for _, kib in rss]
    slope, spread, n = growth(rss)
    end = series[-1][1]
    print(f"{name} soak at {SOAK_SIZE[0]}x{SOAK_SIZE[1]}, {minutes:g} min, RSS every {SOAK_PERIOD_S} s "
          f"({len(series)} samples): start {mib(values[0])}, peak {mib(max(values))}, last {mib(values[-1])}; "
          f"last half ({n} samples): slope {slope:+.3f} MiB/min, max - min {spread:.1f} MiB; at the end "
          f"RssAnon {mib(end['RssAnon'])}, RssFile {mib(end['RssFile'])}, RssShmem {mib(end['RssShmem'])}", flush=True)
    smaps = result.get("smaps")
    if smaps:
        print(f"{name} smaps_rollup at the end: Rss {mib(smaps['Rss'])}, Anonymous {mib(smaps['Anonymous'])}, "
              f"Pss_File {mib(smaps['Pss_File'])}, Pss_Shmem {mib(smaps['Pss_Shmem'])}", flush=True)
    print(f"{name} RSS series (MiB): " + " ".join(f"{kib / 1024:.1f}" for kib in values), flush=True)
    if goal:
        peak = max(values) / 1024
        flat = spread <= FLAT_MIB
        verdict = "met" if peak <= 40 and flat else "NOT met"
        over = f"; peak {peak - 40:+.1f} MiB against 40" if peak > 40 else ""
        print(f"{name} goal (<= 40 MiB resident, flat: last-half max - min <= {FLAT_MIB:g} MiB): {verdict}{over}",
              flush=True)


def report_soak(args, canvas="stylus-canvas"):
    """The canvas and gromit-mpx side by side, each on its own 1920x1080 desktop, for --soak-minutes."""
    size = (ot.WIDTH, ot.HEIGHT)
    ot.WIDTH, ot.HEIGHT = SOAK_SIZE
    try:
        with open(ot.drawn_state()) as f:
            strokes = [{"points": list(zip(t["x"], t["y"]))} for t in json.load(f)["strokes"] if t.get("tool") != "eraser"]
        # One after the other: two desktops started at once could take the same display number.
        desktops = [ot.Desktop(), ot.Desktop()]
        try:
            end = time.monotonic() + 15 + args.soak_minutes * 60    # 15 s for both programs to start
            mine, peer = {}, {}
            threads = [threading.Thread(target=soak_canvas, args=(args, desktops[0], end, mine)),
                       threading.Thread(target=soak_gromit, args=(desktops[1], strokes, end, peer))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            for d in desktops:
                d.close()
        report_soak_of(canvas, mine, args.soak_minutes, goal=True)
        if "canvas" in mine:
            c, d = mine["canvas"], mine["daemon"]
            print(f"{canvas} soak: at the end {c['stroke_count']} strokes, {c['point_count']} points, state {c['state']}; "
                  f"reopened {mine['reopened']} times, cleared {mine['cleared']} times (at the daemon's limits); "
                  f"stylusd RSS {mib(d[0][1])} -> {mib(d[-1][1])}", flush=True)
        report_soak_of("gromit-mpx", peer, args.soak_minutes)
        if "passes" in peer:
            print(f"gromit-mpx soak: the recording's {len(strokes)} pen strokes dragged through it {peer['passes']} times",
                  flush=True)
    finally:
        ot.WIDTH, ot.HEIGHT = size


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build", "release", "stylus-canvas"))
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--only", choices=["toggle", "ink", "soak"], help="one part (toggle and soak include gromit-mpx)")
    parser.add_argument("--soak-minutes", type=float, default=10, help="how long the soak part runs (default 10)")
    args = parser.parse_args()
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    canvas = "stylus-canvas (x11)"
    try:
        if args.only in (None, "toggle", "ink"):
            desktop = ot.Desktop()
            try:
                x = X(desktop.display)
                # A part that cannot be measured says why; a benchmark never fails the build.
                for part, report in (("toggle", report_toggles), ("ink", report_ink)):
                    if args.only in (None, part):
                        try:
                            check_compositor(desktop, "the desktop's start")
                            report(args, desktop, x, canvas=canvas)
                        except ot.Failure as error:
                            print(f"overlay bench, {canvas}, {part}: NOT MEASURED: {error}", flush=True)
            finally:
                desktop.close()
        if args.only in (None, "soak"):
            try:
                report_soak(args, canvas=canvas)
            except ot.Failure as error:
                print(f"overlay bench, {canvas}, soak: NOT MEASURED: {error}", flush=True)
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
