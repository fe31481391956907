#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stylus-canvas on KWin (Wayland, layer-shell), nested in headless sway: KWin 5.27 on
the Debian 12 host (make test-overlay), KWin 6 in the Debian 13 root (make test-desktops): KWin's
window fills sway's 1280x800 output, so grim on sway shows what KWin composites.
KWin alone paints a black desktop: see-through is checked over a coloured
fullscreen application (Tests/overlay/wayland/app.py) running on KWin.

/usr/bin/kwin_wayland carries a file capability a container may refuse
("Operation not permitted"): a plain copy runs. Run as root, the suite runs
itself as `nobody`, as the layer-shell suite does (make test-desktops runs it in
the Debian 13 root of Tests/desktops/trixie_root.sh).

    python3 Tests/desktops/kwin_test.py [--bin DIR] [--canvas FILE] [--tools DIR] [--only NAME]
"""
import os
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


class Session:
    """sway, KWin in it, the fullscreen application on KWin, stylusd with the recording's strokes, stylus-canvas on KWin."""

    def __init__(self):
        self.runtime = tempfile.mkdtemp(prefix="stylus-kwin-")
        os.chmod(self.runtime, 0o700)
        self.sway = self.kwin = self.app = self.stack = None
        self.root = tempfile.mkdtemp(prefix="stylus-canvas-test-")
        os.chmod(self.root, 0o700)
        try:
            self.sway = lt.Sway(self.runtime)
            self.kwin = KWin(self.sway, ot.ARGS.scratch)
            self.app_lines = []
            self.app = subprocess.Popen([sys.executable, os.path.join(ot.HERE, "wayland", "app.py"), "--fullscreen"],
                                        env=dict(self.kwin.env, GDK_BACKEND="wayland", GSK_RENDERER="cairo", NO_AT_BRIDGE="1"),
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            threading.Thread(target=lambda: [self.app_lines.append(l.strip()) for l in self.app.stdout], daemon=True).start()
            deadline = time.monotonic() + 15
            while not all(ot.pixel(self.sway.screenshot(), x, y) == lt.APP for x, y in ((5, 5), (WIDTH - 5, HEIGHT - 5))):
                check(time.monotonic() < deadline and self.app.poll() is None,
                      f"the fullscreen application never covered KWin's output: {self.app_lines} {self.kwin.tail()}")
                time.sleep(0.1)
            desktop = ot.Desktop.__new__(ot.Desktop)
            desktop.env = dict(self.kwin.env, GDK_BACKEND="wayland")
            desktop.screenshot = self.sway.screenshot
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
    """Open: the recorded points inked and the application visible away from them; minimized:
    the application back pixel for pixel; both transitions ended by the canvas's ack."""
    with Session() as s:
        strokes = s.stack.request("strokes")["strokes"]
        before = s.sway.screenshot()
        s.stack.open_and_wait()
        s.stack.wait_overlay("layer surface on", 5)
        s.stack.settle_screen()
        inked, visible, n = lt.ink_and_background(s.sway.screenshot(), strokes, lt.APP)
        check(inked >= 0.90, f"over a fullscreen application on KWin only {inked:.1%} of {n} recorded points inked")
        check(visible >= 0.97, f"only {visible:.1%} of the fullscreen application away from the ink is visible (black?)")
        lt.minimized_back_to(s.stack, s.sway.screenshot, before)
        print(f"  {inked:.1%} of {n} points inked, {visible:.2%} of the application visible; minimized: restored pixel for "
              "pixel; both transitions acked", flush=True)


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
    args = parser.parse_args()
    missing = [tool for tool in ("sway", "grim", "swaymsg", "kwin_wayland", "dbus-run-session") if not shutil.which(tool)]
    check(not missing, f"missing {missing}: KWin 6 runs in the root of Tests/desktops/trixie_root.sh")
    if os.getuid() == 0:
        return lt.as_unprivileged(args, os.path.join("Tests", "desktops", "kwin_test.py"))
    args.scratch = tempfile.mkdtemp(prefix="stylus-kwin-fixture-")
    ot.ARGS = args
    try:
        lt.build_pointer(args.scratch)
        return run_tests(f"kwin {kwin_version()}", [
            test_the_canvas_is_above_a_fullscreen_application_on_kwin_and_see_through,
        ], only=args.only)
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
