#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylus-canvas on a Wayland desktop with wlr-layer-shell: headless sway 1.7
(pixman renderer), screenshots with grim, clicks through a small
wlr-virtual-pointer client built here (Tests/overlay/wayland/pointer.c), keys
with wtype, a fullscreen GTK 4 application (Tests/overlay/wayland/app.py), two
foot terminals for the README's picture (scene.py, --screenshot).

Checked where a user sees it: the recorded strokes' ink on screen, the desktop
(or the fullscreen application) visible everywhere else, the desktop back pixel
for pixel after minimize, both transitions ended by the canvas's ack; clicks
that reach the application with --click-through and do not in observe mode;
a mouse drag that draws, is recorded as the pointer's and undone (sway has no
virtual touch protocol: touch is not tested here);
a surface on each of two outputs of different sizes; a compositor that goes
away ends the canvas with a line saying so; the boards; every default key;
a text typed with the text tool, kept, exported alike and undone; the same through an
input method of the suite's own (Tests/overlay/wayland/input_method.c, text-input-v3).

sway refuses to run as root, and stylusd refuses clients of another user: run
as root, this script copies the programs and the tests into a scratch folder
and runs itself again there as `nobody`, with sway, stylusd and the canvas.

    python3 Tests/overlay/layer_shell_test.py [--bin .build-static/release] [--canvas Overlay/.build-static/release/stylus-canvas] [--only NAME]
                                              [--screenshot docs/images/canvas-sway.png]
"""
import glob
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
import overlay_test as ot  # noqa: E402  (puts Tests/support on sys.path)
from stylustest import check, run_tests  # noqa: E402

WIDTH, HEIGHT = 1280, 800
DESKTOP = (0x20, 0x80, 0x20)
APP = (0x20, 0x40, 0xc0)
APP_ID = "org.stylusd.TestApp"
UNPRIVILEGED = 65534
WLR_PROTOCOLS = "/usr/share/cargo/registry/wayland-protocols-*/wlr-protocols/unstable"


class Sway:
    def __init__(self, runtime, second_output=None):
        self.runtime = runtime
        config = os.path.join(runtime, "sway.conf")
        with open(config, "w") as f:
            f.write(f"output HEADLESS-1 resolution {WIDTH}x{HEIGHT} position 0 0 bg #{'%02x%02x%02x' % DESKTOP} solid_color\n"
                    "default_border none\n"
                    f'for_window [app_id="{APP_ID}"] fullscreen enable\n')
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime, HOME=runtime, WLR_BACKENDS="headless",
                        WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
        for name in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"):
            self.env.pop(name, None)
        self.log = open(os.path.join(runtime, "sway.log"), "w")
        self.proc = subprocess.Popen(["sway", "-c", config], env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 10
        while not (glob.glob(os.path.join(runtime, "wayland-[0-9]")) and glob.glob(os.path.join(runtime, "sway-ipc.*.sock"))):
            check(time.monotonic() < deadline and self.proc.poll() is None, "sway did not start (see sway.log)")
            time.sleep(0.05)
        self.env["WAYLAND_DISPLAY"] = os.path.basename(glob.glob(os.path.join(runtime, "wayland-[0-9]"))[0])
        self.env["SWAYSOCK"] = glob.glob(os.path.join(runtime, "sway-ipc.*.sock"))[0]
        if second_output:
            w, h = second_output
            self.msg("create_output")
            self.msg("output", "HEADLESS-2", "resolution", f"{w}x{h}", "position", f"{WIDTH}", "0",
                     "bg", "#%02x%02x%02x" % DESKTOP, "solid_color")
        self.wait_painted()
        # The virtual pointer from the start: clients bind the seat's pointer before any click.
        self.pointer = subprocess.Popen([os.path.join(ot.ARGS.scratch, "pointer"), str(WIDTH), str(HEIGHT)], env=self.env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        check(self.pointer.stdout.readline().strip() == "ready", "the virtual pointer did not start")

    def click(self, x, y):
        self.pointer_says(f"click {x} {y}")

    def drag(self, points, pause=0.02):
        """A left-button drag through `points` (screen pixels), a pause between moves so that each reaches the canvas."""
        self.pointer_says(f"down {points[0][0]} {points[0][1]}")
        for x, y in points[1:]:
            time.sleep(pause)
            self.pointer_says(f"move {x} {y}")
        time.sleep(pause)
        self.pointer_says("up")
        self.park()

    def park(self):
        """The pointer to the bottom right corner, where its cursor (drawn into the output, which grim reads) hides."""
        self.pointer_says(f"move {WIDTH - 1} {HEIGHT - 1}")

    def pointer_says(self, line):
        self.pointer.stdin.write(line + "\n")
        self.pointer.stdin.flush()
        check(self.pointer.stdout.readline().strip() == "ok", f"the virtual pointer did not do {line!r}")

    def msg(self, *args):
        subprocess.run(["swaymsg", *args], env=self.env, check=True, capture_output=True, timeout=10)

    def output(self, name="HEADLESS-1"):
        """The output as `swaymsg -t get_outputs` describes it."""
        out = subprocess.run(["swaymsg", "-r", "-t", "get_outputs"], env=self.env, check=True, capture_output=True, timeout=10).stdout
        return next(o for o in json.loads(out) if o["name"] == name)

    def screenshot(self):
        out = subprocess.run(["grim", "-t", "ppm", "-"], env=self.env, check=True, capture_output=True, timeout=10).stdout
        return ot.parse_ppm(out)

    def wait_painted(self):
        deadline = time.monotonic() + 10
        while ot.pixel(self.screenshot(), 5, 5) != DESKTOP:
            check(time.monotonic() < deadline, "sway never painted its background")
            time.sleep(0.1)

    def close(self):
        if getattr(self, "pointer", None) and self.pointer.poll() is None:
            self.pointer.stdin.close()
            self.pointer.wait(5)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
        self.log.close()


class App:
    """The fullscreen GTK 4 application, printing the clicks it receives."""

    def __init__(self, sway):
        self.lines = []
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "wayland", "app.py")],
                                     env=dict(sway.env, GDK_BACKEND="wayland", GSK_RENDERER="cairo", NO_AT_BRIDGE="1"),
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=lambda: [self.lines.append(l.strip()) for l in self.proc.stdout], daemon=True).start()
        deadline = time.monotonic() + 15
        while ot.pixel(sway.screenshot(), WIDTH // 2, 5) != APP:
            check(time.monotonic() < deadline and self.proc.poll() is None, f"the fullscreen application never showed: {self.lines}")
            time.sleep(0.1)

    def presses(self):
        return [l for l in self.lines if l.startswith("pressed")]

    def close(self):
        self.proc.terminate()
        self.proc.wait(5)


class Session:
    """sway, stylusd with the recording's strokes, stylus-canvas; optionally the fullscreen application."""

    def __init__(self, overlay_args=(), second_output=None, app=False, pen_captured=False, replay=False, state=None,
                 recording=None, config=None, empty=False):
        """`recording`: replayed at its own pace instead of the bundled one; `config`: config.toml's text;
        `empty`: the daemon starts with no strokes."""
        self.runtime = tempfile.mkdtemp(prefix="stylus-layer-")
        os.chmod(self.runtime, 0o700)
        self.sway = Sway(self.runtime, second_output)
        self.app = App(self.sway) if app else None
        desktop = ot.Desktop.__new__(ot.Desktop)   # Stack needs only .env and .screenshot from its desktop
        desktop.env = dict(self.sway.env, GDK_BACKEND="wayland")
        desktop.screenshot = self.sway.screenshot
        self.root = tempfile.mkdtemp(prefix="stylus-canvas-test-")
        os.chmod(self.root, 0o700)
        if config:
            os.makedirs(os.path.join(self.root, "stylusd"))
            with open(os.path.join(self.root, "stylusd", "config.toml"), "w") as f:
                f.write(config)
        replay = replay or recording is not None
        extra = {"recording": recording(self.root), "speed": "1"} if recording else {}
        self.stack = ot.Stack(ot.ARGS, desktop, self.root, overlay_args, replay=replay,
                              state=None if replay or empty else state or ot.drawn_state(), pen_captured=pen_captured, **extra)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stack.close()
        if self.app:
            self.app.close()
        self.sway.close()
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.runtime, ignore_errors=True)


def ink_and_background(shot, strokes, background, width=WIDTH, height=HEIGHT, origin=(0, 0), skip_rows=0):
    """The share of recorded points with ink near them, and the share of pixels
    away from every point (13 px) that show `background` unchanged; the first
    `skip_rows` rows (a panel under the canvas) count for neither."""
    points = ot.screen_points([t for t in strokes if t.get("tool") != "eraser"], width, height)
    points = [(x + origin[0], y + origin[1]) for x, y in points if y + origin[1] >= skip_rows + 3]
    inked = sum(1 for p in points if ot.red_ink_near(shot, *p))
    near = set()
    for x, y in ot.screen_points(strokes, width, height):
        for dy in range(-13, 14, 1):
            for dx in range(-13, 14, 1):
                near.add((x + origin[0] + dx, y + origin[1] + dy))
    w, h, rgb = shot
    bg = bytes(background)
    away = same = 0
    for y in range(max(origin[1], skip_rows), origin[1] + height):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        for x in range(origin[0], origin[0] + width):
            if (x, y) in near:
                continue
            away += 1
            same += row[x * 3:x * 3 + 3] == bg
    return inked / max(1, len(points)), same / max(1, away), len(points)


def minimized_back_to(stack, screenshot, before):
    """Minimize: the screen as `before` (within 3 s), both transitions acked, and the canvas
    reported as one layer-shell output of the whole size."""
    stack.minimize_and_wait()
    deadline = time.monotonic() + 3
    after = screenshot()
    while after[2] != before[2] and time.monotonic() < deadline:
        time.sleep(0.1)
        after = screenshot()
    check(after[2] == before[2], "the screen 3 s after minimize differs from before the canvas opened")
    settled_by_ack(stack)
    overlay = stack.request("status").get("overlay")
    check(overlay == {"backend": "layer-shell", "outputs": 1, "width": WIDTH, "height": HEIGHT}, f"status's overlay: {overlay}")


def settled_by_ack(stack):
    settled = [e for e in stack.watcher.states() if e["state"] in ("open", "minimized")]
    check(len(settled) == 2 and all(e["cause"] == "ack" for e in settled),
          f"transitions: {[(e['state'], e['cause']) for e in settled]}")


def test_the_canvas_shows_its_ink_over_the_desktop_and_minimizes_back_to_it():
    with Session() as s:
        before = s.sway.screenshot()
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        s.stack.wait_overlay("layer surface on HEADLESS-1", 1)
        shown = s.sway.screenshot()
        inked, visible, n = ink_and_background(shown, strokes, DESKTOP)
        check(inked >= 0.90, f"only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the desktop away from the ink is visible (black screen?)")
        # The open canvas's frame ([canvas] indicator's default) in the current colour, all round.
        colour = s.stack.request("status")["tool"]["color"]
        opacity = ot.canvas_spec.spec()["constants"]["indicator"]["frameOpacity"]
        matching, total = ot.indicator_pixels(shown, "frame", tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)), opacity, DESKTOP)
        check(matching >= 0.99 * total, f"the frame: only {matching} of {total} pixels are {colour} at {opacity}")
        minimized_back_to(s.stack, s.sway.screenshot, before)
        print(f"  {inked:.1%} of {n} points inked, {visible:.2%} of the desktop away from the ink unchanged; "
              f"{matching} of {total} frame pixels {colour}; restored pixel for pixel; both transitions acked", flush=True)


def test_a_replayed_double_press_opens_the_canvas_and_its_ink_follows_the_pen():
    """The recording (Cintiq 22HDT at 2x): its double press opens the canvas, three strokes
    are drawn live and confirmed; their ink is on screen while the replay goes on."""
    with Session(replay=True) as s:
        w = s.stack.watcher
        w.wait(lambda e: e["event"] == "canvas" and e["state"] == "open" and e.get("source") == "pen", 40, "open by a double press")
        w.wait(lambda e: e["event"] == "stroke" and e["index"] >= 2, 30, "three strokes")
        s.stack.wait_overlay("strokes: 3", 5)
        shot = s.sway.screenshot()
        strokes = s.stack.request("strokes")
        check(strokes["canvas"] == "open", f"the canvas closed before the screenshot: {strokes['canvas']}")
        inked, visible, n = ink_and_background(shot, strokes["strokes"][:3], DESKTOP)
        check(inked >= 0.90, f"only {inked:.1%} of {n} points of the first three strokes inked")
        check(visible >= 0.97, f"only {visible:.1%} of the desktop away from the ink is visible")
        w.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e.get("source") == "pen", 40,
               "minimized by a double press")
        settled = [e for e in w.states() if e["state"] in ("open", "minimized")]
        check(settled and all(e["cause"] == "ack" for e in settled),
              f"transitions not ended by the canvas's ack: {[(e['state'], e['cause']) for e in settled if e['cause'] != 'ack']}")
        print(f"  {inked:.1%} of {n} points inked live; {len(settled)} transitions, all acked", flush=True)


def red_pixels(shot):
    w, h, rgb = shot
    return sum(1 for i in range(0, w * h * 3, 3 * 7) if ot.red_ink(rgb[i:i + 3]))


def test_the_laser_draws_live_and_its_ink_leaves_by_itself():
    """The recording replayed with the laser chosen: its ink shows live while the canvas is open,
    leaves the screen about 1.5 s after each stroke, and the daemon records none of it (only what
    the pen's eraser end does, which erases whatever tool is chosen)."""
    with Session(replay=True, state=None) as s:
        s.stack.request("tool", tool="laser")
        w = s.stack.watcher
        w.wait(lambda e: e["event"] == "canvas" and e["state"] == "open" and e.get("source") == "pen", 40, "open by a double press")
        seen = cleared = None
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and cleared is None:
            red = red_pixels(s.sway.screenshot())
            if red > 20 and seen is None:
                seen = time.monotonic()
            elif seen is not None and red == 0:
                cleared = time.monotonic()
            time.sleep(0.1)
        check(seen is not None, "no laser ink was ever on the screen")
        check(cleared is not None, "the laser's ink never left the screen while the canvas was open")
        recorded = [t["tool"] for t in s.stack.request("strokes")["strokes"]]
        check(all(t == "eraser" for t in recorded), f"the daemon recorded laser strokes: {recorded}")
        print(f"  laser ink seen, gone {cleared - seen:.1f} s later; nothing recorded", flush=True)


def test_a_killed_daemon_takes_the_canvas_off_the_screen_within_3_s():
    with Session() as s:
        before = s.sway.screenshot()
        s.stack.open_and_wait()
        check(s.sway.screenshot()[2] != before[2], "the open canvas shows nothing")
        s.stack.daemon.kill()
        killed = time.monotonic()
        while s.sway.screenshot()[2] != before[2]:
            check(time.monotonic() - killed < 3.0, "the canvas still shows 3 s after the daemon was killed")
            time.sleep(0.1)
        print(f"  the desktop is back {time.monotonic() - killed:.2f} s after SIGKILL", flush=True)


def test_an_output_plugged_in_while_open_gets_its_surface_and_its_part_of_the_drawing():
    """One output, the canvas open on it; a second one appears (sway's create_output): the
    desktop is 2080x800 now, and the canvas covers both with the drawing spread over them.
    (Unplugging is not tested: sway 1.7 keeps a disabled output's wl_output and has no
    `unplug`, so a client never sees one go.)"""
    with Session() as s:
        s.stack.open_and_wait()
        since = time.monotonic()
        s.sway.msg("create_output")
        s.sway.msg("output", "HEADLESS-2", "resolution", "800x600", "position", f"{WIDTH}", "0",
                   "bg", "#%02x%02x%02x" % DESKTOP, "solid_color")
        s.stack.wait_overlay("covering all 2 monitors, 2080x800", 5, since)
        s.stack.wait_overlay("layer surface on HEADLESS-2", 5, since)
        s.stack.settle_screen()
        strokes = s.stack.request("strokes")["strokes"]
        shot = s.sway.screenshot()
        points = ot.screen_points([t for t in strokes if t.get("tool") != "eraser"], 2080, 800)
        for name, pts in (("HEADLESS-1", [p for p in points if p[0] < WIDTH]),
                          ("HEADLESS-2", [p for p in points if p[0] >= WIDTH and p[1] < 600])):
            inked = [p for p in pts if ot.red_ink_near(shot, *p)]
            check(pts and len(inked) >= len(pts) * 0.90, f"{name}: only {len(inked)} of {len(pts)} points inked")


def crossed_state():
    """A state file of two strokes: the pen across the middle of the screen, left to right, then
    the eraser down through its middle."""
    def stroke(tool, xs, ys):
        n = len(xs)
        return {"device": 1, "tool": tool, "x": xs, "y": ys, "pressure": [0.5] * n, "tilt_x": [0.0] * n, "tilt_y": [0.0] * n,
                "time_us": [1_000_000 + 10_000 * i for i in range(n)]}
    steps = [i / 20 for i in range(21)]
    state = {"canvas": "minimized", "precision_enabled": False, "version": 1,
             "strokes": [stroke("pen", [0.2 + 0.6 * t for t in steps], [0.5] * 21),
                         stroke("eraser", [0.5] * 21, [0.3 + 0.4 * t for t in steps])]}
    path = os.path.join(ot.ARGS.scratch, "crossed.json")
    with open(path, "w") as f:
        json.dump(state, f)
    return path


BLUE, YELLOW, GREEN, PURPLE = (0x34, 0x65, 0xa4), (0xed, 0xd4, 0x00), (0x4e, 0x9a, 0x06), (0x75, 0x50, 0x7b)


def styled_state(scratch):
    """A state file (version 2) of four styled strokes: a blue pen line across at y 0.3, a
    yellow highlighter down through it and then along y 0.5 and back over itself, a green
    arrow along y 0.7 pointing right, a purple rectangle from (0.6, 0.6) to (0.8, 0.8)."""
    def stroke(tool, color, points, pressure=1.0):
        n = len(points)
        return {"device": 1, "tool": tool, "color": "#%02x%02x%02x" % color, "width": 8,
                "x": [p[0] for p in points], "y": [p[1] for p in points], "pressure": [pressure] * n,
                "tilt_x": [0.0] * n, "tilt_y": [0.0] * n, "time_us": [1_000_000 + 10_000 * i for i in range(n)]}
    steps = [i / 20 for i in range(21)]
    marker = [(0.5, 0.15 + 0.2 * t) for t in steps] + [(0.5 - 0.3 * t, 0.35) for t in steps[1:]] + [(0.2 + 0.15 * t, 0.35) for t in steps[1:]]
    state = {"canvas": "minimized", "precision_enabled": False, "version": 2,
             "style": {"tool": "pen", "color": "#d61a1c", "width": 8},
             "strokes": [stroke("pen", BLUE, [(0.2 + 0.6 * t, 0.25) for t in steps]),
                         stroke("highlighter", YELLOW, marker, pressure=0.2),
                         stroke("arrow", GREEN, [(0.2 + 0.3 * t, 0.7) for t in steps]),
                         stroke("rectangle", PURPLE, [(0.6 + 0.2 * t, 0.6 + 0.2 * t) for t in steps])]}
    path = os.path.join(scratch, "styled.json")
    with open(path, "w") as f:
        json.dump(state, f)
    return path


def check_styles(shot, background, width=WIDTH, height=HEIGHT, top=0):
    """What styled_state draws, on a screen of `width`x`height` showing `background`: each
    colour where its stroke is, the highlighter translucent (0.35) over the desktop and over
    the pen, and no darker where it crosses itself; the arrow's head; the rectangle's sides
    around untouched desktop. Rows above `top` (a panel) are not looked at."""
    def at(x, y):
        return ot.pixel(shot, int(x * width), int(y * height))

    def near(p, want, tolerance=6):
        return all(abs(a - b) <= tolerance for a, b in zip(p, want))

    def over(color, under, alpha=0.35):
        return tuple(round(alpha * c + (1 - alpha) * u) for c, u in zip(color, under))

    problems = []
    for name, point, want in [
        ("the blue pen line", (0.3, 0.25), BLUE),
        ("the highlighter over the desktop", (0.5, 0.3), over(YELLOW, background)),
        ("the highlighter over the blue pen line", (0.5, 0.25), over(YELLOW, BLUE)),
        ("the highlighter where it runs back over itself", (0.3, 0.35), over(YELLOW, background)),
        ("the arrow's shaft", (0.35, 0.7), GREEN),
        ("the rectangle's left side", (0.6, 0.7), PURPLE),
        ("the rectangle's top", (0.7, 0.6), PURPLE),
        ("inside the rectangle", (0.7, 0.7), background),
    ]:
        if point[1] * height < top:
            continue
        if not near(at(*point), want):
            problems.append(f"{name} at {point}: {at(*point)}, not {want}")
    # The head's wings: 8 px back from the tip, 0.5 rad either side of the shaft.
    tip_x, tip_y = 0.5 * width, 0.7 * height
    for side in (1, -1):
        x, y = int(tip_x - 8 * math.cos(0.5)), int(tip_y + side * 8 * math.sin(0.5))
        if not any(near(ot.pixel(shot, x + dx, y + dy), GREEN, 40) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            problems.append(f"the arrow's head at ({x}, {y}): {ot.pixel(shot, x, y)}")
    check(not problems, "; ".join(problems))


def test_tools_and_colours_draw_as_their_style_says():
    """A blue pen line, a yellow highlighter over it and over itself, a green arrow and a purple
    rectangle, from a state file: each as docs/OVERLAY.md's renderer rule says."""
    with Session(state=styled_state(ot.ARGS.scratch)) as s:
        s.stack.open_and_wait()
        shot = s.sway.screenshot()
        check_styles(shot, DESKTOP)


def test_the_white_black_and_grid_boards_cover_the_screen_under_the_ink():
    """The X11 suite's board test on a layer surface: `stylusctl background white`, `black` and
    `grid` each cover at least 99 % of the screen away from the ink, the ink drawn on it, and
    `none` gives the desktop back."""
    with Session() as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        ot.check_the_boards(os.path.join(ot.ARGS.bin, "stylusctl"), s.stack.socket, s.sway.screenshot, strokes, DESKTOP,
                            exclude=[(0, 0, 30)])


def test_the_palette_shows_its_swatches_and_a_pen_tap_picks_the_colour_without_drawing():
    """The X11 suite's palette test on a layer surface, its reload of a reordered palette too."""
    lead_in = 8.0
    blue = ot.palette_swatches(WIDTH, HEIGHT)[4]
    stroke = [(500 + 30 * i, 300 + 10 * i) for i in range(11)]
    started = time.monotonic()
    with Session(recording=lambda root: ot.palette_recording(root, blue, stroke, lead_in),
                 config='[canvas]\nshow_palette = "always"\n') as s:
        tools = ot.Client(s.stack.socket)
        tools.request("subscribe", topics=["tool"])
        since = time.monotonic()
        s.stack.open_and_wait()
        s.stack.wait_overlay(ot.PALETTE_REGIONS_REPORTED, 5, since)
        check(time.monotonic() - started < lead_in - 1, f"the canvas was ready {time.monotonic() - started:.1f} s after the start, too late for the tap")
        ot.check_palette_swatches(s.sway.screenshot(), WIDTH, HEIGHT)
        ot.check_a_tap_picked_blue(tools, s.stack.watcher, s.stack.request, lead_in)
        s.stack.settle_screen()
        got = ot.pixel(s.sway.screenshot(), *blue)
        check(all(abs(a - b) <= 2 for a, b in zip(got, (0x34, 0x65, 0xa4))), f"the tapped swatch shows {got}: ink was drawn on it")
        ot.check_a_reload_reorders_the_swatches(s.root, s.stack.request, s.stack.wait_overlay, s.stack.settle_screen, s.sway.screenshot,
                                                WIDTH, HEIGHT)
        print("  8 swatches where the layout puts them; the tap picked #3465a4 and drew nothing; a reload's palette shows at once", flush=True)


def test_the_eraser_clears_the_ink_under_it_and_undo_brings_it_back():
    """The pen's red line across the screen, then the eraser down through its middle: the
    desktop shows where the eraser passed, the rest of the line stays; undo takes the
    eraser stroke away and the whole line is back; redo erases it again."""
    with Session(state=crossed_state()) as s:
        s.stack.open_and_wait()
        shot = s.sway.screenshot()
        y, middle = HEIGHT // 2, WIDTH // 2
        erased = [x for x in range(middle - 3, middle + 4) if ot.pixel(shot, x, y) != DESKTOP]
        check(not erased, f"ink left under the eraser's path at x = {erased}: {[ot.pixel(shot, x, y) for x in erased]}")
        kept = [x for x in range(int(0.22 * WIDTH), int(0.78 * WIDTH), 8) if abs(x - middle) > 20]
        bare = [x for x in kept if not ot.red_ink_near(shot, x, y)]
        check(not bare, f"the pen's line is gone away from the eraser too, at x = {bare[:5]}")
        since = time.monotonic()
        s.stack.request("undo")
        s.stack.wait_overlay("strokes: 1", 5, since)
        s.stack.settle_screen()
        shot = s.sway.screenshot()
        check(ot.red_ink_near(shot, middle, y), "undo of the eraser stroke did not bring the ink back")
        since = time.monotonic()
        s.stack.request("redo")
        s.stack.wait_overlay("strokes: 2", 5, since)
        s.stack.settle_screen()
        shot = s.sway.screenshot()
        erased = [x for x in range(middle - 3, middle + 4) if ot.pixel(shot, x, y) != DESKTOP]
        check(not erased, f"redo of the eraser stroke left ink at x = {erased}")


def check_drawn_only_at(stack, scale, since=0.0, until=float("inf")):
    """Every layer set and buffer the canvas logged in [since, until) has `scale`: an open
    that draws a first frame at a scale it then throws away fails."""
    drawn = [l.split()[-1] for t, l in stack.overlay_log if since <= t < until and l.split()[-2:-1] in (["layers"], ["buffer"])]
    check(drawn and all(d.endswith(f"@{scale}") for d in drawn), f"layers and buffers drawn at open, not all @{scale}: {drawn}")


def test_an_output_scaled_to_2_while_open_gets_buffers_at_its_scale():
    """swaymsg scale 2 on the open canvas's output: 640x400 logical pixels drawn into
    1280x800 buffers (buffer scale 2), the ink where it was on the screen's pixels."""
    with Session() as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        since = time.monotonic()
        s.sway.msg("output", "HEADLESS-1", "scale", "2")
        s.stack.wait_overlay("layers 640x400@2", 5, since)
        s.stack.settle_screen()
        shot = s.sway.screenshot()
        check(shot[:2] == (WIDTH, HEIGHT), f"grim's screenshot at scale 2 is {shot[:2]}")
        inked, visible, n = ink_and_background(shot, strokes, DESKTOP)
        check(inked >= 0.90, f"at scale 2 only {inked:.1%} of {n} points inked")
        check(visible >= 0.97, f"at scale 2 only {visible:.1%} of the desktop away from the ink is visible")
        s.stack.minimize_and_wait()
        since = time.monotonic()
        s.stack.open_and_wait()
        check_drawn_only_at(s.stack, 2, since)


def sway_version():
    out = subprocess.run(["sway", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def check_a_scaled_sway_output(mode, scale, old_scale):
    """The canvas opened on sway's output set to `mode` pixels at `scale` (as many logical pixels as
    sway's outputs say), drawn from the first frame where sway offers wp_fractional_scale_v1 (1.8 and later) at `scale`,
    on sway 1.7 at the integer `old_scale` it says to clients (it scales their buffers itself).
    The ink where the recorded points fall on grim's image, and the desktop away from it as
    it was before the canvas opened (pixman shades a solid background at a fractional scale)."""
    fractional = sway_version() >= (1, 8)
    drawn = described_scale(scale if fractional else old_scale)
    with Session() as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.sway.msg("output", "HEADLESS-1", "resolution", f"{mode[0]}x{mode[1]}", "scale", str(scale))
        deadline = time.monotonic() + 5
        while s.sway.output()["scale"] != scale:
            check(time.monotonic() < deadline, f"sway's output never got scale {scale}")
            time.sleep(0.1)
        rect = s.sway.output()["rect"]
        logical = (rect["width"], rect["height"])
        # grim takes an output at the integer scale it says to clients: below 1, its logical pixels.
        mode = mode if scale >= 1 else logical
        width, height = mode
        while s.sway.screenshot()[:2] != mode:
            check(time.monotonic() < deadline, f"grim never gave {mode} at scale {scale}: {s.sway.screenshot()[:2]}")
            time.sleep(0.1)
        s.stack.settle_screen()
        before = s.sway.screenshot()
        since = time.monotonic()
        s.stack.open_and_wait()
        s.stack.wait_overlay(f"layers {logical[0]}x{logical[1]}@{drawn}", 5, since)
        s.stack.settle_screen()
        check_drawn_only_at(s.stack, drawn, since)
        shot = s.sway.screenshot()
        check(shot[:2] == mode, f"grim's screenshot at scale {scale} is {shot[:2]}")
        points = ot.screen_points([t for t in strokes if t.get("tool") != "eraser"], width, height)
        inked = sum(1 for p in points if ot.red_ink_near(shot, *p)) / max(1, len(points))
        near = {(x + dx, y + dy) for x, y in points for dy in range(-20, 21) for dx in range(-20, 21)}
        away = [(x, y) for y in range(0, height, 3) for x in range(0, width, 3) if (x, y) not in near]
        same = sum(1 for x, y in away if ot.pixel(shot, x, y) == ot.pixel(before, x, y)) / max(1, len(away))
        check(inked >= 0.90, f"at scale {scale} only {inked:.1%} of {len(points)} points inked")
        check(same >= 0.97, f"at scale {scale} only {same:.1%} of the desktop away from the ink is as before the canvas opened")
        print(f"  sway {'.'.join(map(str, sway_version()))}: layers {logical[0]}x{logical[1]}@{drawn} from the first frame; "
              f"{inked:.1%} of {len(points)} points inked on grim's {width}x{height} pixels, {same:.2%} of the desktop as before", flush=True)


def described_scale(scale):
    """A scale as the canvas's log writes it (InkLayers.describe): 2, 1.5, 0.75."""
    return str(int(scale)) if scale == int(scale) else str(scale)


def test_an_output_at_scale_1_5_gets_buffers_of_its_own_pixels():
    """A 1920x1200 output at scale 1.5 (1280x800 logical) before the canvas opens: 1.5 where sway
    offers a fractional scale; sway 1.7 says scale 2 to clients."""
    check_a_scaled_sway_output((1920, 1200), 1.5, 2)


def test_an_output_at_scale_0_75_gets_buffers_of_its_own_pixels():
    """A 1280x800 output at scale 0.75 (1706x1066 logical under sway 1.7; wl_output says 1) before the canvas opens:
    where sway offers a fractional scale, the canvas waits for its preferred 0.75 although the output's
    integer scale is 1, so no frame is drawn at 1 first; sway 1.7 has none, and the canvas draws at 1."""
    check_a_scaled_sway_output((1280, 800), 0.75, 1)


def test_the_canvas_is_above_a_fullscreen_application_and_see_through():
    with Session(app=True) as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        shown = s.sway.screenshot()
        inked, visible, n = ink_and_background(shown, strokes, APP)
        check(inked >= 0.90, f"over a fullscreen application only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the fullscreen application away from the ink is visible")
        print(f"  over a fullscreen application: {inked:.1%} inked, {visible:.2%} of it visible", flush=True)


def test_an_annotation_session_over_two_terminals_shows_its_ink_and_the_terminals_through_it():
    """The README's sway picture (docs/images/canvas-sway.png with --screenshot): two foot terminals
    tiled side by side, a checklist in one and `stylusctl --help` in the other; scene.py's session
    over them, its ink where it was drawn and the terminals unchanged away from it."""
    import scene
    check(shutil.which("foot"), "foot is missing: the scene's terminals (make test-overlay installs it)")
    with Session(state=scene.empty_state(ot.ARGS.scratch)) as s:
        page = os.path.join(s.root, "checklist.txt")
        with open(page, "w") as f:
            f.write(scene.CHECKLIST)
        # Gaps show the desktop between the windows; the pointer, left where a click put it, hides.
        s.sway.msg("gaps", "outer", "all", "set", "30")
        s.sway.msg("gaps", "inner", "all", "set", "12")
        s.sway.msg("seat", "*", "hide_cursor", "200")
        ctl = f"{os.path.join(ot.ARGS.bin, 'stylusctl')} --help | head -32 | cut -c1-62"
        terminals, rects = [], {}
        try:
            # One after the other, so that sway tiles the checklist on the left.
            for app_id, command in (("checklist", "cat checklist.txt"), ("help", f"printf '$ stylusctl --help\\n'; {ctl}")):
                terminals.append(subprocess.Popen(["foot", "--app-id", app_id, "--font", "monospace:size=10", "sh", "-c",
                                                   f"{command}; exec sleep 600"], env=s.sway.env, cwd=s.root,
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                deadline = time.monotonic() + 15
                while app_id not in rects:
                    check(time.monotonic() < deadline, f"the terminal {app_id} never showed")
                    time.sleep(0.3)
                    rects = window_rects(s.sway)
            time.sleep(1.0)   # their text drawn, the pointer hidden
            rects = window_rects(s.sway)   # the first one's, now that it shares the output
            windows = [(r["x"], r["y"], r["width"], r["height"]) for r in (rects["checklist"], rects["help"])]
            s.stack.open_and_wait()
            print(scene.annotate(s.stack.request, s.sway.screenshot, s.stack.settle_screen, windows, ot.pixel, check,
                                 getattr(ot.ARGS, "screenshot", None), scene.write_png), flush=True)
        finally:
            for t in terminals:
                t.terminate()
                t.wait(5)


def window_rects(sway):
    """Each visible window's rectangle on the screen, by app id."""
    def walk(node):
        yield node
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            yield from walk(child)
    tree = json.loads(subprocess.run(["swaymsg", "-t", "get_tree"], env=sway.env, capture_output=True, text=True, timeout=10).stdout)
    return {n["app_id"]: n["rect"] for n in walk(tree) if n.get("app_id") and n.get("visible")}


def clicks_reach_the_application(overlay_args, pen_captured=False, then_minimized=False, config=None, drawn=None):
    """The presses the fullscreen application saw from a click on the open canvas
    (and, with `then_minimized`, from a second click once it is minimized);
    `drawn`, a list, gets the strokes the daemon holds after the click."""
    with Session(overlay_args, app=True, pen_captured=pen_captured, config=config) as s:
        since = time.monotonic()
        s.stack.open_and_wait()
        if "--click-through" in overlay_args or (pen_captured and config == ot.POINTER_PASS):
            s.stack.wait_overlay("click-through: empty input region", 5, since)
        s.sway.click(640, 60)
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and not s.app.presses():
            time.sleep(0.05)
        open_presses = s.app.presses()
        if drawn is not None:
            drawn.extend(s.stack.request("strokes")["strokes"])
        if not then_minimized:
            return open_presses, []
        s.stack.minimize_and_wait()
        s.sway.click(640, 60)
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len(s.app.presses()) == len(open_presses):
            time.sleep(0.05)
        return open_presses, s.app.presses()[len(open_presses):]


def test_with_click_through_a_click_on_the_open_canvas_reaches_the_application():
    presses, _ = clicks_reach_the_application(["--click-through"])
    check(presses, "the click did not reach the application under a --click-through canvas")
    print(f"  the application saw: {presses}", flush=True)


def test_with_the_pen_captured_and_pointer_pass_a_click_on_the_open_canvas_reaches_the_application():
    """Filter mode with `[canvas] pointer = "pass"`: the daemon holds the pen, so the canvas needs no
    pointer input and a mouse keeps working under it, drawing nothing."""
    drawn = []
    presses, _ = clicks_reach_the_application([], pen_captured=True, config=ot.POINTER_PASS, drawn=drawn)
    check(presses, "the click did not reach the application under the canvas while the daemon captures the pen and pointer = pass")
    check(not [t for t in drawn if t.get("source") == "pointer"], "with pointer = pass the click drew a stroke")


def test_with_the_pen_captured_a_click_on_the_open_canvas_draws_rather_than_passing():
    """Filter mode with the default `[canvas] pointer = "draw"`: the open layer surface takes the
    mouse over its whole area, so the click is a dot of the canvas's where it clicked."""
    drawn = []
    presses, _ = clicks_reach_the_application([], pen_captured=True, drawn=drawn)
    check(not presses, f"with pointer = draw the application under the canvas saw {presses}")
    pointer = [t for t in drawn if t.get("source") == "pointer"]
    check(len(pointer) == 1, f"the click drew {len(pointer)} pointer strokes: {[(t.get('source'), len(t['points'])) for t in drawn[-3:]]}")
    x, y = ot.screen_points(pointer, WIDTH, HEIGHT)[0]
    check(abs(x - 640) <= 2 and abs(y - 60) <= 2, f"the click's dot is at {(x, y)}, not at (640, 60)")


def test_in_observe_mode_the_open_canvas_takes_the_click_and_minimized_gives_it_back():
    presses, after = clicks_reach_the_application([], then_minimized=True)
    check(not presses, f"the application under the canvas saw {presses}: drawing would click it")
    check(after, "the minimized canvas still takes the click")


def bare_of_ink(image, points, reach=2):
    """The points near which some pixel is not the desktop's green: ink left there."""
    w, h, _ = image
    return [(x, y) for x, y in points
            if any(sum(abs(a - b) for a, b in zip(ot.pixel(image, xx, yy), DESKTOP)) > 60
                   for yy in range(max(0, y - reach), min(h, y + reach + 1)) for xx in range(max(0, x - reach), min(w, x + reach + 1)))]


def test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens():
    """[canvas] pointer = "draw" (the default): a virtual pointer's drag on the open layer surface
    leaves ink of the current colour where it went; the daemon records it with "source":"pointer"
    where dragged; it stays through a minimize and an opening; `stylusctl undo` takes it off the
    screen and out of `strokes`. The canvas took sway's tablet seat (the pen is not a pointer to it)."""
    drag = [(200 + 40 * i, 500 - 15 * i) for i in range(16)]
    with Session(empty=True) as s:
        st = s.stack
        st.request("tool", color="#3465a4")
        since = time.monotonic()
        st.open_and_wait()
        st.wait_overlay("tablet seat bound", 5, since)
        n = len(st.watcher.canvas)
        since = time.monotonic()
        s.sway.drag(drag)
        e = ot.pointer_stroke(st, n)
        st.wait_overlay("strokes: 1", 5, since)
        st.settle_screen()
        ot.check_drag_inked(s.sway.screenshot(), drag, ot.BLUE, "after the drag")
        strokes = st.request("strokes")["strokes"]
        check(len(strokes) == 1 and strokes[0]["source"] == "pointer" and strokes[0]["color"] == "#3465a4" and e["index"] == 0,
              f"the daemon's strokes: {[(t.get('source'), t['color'], len(t['points'])) for t in strokes]}")
        pts = ot.screen_points(strokes, WIDTH, HEIGHT)
        check(abs(pts[0][0] - drag[0][0]) + abs(pts[0][1] - drag[0][1]) <= 3
              and abs(pts[-1][0] - drag[-1][0]) + abs(pts[-1][1] - drag[-1][1]) <= 3,
              f"the recorded stroke runs {pts[0]} to {pts[-1]}, the drag {drag[0]} to {drag[-1]}")
        check(all(min(abs(x - dx) + abs(y - dy) for dx, dy in drag) <= 3 for x, y in pts), "a recorded point lies off the drag")
        st.minimize_and_wait()
        left = bare_of_ink(s.sway.screenshot(), drag)
        check(not left, f"minimized, ink remains at {left[:3]}")
        st.open_and_wait()
        ot.check_drag_inked(s.sway.screenshot(), drag, ot.BLUE, "opened again")
        since = time.monotonic()
        undo = subprocess.run([os.path.join(ot.ARGS.bin, "stylusctl"), "--socket", st.socket, "undo"], capture_output=True, text=True)
        check(undo.returncode == 0, f"stylusctl undo: {undo.returncode} {undo.stdout} {undo.stderr}")
        st.wait_overlay("(undo, 0 strokes)", 5, since)
        st.settle_screen()
        left = bare_of_ink(s.sway.screenshot(), drag)
        check(not left, f"after stylusctl undo, ink remains at {left[:3]}")
        check(st.request("strokes")["strokes"] == [], "undo left the stroke in strokes")
        print(f"  a {len(drag)}-point drag: {len(pts)} points recorded as the pointer's, blue on screen through a "
              "minimize and an opening; undone off the screen", flush=True)


def test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing():
    """[canvas] show_palette = "always": a click of the virtual pointer on the blue swatch selects
    blue (a tool event) and draws nothing; a drag elsewhere then draws blue."""
    blue = ot.palette_swatches(WIDTH, HEIGHT)[4]
    drag = [(500 + 30 * i, 300 + 10 * i) for i in range(11)]
    with Session(empty=True, config='[canvas]\nshow_palette = "always"\n') as s:
        st = s.stack
        tools = ot.Client(st.socket)
        tools.request("subscribe", topics=["tool"])
        since = time.monotonic()
        st.open_and_wait()
        st.wait_overlay(ot.PALETTE_REGIONS_REPORTED, 5, since)
        s.sway.click(*blue)
        s.sway.park()
        tools.sock.settimeout(5)
        e = tools.next_event()
        check(e["event"] == "tool" and e["color"] == "#3465a4", f"the click's event: {e}")
        time.sleep(0.3)
        check(st.request("strokes")["strokes"] == [], "the click on the palette drew a stroke")
        st.settle_screen()
        got = ot.pixel(s.sway.screenshot(), *blue)
        check(all(abs(a - b) <= 2 for a, b in zip(got, ot.BLUE)), f"the clicked swatch shows {got}: ink was drawn on it")
        n = len(st.watcher.canvas)
        s.sway.drag(drag)
        ot.pointer_stroke(st, n)
        strokes = st.request("strokes")["strokes"]
        check(len(strokes) == 1 and strokes[0]["color"] == "#3465a4", f"after the click: {[(t['color'], len(t['points'])) for t in strokes]}")
        st.settle_screen()
        ot.check_drag_inked(s.sway.screenshot(), drag, ot.BLUE, "the drag after the click")
        tools.close()
        print("  the click picked #3465a4 and drew nothing; the drag after it is blue", flush=True)


def test_escape_minimizes_the_canvas():
    with Session() as s:
        s.stack.open_and_wait()
        n = len(s.stack.watcher.canvas)
        # wtype's keyboard is new to the seat: a pause before the key lets the canvas bind it.
        result = subprocess.run(["wtype", "-s", "400", "-k", "Escape"], env=s.sway.env, capture_output=True, text=True, timeout=10)
        check(result.returncode == 0, f"wtype failed: {result.stderr.strip()}")
        s.stack.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in s.stack.watcher.canvas[n:],
                             5, "minimized after Escape")
        s.stack.wait_overlay("Escape: asking stylusd to minimize", 1)


def wtype_key(env, name):
    """A key as canvas-spec.json names it (`ctrl+shift+z`, `delete`) typed by wtype: the modifiers held around the key."""
    *modifiers, key = name.split("+")
    key = {"delete": "Delete", "escape": "Escape"}.get(key, key)
    argv = ["wtype", "-s", "300"]
    for m in modifiers:
        argv += ["-M", m]
    argv += ["-k", key]
    for m in reversed(modifiers):
        argv += ["-m", m]
    # wtype's keyboard is new to the seat each time: its pause before the key lets the canvas bind it.
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=10)
    check(result.returncode == 0, f"wtype {name} failed: {result.stderr.strip()}")


def test_every_default_key_does_its_action_on_the_open_canvas():
    """The default keys (canvas-spec.json's table) typed with wtype on the open layer surface:
    the style, the board or the drawing changes after each as the key's action says."""
    with Session() as s:
        s.stack.open_and_wait()
        ot.check_the_default_keys(lambda name: wtype_key(s.sway.env, name), s.stack.request, "sway")


def wtype(env, *argv):
    """wtype with its arguments in order (text, `-k` keys, `-s` pauses); its keyboard is new to the
    seat each time: the pause before the first key lets the canvas bind it."""
    result = subprocess.run(["wtype", "-s", "400", *argv], env=env, capture_output=True, text=True, timeout=15)
    check(result.returncode == 0, f"wtype {argv} failed: {result.stderr.strip()}")


def export_agreement(shot, png):
    """overlay_test's agreement of the screen and an export (flattened over the desktop), with sway's desktop colour for X11's."""
    saved = ot.DESKTOP, ot.DESKTOP_HEX
    ot.DESKTOP, ot.DESKTOP_HEX = DESKTOP, "#%02x%02x%02x" % DESKTOP
    try:
        return ot.ink_agreement(shot, ot.flattened(["cat", png]))
    finally:
        ot.DESKTOP, ot.DESKTOP_HEX = saved


def test_a_text_typed_on_the_layer_surface_shows_at_once_is_kept_exported_alike_and_undone():
    """The text tool (issue 37) on the layer surface: a click of the virtual pointer places the caret;
    "Hi 42", Enter and "ok" typed with wtype show at once in the current colour below the click;
    Escape ends the text (the canvas stays open) and sends it: `strokes` lists "Hi 42\nok" where
    clicked, it stays on the screen in its box, a PNG export agrees with the screen on at least 98 %
    of its ink pixels, undo takes it off the screen, and the next Escape minimizes."""
    at = (300, 300)
    # Width 8: size 24 of a drawing 1600 wide, on this 1280-wide screen 19.2 px; "Hi 42" is about
    # 5 × 0.6 em wide, and two lines of 1.25 em each are below the click.
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(6 * size) + 4, at[1] + int(2 * 1.25 * size) + 4)
    os.environ["STYLUSD_RENDERER"] = ot.ARGS.canvas   # the daemon's PNG export draws with this canvas
    try:
        with Session(empty=True) as s:
            st = s.stack
            st.request("tool", tool="text", color="#d61a1c", width=8)
            st.open_and_wait()
            s.sway.click(*at)
            s.sway.park()
            time.sleep(0.3)
            wtype(s.sway.env, "-d", "40", "Hi 42", "-k", "Return", "ok")
            st.settle_screen()
            typing, stray = ot.text_ink(s.sway.screenshot(), box, ot.TEXT_RED)
            check(typing > 40 and stray == 0, f"while typing: {typing} red pixels in the text's box, {stray} outside it")
            check(st.request("strokes")["strokes"] == [], "a text was recorded before it ended")
            n, since = len(st.watcher.canvas), time.monotonic()
            wtype(s.sway.env, "-k", "Escape")
            e = st.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in st.watcher.canvas[n:],
                                5, "the text's stroke event")
            st.wait_overlay("strokes: 1", 5, since)
            st.settle_screen()
            strokes = ot.check_kept_text(st.request, e, "Hi 42\nok", at, WIDTH, HEIGHT)
            shot = s.sway.screenshot()
            kept, stray = ot.text_ink(shot, box, ot.TEXT_RED)
            check(kept > 40 and stray == 0, f"once kept: {kept} red pixels in the text's box, {stray} outside it")
            lower = ot.text_ink(shot, (box[0], at[1] + int(1.25 * size), box[2], box[3]), ot.TEXT_RED)[0]
            check(lower > 10, f"the second line shows {lower} red pixels below the first")
            png = os.path.join(s.root, "text-export.png")
            r = st.request("export", path=png, width=WIDTH, height=HEIGHT)
            check((r["width"], r["height"]) == (WIDTH, HEIGHT), f"{r}")
            agree, inked_count = export_agreement(shot, png)
            check(inked_count > 40 and agree / inked_count >= 0.98,
                  f"the exported text differs from the screen: {agree} of {inked_count} ink pixels agree")
            since = time.monotonic()
            st.request("undo")
            st.wait_overlay("(undo, 0 strokes)", 5, since)
            st.settle_screen()
            gone, _ = ot.text_ink(s.sway.screenshot(), box, ot.TEXT_RED)
            check(gone == 0, f"after undo: {gone} red pixels remain in the text's box")
            n = len(st.watcher.canvas)
            wtype(s.sway.env, "-k", "Escape")
            st.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "minimized" and e in st.watcher.canvas[n:],
                            5, "minimized by the Escape after the text")
            print(f"  typed 'Hi 42', Enter, 'ok': {typing} red pixels while typing, {kept} kept; export agrees on "
                  f"{agree} of {inked_count} ink pixels; undone off the screen; the next Escape minimized", flush=True)
    finally:
        os.environ.pop("STYLUSD_RENDERER", None)


class InputMethod:
    """Tests/overlay/wayland/input_method.c: the seat's input method (zwp_input_method_v2), driven line by line."""

    def __init__(self, sway):
        self.proc = subprocess.Popen([os.path.join(ot.ARGS.scratch, "input_method")], env=sway.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        check(self.read(5) == "ready", "the input method did not start")

    def read(self, timeout):
        lines = []
        reader = threading.Thread(target=lambda: lines.append(self.proc.stdout.readline().strip()), daemon=True)
        reader.start()
        reader.join(timeout)
        return lines[0] if lines else None

    def says(self, line, answer="ok", timeout=5):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        got = self.read(timeout)
        check(got is not None and got.startswith(answer), f"the input method answered {got!r} to {line!r}")
        return got

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(5)


def test_an_input_method_types_the_text_through_text_input_v3_and_its_preedit_is_never_sent():
    """The text tool's input method (issue 37 item 4) under sway, which offers text-input-v3 and
    input-method-v2: with the suite's IM running, a click with the text tool enables the canvas's text
    input (the IM is activated); the IM's preedit shows at the caret, underlined (a row of the text's
    colour one device pixel high under its glyphs, as on X11), and is not sent; its commit of
    "日本語 é" shows there instead, not underlined; keys typed while the IM is active and does not grab them type once
    (" ok"); once the IM quits, the text input is disabled and plain keys type again ("!"), and Escape
    sends exactly "日本語 é ok!"."""
    at = (300, 300)
    size = 24 * WIDTH / 1600
    box = (at[0] - 2, at[1] - 2, at[0] + int(10 * size) + 4, at[1] + int(1.25 * size) + 4)
    # InkLayers+Text.swift's underline: 0.15 em below the first baseline (0.8 em under the click).
    underline = round(at[1] + (0.8 + 0.15) * size)
    rows = range(underline - 2, underline + 3)

    def underlined(shot):
        """The rows near the underline's where a red run reaches 1.5 em (the preedit's three glyphs are wider), and the longest run."""
        runs = [ot.longest_run(shot, y, ot.TEXT_RED) for y in rows]
        return [y for y, run in zip(rows, runs) if run >= 1.5 * size], max(runs)

    with Session(empty=True) as s:
        st = s.stack
        im = InputMethod(s.sway)
        try:
            st.request("tool", tool="text", color="#d61a1c", width=8)
            st.open_and_wait()
            s.sway.click(*at)
            s.sway.park()
            im.says("wait-active", "active")
            st.wait_overlay("text-input: enabled", 5)
            im.says("preedit にほん")
            st.settle_screen()
            shot = s.sway.screenshot()
            preedit, stray = ot.text_ink(shot, box, ot.TEXT_RED)
            check(preedit > 40 and stray == 0, f"the preedit: {preedit} red pixels in the text's box, {stray} outside it")
            # Red only inside the box, so a long run on these rows is under the preedit's glyphs.
            lined_rows, lined = underlined(shot)
            check(len(lined_rows) == 1, f"the preedit's underline: rows {lined_rows} near row {underline} have a red run of "
                                        f"{1.5 * size:.0f} px or more (the longest {lined} px), one expected")
            check(st.request("strokes")["strokes"] == [], "a text was recorded while the IM composed")
            im.says("commit 日本語 é")
            st.wait_overlay("text-input: committed 5 characters", 5)
            st.settle_screen()
            shot = s.sway.screenshot()
            committed, stray = ot.text_ink(shot, box, ot.TEXT_RED)
            check(committed > 40 and stray == 0, f"the committed text: {committed} red pixels in the text's box, {stray} outside it")
            unlined_rows, unlined = underlined(shot)
            check(not unlined_rows, f"the committed text is still underlined: a red run of {unlined} px near row {underline}")
            check(st.request("strokes")["strokes"] == [], "a text was recorded before it ended")
            # Keys the IM does not grab come to the canvas once: sway routes each key to the IM's grab
            # or to the focused client, never both. (A grab is not tried: sway 1.7 crashes when an IM
            # grabs the keyboard of a virtual keyboard that has gone, as wtype's does.)
            time.sleep(0.3)
            wtype(s.sway.env, "-d", "40", " ok")
            st.settle_screen()
            check(st.request("strokes")["strokes"] == [], "a text was recorded before it ended")
            im.close()
            st.wait_overlay("text-input: left", 5)
            time.sleep(0.3)
            wtype(s.sway.env, "!")
            n = len(st.watcher.canvas)
            wtype(s.sway.env, "-k", "Escape")
            e = st.watcher.wait(lambda e: e["event"] == "stroke" and e.get("source") == "keyboard" and e in st.watcher.canvas[n:],
                                5, "the text's stroke event")
            ot.check_kept_text(st.request, e, "日本語 é ok!", at, WIDTH, HEIGHT)
            st.settle_screen()
            kept, stray = ot.text_ink(s.sway.screenshot(), box, ot.TEXT_RED)
            check(kept > committed and stray == 0, f"once kept: {kept} red pixels in the text's box ({committed} before ' ok!'), {stray} outside it")
            print(f"  preedit shown ({preedit} red pixels), underlined on row {lined_rows[0]} ({lined} px), and not sent; "
                  f"'日本語 é' committed ({committed}, longest red run there {unlined} px); ' ok' typed once "
                  f"beside the IM, '!' after it quit; kept exactly ({kept})", flush=True)
        finally:
            im.close()


def test_f1_shows_the_help_where_the_spec_puts_it_and_a_key_hides_it():
    """The help overlay on the layer surface: F1 from the suite's keyboard shows the panel where the
    spec's `help` vector for the output puts it; the next key (e) hides it, the screen is as before,
    and that key did nothing else."""
    layout = ot.canvas_spec.help_layout(WIDTH, HEIGHT, ot.canvas_spec.help_default_lines())
    with Session(empty=True) as s:
        st = s.stack
        st.open_and_wait()
        before = s.sway.screenshot()
        since = time.monotonic()
        wtype_key(s.sway.env, "F1")
        st.wait_overlay("help shown", 5, since)
        st.settle_screen()
        matching, looked, inked = ot.help_panel_pixels(s.sway.screenshot(), layout, DESKTOP)
        check(matching == looked, f"F1: only {matching} of {looked} pixels of the panel's strip are its colour")
        check(inked > 50, f"F1: the title is not drawn ({inked} pixels)")
        since = time.monotonic()
        wtype_key(s.sway.env, "e")
        st.wait_overlay("help hidden", 5, since)
        st.settle_screen()
        left = ot.unchanged_in(layout["panel"], before, s.sway.screenshot())
        check(not left, f"after a key the help stays at {len(left)} pixels, e.g. {left[:5]}")
        check(st.request("status")["tool"]["tool"] == "pen", "the key that hid the help did its action too")
        print(f"  F1: {matching} of {looked} panel pixels where the spec puts it; e hid it and did nothing else", flush=True)


def test_two_outputs_of_different_sizes_get_a_surface_each_and_share_the_drawing():
    """Without a pen display the tablet maps to the whole desktop (1280x800 and
    800x600 side by side: 2080x800): each output shows its own part of it."""
    with Session(second_output=(800, 600)) as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        s.stack.wait_overlay("covering all 2 monitors, 2080x800", 1)
        s.stack.wait_overlay("layer surface on HEADLESS-2", 1)
        shot = s.sway.screenshot()
        check(shot[:2] == (2080, 800), f"grim's screenshot is {shot[:2]}, not both outputs side by side")
        points = ot.screen_points([t for t in strokes if t.get("tool") != "eraser"], 2080, 800)
        first = [p for p in points if p[0] < WIDTH]
        second = [p for p in points if p[0] >= WIDTH and p[1] < 600]
        check(first and second, f"the recording's points do not reach both outputs: {len(first)}, {len(second)}")
        for name, pts in (("HEADLESS-1", first), ("HEADLESS-2", second)):
            inked = [p for p in pts if ot.red_ink_near(shot, *p)]
            check(len(inked) >= len(pts) * 0.90, f"{name}: only {len(inked)} of {len(pts)} points inked")
        print(f"  {len(first)} points inked on HEADLESS-1, {len(second)} on HEADLESS-2", flush=True)


def test_monitor_option_puts_the_canvas_on_that_output_only():
    with Session(["--monitor", "HEADLESS-2"], second_output=(800, 600)) as s:
        strokes = s.stack.request("strokes")["strokes"]
        before = s.sway.screenshot()   # with sway's cursor where it is
        s.stack.open_and_wait()
        shot = s.sway.screenshot()
        inked, visible, n = ink_and_background(shot, strokes, DESKTOP, 800, 600, origin=(WIDTH, 0))
        check(inked >= 0.90, f"HEADLESS-2: only {inked:.1%} of {n} points inked")
        stray = [(x, y) for y in range(0, HEIGHT, 2) for x in range(0, WIDTH, 2) if ot.pixel(shot, x, y) != ot.pixel(before, x, y)]
        check(not stray, f"{len(stray)} pixels changed on HEADLESS-1, which the canvas must not cover, e.g. {stray[:3]}")


def test_a_compositor_that_goes_away_ends_the_canvas_with_a_clear_line():
    with Session() as s:
        s.stack.open_and_wait()
        s.sway.close()
        deadline = time.monotonic() + 5
        while s.stack.overlay.poll() is None:
            check(time.monotonic() < deadline, "stylus-canvas still runs 5 s after the compositor went away")
            time.sleep(0.05)
        code = s.stack.overlay.returncode
        time.sleep(0.1)
        lines = [l for _, l in s.stack.overlay_log]
        check(code == 69 and any("the Wayland compositor closed the connection" in l for l in lines),
              f"exit status {code}, last lines {lines[-3:]}")
        status = s.stack.request("status")
        check(status["canvas"]["stroke_count"] > 0, f"the daemon lost its strokes: {status['canvas']}")


class ScaleCompositor:
    """Tests/overlay/wayland/scale_compositor.c: a compositor that offers wp_fractional_scale_v1
    (no compositor on Debian 12 does), keeps the canvas's last buffer and writes it as a PPM."""

    def __init__(self, runtime, scale120, output_scale=1, late=False):
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY="wayland-scale")
        self.env.pop("DISPLAY", None)
        self.commits = []
        self.answers = []
        self.proc = subprocess.Popen([os.path.join(ot.ARGS.scratch, "scale_compositor"), "wayland-scale", str(WIDTH), str(HEIGHT),
                                      str(scale120), str(output_scale)] + (["late"] if late else []), env=self.env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        check(self.proc.stdout.readline().strip() == "ready", "the scale compositor did not start")
        threading.Thread(target=self._read, daemon=True).start()
        self.path = os.path.join(runtime, "frame.ppm")

    def _read(self):
        for line in self.proc.stdout:
            (self.commits if line.startswith("commit") else self.answers).append(line.strip())

    def command(self, line):
        n = len(self.answers)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + 5
        while len(self.answers) == n:
            check(time.monotonic() < deadline, f"the scale compositor did not answer {line!r}")
            time.sleep(0.02)
        return self.answers[n]

    def screenshot(self):
        check(self.command(f"dump {self.path}").startswith("dumped"), "the canvas committed no frame")
        with open(self.path, "rb") as f:
            return ot.parse_ppm(f.read())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(5)


class ScaledSession:
    """The scale compositor, stylusd with the recording's strokes, stylus-canvas."""

    def __init__(self, scale120, output_scale=1, late=False):
        self.runtime = tempfile.mkdtemp(prefix="stylus-layer-")
        os.chmod(self.runtime, 0o700)
        self.compositor = ScaleCompositor(self.runtime, scale120, output_scale, late)
        desktop = ot.Desktop.__new__(ot.Desktop)
        desktop.env = dict(self.compositor.env, GDK_BACKEND="wayland")
        desktop.screenshot = self.compositor.screenshot
        self.root = tempfile.mkdtemp(prefix="stylus-canvas-test-")
        os.chmod(self.root, 0o700)
        self.stack = ot.Stack(ot.ARGS, desktop, self.root, (), replay=False, state=ot.drawn_state())

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stack.close()
        self.compositor.close()
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.runtime, ignore_errors=True)


def test_a_fractionally_scaled_output_gets_buffers_of_its_own_pixels():
    """A compositor that prefers scale 1.5 (wp_fractional_scale_v1) for a 1280x800 output: the
    canvas draws 1920x1200 buffers at buffer scale 1 and shows them through a viewport at
    1280x800, the ink where the recorded points fall on those pixels; when the preferred
    scale changes to 1.25 while open, buffers of 1600x1000 follow."""
    with ScaledSession(180) as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        check_drawn_only_at(s.stack, 1.5)
        check(s.compositor.commits[0] == "commit 1920x1200 scale 1 dest 1280x800",
              f"the canvas's first commit at scale 1.5: {s.compositor.commits[:3]}")
        check(s.compositor.commits and s.compositor.commits[-1] == "commit 1920x1200 scale 1 dest 1280x800",
              f"the canvas's last commits at scale 1.5: {s.compositor.commits[-3:]}")
        shot = s.compositor.screenshot()
        inked, visible, n = ink_and_background(shot, strokes, DESKTOP, 1920, 1200)
        check(inked >= 0.90, f"at scale 1.5 only {inked:.1%} of {n} points inked")
        check(visible >= 0.97, f"at scale 1.5 only {visible:.1%} of the desktop away from the ink is clear")
        since = time.monotonic()
        check(s.compositor.command("scale 150") == "scaled", "the scale compositor did not rescale")
        s.stack.wait_overlay("layers 1280x800@1.25", 5, since)
        deadline = time.monotonic() + 5
        while s.compositor.commits[-1] != "commit 1600x1000 scale 1 dest 1280x800":
            check(time.monotonic() < deadline, f"no 1600x1000 frame at scale 1.25: {s.compositor.commits[-3:]}")
            time.sleep(0.05)
        inked, _, n = ink_and_background(s.compositor.screenshot(), strokes, DESKTOP, 1600, 1000)
        check(inked >= 0.90, f"at scale 1.25 only {inked:.1%} of {n} points inked")
        print(f"  {n} points: 1920x1200 buffers at 1.5, 1600x1000 at 1.25, through a 1280x800 viewport", flush=True)


def test_an_output_scaled_below_1_gets_buffers_at_its_preferred_scale_from_the_first_frame():
    """An output at scale 0.75 (960x600 pixels, 1280x800 logical; wl_output says 1) of a compositor
    that tells a surface its preferred scale only once it is mapped, as sway 1.8+ does: the canvas
    waits for it behind a 1x1 placeholder, so every frame, the first one too, is 960x600 through
    the 1280x800 viewport, none at 1, the ink on those pixels."""
    with ScaledSession(90, late=True) as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        s.stack.wait_overlay("buffer 960x600@0.75", 5)
        check_drawn_only_at(s.stack, 0.75)
        framed = [c for c in s.compositor.commits if c != "commit 1x1 scale 1 dest 1280x800"]
        check(framed and set(framed) == {"commit 960x600 scale 1 dest 1280x800"}, f"the canvas's frames at scale 0.75: {framed[:3]}")
        inked, _, n = ink_and_background(s.compositor.screenshot(), strokes, DESKTOP, 960, 600)
        check(inked >= 0.90, f"at scale 0.75 only {inked:.1%} of {n} points inked")
        print(f"  {n} points: 960x600 buffers at 0.75 from the first frame (after a 1x1 placeholder), none at 1", flush=True)


def test_without_fractional_scale_the_output_scale_sets_the_buffers():
    """The same compositor without wp_fractional_scale_v1 and an output at integer scale 2:
    2560x1600 buffers at buffer scale 2, no viewport, the ink on those pixels."""
    with ScaledSession(0, output_scale=2) as s:
        strokes = s.stack.request("strokes")["strokes"]
        s.stack.open_and_wait()
        check_drawn_only_at(s.stack, 2)
        check(set(s.compositor.commits) == {"commit 2560x1600 scale 2 dest 0x0"}, f"commits at scale 2: {s.compositor.commits[:3]}")
        check(s.compositor.commits and s.compositor.commits[-1] == "commit 2560x1600 scale 2 dest 0x0",
              f"the canvas's last commits at scale 2: {s.compositor.commits[-3:]}")
        inked, _, n = ink_and_background(s.compositor.screenshot(), strokes, DESKTOP, 2560, 1600)
        check(inked >= 0.90, f"at scale 2 only {inked:.1%} of {n} points inked")


def prebuilt(scratch, name):
    """`name` copied from the --tools folder into `scratch`; False without --tools."""
    tools = getattr(ot.ARGS, "tools", None)
    if not tools:
        return False
    shutil.copy2(os.path.join(tools, name), os.path.join(scratch, name))
    return True


def build_scale_compositor(scratch):
    if prebuilt(scratch, "scale_compositor"):
        return
    wlr = sorted(glob.glob(os.path.join(WLR_PROTOCOLS, "wlr-layer-shell-unstable-v1.xml")))
    check(wlr, "the wlr-layer-shell XML is missing: install librust-wayland-protocols-dev")
    shared = "/usr/share/wayland-protocols"
    sources = []
    for xml in (wlr[-1], f"{shared}/unstable/xdg-output/xdg-output-unstable-v1.xml", f"{shared}/stable/viewporter/viewporter.xml",
                f"{shared}/staging/fractional-scale/fractional-scale-v1.xml", f"{shared}/stable/xdg-shell/xdg-shell.xml"):
        name = os.path.basename(xml)[:-4]
        subprocess.run(["wayland-scanner", "server-header", xml, os.path.join(scratch, f"{name}-server-protocol.h")], check=True)
        sources.append(os.path.join(scratch, f"{name}-server-protocol.c"))
        subprocess.run(["wayland-scanner", "private-code", xml, sources[-1]], check=True)
    subprocess.run(["cc", "-O1", "-o", os.path.join(scratch, "scale_compositor"), "-I", scratch,
                    os.path.join(HERE, "wayland", "scale_compositor.c"), *sources, "-lwayland-server"], check=True)


def build_pointer(scratch):
    if prebuilt(scratch, "pointer"):
        return
    xml = sorted(glob.glob(os.path.join(WLR_PROTOCOLS, "wlr-virtual-pointer-unstable-v1.xml")))
    check(xml, "the wlr-virtual-pointer XML is missing: install librust-wayland-protocols-dev")
    header = os.path.join(scratch, "wlr-virtual-pointer-unstable-v1-client-protocol.h")
    code = os.path.join(scratch, "wlr-virtual-pointer-unstable-v1-protocol.c")
    subprocess.run(["wayland-scanner", "client-header", xml[-1], header], check=True)
    subprocess.run(["wayland-scanner", "private-code", xml[-1], code], check=True)
    subprocess.run(["cc", "-O1", "-o", os.path.join(scratch, "pointer"), "-I", scratch, os.path.join(HERE, "wayland", "pointer.c"), code,
                    "-lwayland-client"], check=True)


def build_input_method(scratch):
    if prebuilt(scratch, "input_method"):
        return
    xml = sorted(glob.glob("/usr/share/cargo/registry/wayland-protocols-*/misc/input-method-unstable-v2.xml"))
    check(xml, "the input-method-v2 XML is missing: install librust-wayland-protocols-dev")
    header = os.path.join(scratch, "input-method-unstable-v2-client-protocol.h")
    code = os.path.join(scratch, "input-method-unstable-v2-protocol.c")
    subprocess.run(["wayland-scanner", "client-header", xml[-1], header], check=True)
    subprocess.run(["wayland-scanner", "private-code", xml[-1], code], check=True)
    subprocess.run(["cc", "-O1", "-o", os.path.join(scratch, "input_method"), "-I", scratch,
                    os.path.join(HERE, "wayland", "input_method.c"), code, "-lwayland-client"], check=True)


def as_unprivileged(args, script=os.path.join("Tests", "overlay", "layer_shell_test.py"), extra=(), copy_extension=None):
    """Root: the same `script` (this suite, or the layer-shell benchmark) as `nobody`, from a copy it can read."""
    # Not under /tmp: the run gets a /tmp of its own (below).
    scratch = tempfile.mkdtemp(prefix="stylus-layer-shell-", dir="/var/tmp")
    tree = os.path.join(scratch, "tree")
    for part in ("Tests/overlay", "Tests/support", "Tests/Fixtures/recordings", os.path.dirname(script)):
        if os.path.exists(os.path.join(tree, part)):
            continue
        shutil.copytree(os.path.join(ot.ROOT, part), os.path.join(tree, part),
                        ignore=shutil.ignore_patterns("__pycache__"))
    # Tests/support/canvas_spec.py reads the palette from the source tree.
    spec = os.path.join("Sources", "CanvasModel", "canvas-spec.json")
    os.makedirs(os.path.join(tree, os.path.dirname(spec)), exist_ok=True)
    shutil.copy2(os.path.join(ot.ROOT, spec), os.path.join(tree, spec))
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir)
    for name in ("stylusd", "stylusctl"):
        shutil.copy2(os.path.join(args.bin, name), bin_dir)
    shutil.copy2(args.canvas, os.path.join(scratch, "stylus-canvas"))
    if getattr(args, "tools", None):
        shutil.copytree(args.tools, os.path.join(scratch, "tools"))
        extra = (*extra, "--tools", os.path.join(scratch, "tools"))
    if copy_extension:   # (the GNOME extensions' build folder, the path of the one to test in it)
        root, relative = copy_extension
        shutil.copytree(root, os.path.join(scratch, "extension"))
        extra = (*extra, "--extension", os.path.join(scratch, "extension", relative))
    for path, dirs, files in os.walk(scratch):
        for name in dirs + files + [""]:
            os.chown(os.path.join(path, name), UNPRIVILEGED, UNPRIVILEGED)
    env = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "OVERLAY_LOG")}
    # Root's own PATH may lead through folders nobody can enter (a pyenv under /root): the system's.
    env.update(TMPDIR=scratch, PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
    argv = ["setpriv", f"--reuid={UNPRIVILEGED}", f"--regid={UNPRIVILEGED}", "--clear-groups", "env", "-i",
            *[f"{k}={v}" for k, v in env.items()],
            "/usr/bin/python3", os.path.join(tree, script),
            "--bin", bin_dir, "--canvas", os.path.join(scratch, "stylus-canvas"), *extra]
    if getattr(args, "only", ""):
        argv += ["--only", args.only]
    shot = os.path.join(scratch, "screenshot.png")
    if getattr(args, "screenshot", None):
        argv += ["--screenshot", shot]
    # wtype writes its keymap under a fixed /tmp, which is not writable for every user on
    # every machine (a contract test used to set it 0755 here): a private, writable /tmp in
    # a mount namespace of the run's own.
    private_tmp = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                                  "mount -t tmpfs -o mode=1777 tmpfs /tmp"], capture_output=True).returncode == 0
    if private_tmp:
        argv = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                'mount -t tmpfs -o mode=1777 tmpfs /tmp && exec "$@"', "sh", *argv]
    elif not os.access("/tmp", os.W_OK) or (os.stat("/tmp").st_mode & 0o1777) != 0o1777:
        print("layer-shell: /tmp is not writable for every user and no mount namespace is possible: wtype (Escape) will fail", flush=True)
    try:
        status = subprocess.run(argv).returncode
        if getattr(args, "screenshot", None) and os.path.exists(shot):
            shutil.copyfile(shot, args.screenshot)
        return status
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def tools_arguments(parser):
    """--tools and --build-tools: the suite's small Wayland clients built on one machine, run on another."""
    parser.add_argument("--tools", default=None,
                        help="a folder with pointer, scale_compositor and input_method built already (--build-tools), for a system without a compiler")
    parser.add_argument("--build-tools", default=None, metavar="FOLDER", help="build pointer, scale_compositor and input_method into FOLDER and exit")


def build_tools(folder):
    os.makedirs(folder, exist_ok=True)
    build_pointer(folder)
    build_scale_compositor(folder)
    build_input_method(folder)
    return 0


def main():
    parser = ot.canvas_arguments()
    parser.add_argument("--screenshot", default=None, help="save the annotation scene (scene.py) over two terminals here (PNG)")
    tools_arguments(parser)
    args = parser.parse_args()
    if args.build_tools:
        return build_tools(args.build_tools)
    missing = [tool for tool in ("sway", "grim", "swaymsg", "wtype", *(() if args.tools else ("wayland-scanner", "cc")))
               if not shutil.which(tool)]
    check(not missing, f"missing {missing}: make test-overlay installs them")
    if os.getuid() == 0:
        return as_unprivileged(args)
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    try:
        build_pointer(args.scratch)
        build_scale_compositor(args.scratch)
        build_input_method(args.scratch)
        return run_tests("overlay-layer-shell", [
            test_the_canvas_shows_its_ink_over_the_desktop_and_minimizes_back_to_it,
            test_a_replayed_double_press_opens_the_canvas_and_its_ink_follows_the_pen,
            test_a_killed_daemon_takes_the_canvas_off_the_screen_within_3_s,
            test_the_laser_draws_live_and_its_ink_leaves_by_itself,
            test_an_output_plugged_in_while_open_gets_its_surface_and_its_part_of_the_drawing,
            test_the_eraser_clears_the_ink_under_it_and_undo_brings_it_back,
            test_tools_and_colours_draw_as_their_style_says,
            test_the_white_black_and_grid_boards_cover_the_screen_under_the_ink,
            test_the_palette_shows_its_swatches_and_a_pen_tap_picks_the_colour_without_drawing,
            test_an_output_scaled_to_2_while_open_gets_buffers_at_its_scale,
            test_a_fractionally_scaled_output_gets_buffers_of_its_own_pixels,
            test_an_output_scaled_below_1_gets_buffers_at_its_preferred_scale_from_the_first_frame,
            test_without_fractional_scale_the_output_scale_sets_the_buffers,
            test_an_output_at_scale_1_5_gets_buffers_of_its_own_pixels,
            test_an_output_at_scale_0_75_gets_buffers_of_its_own_pixels,
            test_the_canvas_is_above_a_fullscreen_application_and_see_through,
            test_an_annotation_session_over_two_terminals_shows_its_ink_and_the_terminals_through_it,
            test_with_click_through_a_click_on_the_open_canvas_reaches_the_application,
            test_with_the_pen_captured_and_pointer_pass_a_click_on_the_open_canvas_reaches_the_application,
            test_with_the_pen_captured_a_click_on_the_open_canvas_draws_rather_than_passing,
            test_in_observe_mode_the_open_canvas_takes_the_click_and_minimized_gives_it_back,
            test_a_mouse_drag_on_the_open_canvas_draws_a_stroke_kept_like_the_pens,
            test_a_mouse_click_on_the_palette_picks_its_colour_without_drawing,
            test_escape_minimizes_the_canvas,
            test_every_default_key_does_its_action_on_the_open_canvas,
            test_a_text_typed_on_the_layer_surface_shows_at_once_is_kept_exported_alike_and_undone,
            test_an_input_method_types_the_text_through_text_input_v3_and_its_preedit_is_never_sent,
            test_f1_shows_the_help_where_the_spec_puts_it_and_a_key_hides_it,
            test_two_outputs_of_different_sizes_get_a_surface_each_and_share_the_drawing,
            test_monitor_option_puts_the_canvas_on_that_output_only,
            test_a_compositor_that_goes_away_ends_the_canvas_with_a_clear_line,
        ], only=args.only)
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
