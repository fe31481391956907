#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylus-canvas on a Wayland compositor without layer-shell: weston 10's
headless backend (pixman renderer, desktop shell without its panel; --debug
exposes the screenshooter protocol weston-screenshooter uses).

There the canvas cannot be an overlay: xdg-shell makes a fullscreen window
opaque (weston puts a black backdrop under it), and an X11 window through
weston's XWayland is black too (measured). So the canvas falls back to an
xdg toplevel of its own (the layer-shell client's buffers with another role),
maximized, undecorated and see-through, and says so on standard error.
Checked on screen: never a black screen; the recorded ink where it belongs;
the desktop visible everywhere else; the desktop's own pixels again after
minimize; both transitions ended by the canvas's ack. Also with XWayland
running and DISPLAY set, where the canvas must not take the X11 route.

    python3 Tests/overlay/wayland_smoke.py [--bin .build-static/release] [--canvas Overlay/.build-static/release/stylus-canvas]

Exits 77 (skipped) when weston is not installed and cannot be."""
import contextlib
import glob
import os
import subprocess
import sys
import tempfile
import time

import overlay_test as ot  # noqa: E402  (puts Tests/support on sys.path)
from stylustest import check, run_tests  # noqa: E402

WIDTH, HEIGHT = 1280, 800


# No panel: its clock would change the desktop's pixels when a minute turns during a test.
SHELL_INI = """[shell]
panel-position=none
"""


class Weston:
    def __init__(self, runtime, xwayland=False):
        self.runtime = runtime
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY="wl-stylus-test")
        self.env.pop("DISPLAY", None)
        ini = os.path.join(runtime, "weston.ini")
        with open(ini, "w") as f:
            f.write(SHELL_INI)
        argv = ["weston", "--backend=headless-backend.so", "--socket=wl-stylus-test", f"--width={WIDTH}", f"--height={HEIGHT}",
                "--use-pixman", "--debug", "--shell=desktop-shell.so", "--idle-time=0", f"--config={ini}"]
        if xwayland:
            argv.append("--xwayland")
        x_sockets = set(glob.glob("/tmp/.X11-unix/X*"))
        self.proc = subprocess.Popen(argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(os.path.join(runtime, "wl-stylus-test")):
            check(time.monotonic() < deadline and self.proc.poll() is None, "weston did not start")
            time.sleep(0.1)
        # The desktop shell paints its background a moment after the socket appears (later on a
        # loaded machine): wait for it, and for two screenshots that agree.
        deadline = time.monotonic() + 10
        last = None
        while True:
            shot = self.screenshot()
            if last is not None and shot[2] == last[2] and ot.pixel(shot, WIDTH // 2, HEIGHT // 2) != (0, 0, 0):
                break
            check(time.monotonic() < deadline, "weston's desktop shell never painted its background")
            last = shot
            time.sleep(0.2)
        if xwayland:
            # weston listens for X11 clients at once (Xwayland itself starts on the first one).
            while not set(glob.glob("/tmp/.X11-unix/X*")) - x_sockets:
                check(time.monotonic() < deadline, "weston --xwayland opened no X11 display")
                time.sleep(0.1)
            self.env["DISPLAY"] = ":" + sorted(set(glob.glob("/tmp/.X11-unix/X*")) - x_sockets)[0].rsplit("X", 1)[1]

    def screenshot(self):
        shots = os.path.join(self.runtime, "shots")
        os.makedirs(shots, exist_ok=True)
        for old in glob.glob(os.path.join(shots, "*.png")):
            os.remove(old)
        subprocess.run(["weston-screenshooter"], cwd=shots, env=self.env, check=True, capture_output=True)
        png = glob.glob(os.path.join(shots, "*.png"))
        check(png, "weston-screenshooter wrote nothing")
        ppm = subprocess.run(["convert", png[0], "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout
        return ot.parse_ppm(ppm)

    def close(self):
        # weston and the helpers it launched (desktop shell, keyboard) share its session.
        os.killpg(self.proc.pid, 15)
        self.proc.wait(10)


def fallback_is_see_through(xwayland):
    with tempfile.TemporaryDirectory(prefix="stylus-canvas-wayland-") as runtime:
        os.chmod(runtime, 0o700)
        weston = Weston(runtime, xwayland)
        desktop = ot.Desktop.__new__(ot.Desktop)   # Stack needs only .env and .screenshot from its desktop
        desktop.env = dict(weston.env)
        desktop.screenshot = weston.screenshot   # what Stack.settle_screen compares
        try:
            with ot.private_directory("stylus-canvas-test-") as root:
                s = ot.Stack(ot.ARGS, desktop, root, (), replay=False, state=ot.drawn_state())
                try:
                    s.wait_overlay("this Wayland compositor offers no layer-shell: the canvas is a maximized see-through window", 1)
                    before = weston.screenshot()
                    strokes = s.request("strokes")["strokes"]
                    s.open_and_wait()
                    shown = weston.screenshot()
                    points = ot.screen_points([t for t in strokes if t.get("tool") != "eraser"], WIDTH, HEIGHT)
                    inked = [p for p in points if ot.red_ink_near(shown, *p)]
                    check(len(inked) >= len(points) * 0.90, f"only {len(inked)} of {len(points)} points inked")
                    near = {(x + dx, y + dy) for x, y in ot.screen_points(strokes, WIDTH, HEIGHT)
                            for dx in range(-13, 14) for dy in range(-13, 14)}
                    away = [(x, y) for y in range(0, HEIGHT, 2) for x in range(0, WIDTH, 2) if (x, y) not in near]
                    same = sum(1 for x, y in away if ot.pixel(shown, x, y) == ot.pixel(before, x, y))
                    check(same >= len(away) * 0.97, f"only {same / len(away):.1%} of the desktop away from the ink is visible")
                    s.minimize_and_wait()
                    # The canvas has acked; weston repaints on its own frame clock, later on a loaded machine.
                    restored_by = time.monotonic() + 3.0
                    after = weston.screenshot()
                    while after[2] != before[2] and time.monotonic() < restored_by:
                        time.sleep(0.1)
                        after = weston.screenshot()
                    check(after[2] == before[2], "the desktop 3 s after minimize still differs from before the canvas opened")
                    overlay = s.request("status").get("overlay")
                    check(overlay == {"backend": "wayland-toplevel", "outputs": 1, "width": WIDTH, "height": HEIGHT}, f"status's overlay: {overlay}")
                    settled = [e for e in s.watcher.states() if e["state"] in ("open", "minimized")]
                    check(len(settled) == 2 and all(e["cause"] == "ack" for e in settled),
                          f"transitions: {[(e['state'], e['cause']) for e in settled]}")
                    print(f"  {len(inked)} of {len(points)} points inked, {same / len(away):.1%} of the desktop away from them "
                          "visible; restored; both transitions acked", flush=True)
                finally:
                    s.close()
        finally:
            weston.close()


def test_without_layer_shell_the_canvas_is_a_see_through_maximized_window():
    fallback_is_see_through(xwayland=False)


def test_with_xwayland_beside_it_the_canvas_still_does_not_take_the_black_x11_route():
    fallback_is_see_through(xwayland=True)


def main():
    args = ot.canvas_arguments().parse_args()
    if not (os.access("/usr/bin/weston", os.X_OK) and os.access("/usr/bin/weston-screenshooter", os.X_OK)):
        ot.PACKAGES[:] = ["weston", "imagemagick", "xvfb"]
        try:
            ot.install_missing()
        except Exception as error:
            print(f"SKIP: weston is not installed and could not be: {error}")
            return 77
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    try:
        return run_tests("overlay-wayland", [test_without_layer_shell_the_canvas_is_a_see_through_maximized_window,
                                             test_with_xwayland_beside_it_the_canvas_still_does_not_take_the_black_x11_route],
                                         only=args.only)
    finally:
        import shutil
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
