#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layer-shell canvas under headless sway (1280x800, pixman; 1.7 here, 1.10 in the Debian 13
root of Tests/desktops/run.sh bench-sway), or with --compositor kwin under KWin nested in that sway
(KWin 6 in the root: run.sh bench-kwin; Tests/desktops/kwin_test.py starts it, over its fullscreen
application since KWin alone paints black). Under KWin the same looks read the outer sway, which
shows KWin's window: a frame reaches them one outer sway frame after KWin composited it. `toggle`
on the socket -> the first frame of the fade-in on screen, read back with grim
(one pixel on a stroke, polled); the canvas's resident memory never shown,
shown with the bundled recording's strokes, and hidden again; its context
switches over 5 s idle, minimized and open with no pen (an idle canvas should
make none); and pen sample -> its ink on screen, read back with
bench/screencopy_probe.c (wlr-screencopy) over section 9's generated session. Part of `make bench-overlay`, which measures the X11 canvas under
Xvfb in the same run: the peer the issue allows when gromit-mpx cannot run on
sway's XWayland. A part that cannot be measured says why; it never fails.

Run as root it runs itself again as `nobody` (sway refuses root), like
Tests/overlay/layer_shell_test.py. Where there is no compiler (that root), the probe and the
suite's virtual pointer come built: --build-tools FOLDER on a machine with one, then --tools
FOLDER (or --probe FILE for the probe alone).

    python3 bench/layer_shell_bench.py [--bin .build/release] [--canvas PATH] [--rounds 30] [--only toggle|ink]
                                       [--tools FOLDER] [--probe FILE] [--build-tools FOLDER]
                                       [--compositor sway|kwin] [--kwin-tests FOLDER]
"""
import argparse
import glob
import os
import subprocess
import sys
import re
import shutil
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "overlay"))   # the suite measured; overlay_test puts Tests/support there too
import layer_shell_test as lt  # noqa: E402
import overlay_bench as ob  # noqa: E402
import overlay_test as ot  # noqa: E402
from measures import percentile, rss_kib  # noqa: E402


def context_switches(pid):
    """Every thread's voluntary and involuntary switches: each is a wakeup."""
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        with open(status) as f:
            total += sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
    return total


def pixel(sway, x, y):
    out = subprocess.run(["grim", "-g", f"{x},{y} 1x1", "-t", "ppm", "-"], env=sway.env, capture_output=True, check=True).stdout
    return ot.pixel(ot.parse_ppm(out), 0, 0)


def sway_version():
    out = subprocess.run(["sway", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"\d+\.\d+(\.\d+)?", out)
    return m.group(0) if m else "?"


def kwin_tests_folder(args):
    return args.kwin_tests or os.path.join(ROOT, "Tests", "desktops")


def kwin_test(args):
    """Tests/desktops/kwin_test.py, whose KWin and Session start KWin nested in sway: measured as its suite runs it."""
    folder = kwin_tests_folder(args)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import kwin_test as kt
    return kt


def compositor_label(args):
    """The compositor measured, as the bench's lines name it."""
    if args.compositor == "kwin":
        return f"KWin {kwin_test(args).kwin_version()} nested in sway {sway_version()} headless, seen on the outer sway"
    return f"sway {sway_version()} headless"


def session(args):
    """The canvas on the compositor measured, and the colour under it while minimized: sway's desktop, or under KWin
    (which paints a black desktop) kwin_test's fullscreen application."""
    if args.compositor == "kwin":
        return kwin_test(args).Session(), lt.APP
    return lt.Session(), lt.DESKTOP


def wait_until(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
    return False


def opens_in_log(lines):
    """From the canvas's log lines (its own millisecond stamps): each opening request -> the first buffer
    allocated for it (ms), and how many openings waited out the scale settle, no preferred scale having come."""
    stamp = lambda line: int(re.search(r"\[(\d+) ms\]", line).group(1))
    firsts, waited, opening = [], 0, None
    for line in lines:
        if "canvas opening" in line:
            opening = stamp(line)
        elif opening is not None and "] buffer " in line:
            firsts.append(stamp(line) - opening)
            opening = None
        if "no preferred scale agreeing" in line:
            waited += 1
    return firsts, waited


def idle_wakeups(pid, seconds=5.0):
    before = context_switches(pid)
    time.sleep(seconds)
    return context_switches(pid) - before


def bench(args):
    opened, background = session(args)
    with opened as s:
        pid = s.stack.overlay.pid
        strokes = s.stack.request("strokes")["strokes"]
        pen = max((t for t in strokes if t.get("tool") != "eraser"), key=lambda t: len(t["points"]))
        px, py = ot.screen_points([pen], lt.WIDTH, lt.HEIGHT)[len(pen["points"]) // 2]
        bare = lambda: pixel(s.sway, px, py) == background
        ot.check(bare(), f"the probe pixel is not {'the desktop' if background == lt.DESKTOP else 'the application'} before opening")
        started = time.perf_counter()
        for _ in range(10):
            pixel(s.sway, px, py)
        grim_ms = (time.perf_counter() - started) * 100
        rss = {"never shown": rss_kib(pid)}
        wakeups = {"minimized": idle_wakeups(pid)}

        def last_open():
            time.sleep(0.5)
            rss["shown"] = rss_kib(pid)
            wakeups["open, no pen"] = idle_wakeups(pid)
        logged = len(s.stack.overlay_log)
        times = ob.toggle_rounds(s.stack.socket, args.rounds, bare, wait_until, last_open)
        time.sleep(0.5)
        rss["hidden again"] = rss_kib(pid)
        points = sum(len(t["points"]) for t in strokes)
        firsts, waited = opens_in_log([line for _, line in s.stack.overlay_log[logged:]])
        print(f"stylus-canvas (layer-shell, {compositor_label(args)}): toggle -> first frame on screen, {len(times)} toggles: "
              f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms "
              f"(each look is a grim capture of one pixel: {grim_ms:.1f} ms)", flush=True)
        if firsts:
            # Where the first frame's time goes: the canvas's own part, before the compositor(s) show it.
            print(f"stylus-canvas (layer-shell) in its own log: opening request -> its first buffer, {len(firsts)} openings: "
                  f"p50 {percentile(firsts, 50):.0f} ms, p99 {percentile(firsts, 99):.0f} ms; {waited} waited out the "
                  f"scale settle (no preferred scale from the compositor)", flush=True)
        print(f"stylus-canvas (layer-shell) RSS: never shown {rss['never shown'] / 1024:.1f} MiB; shown with the recording's "
              f"{len(strokes)} strokes ({points} points) {rss['shown'] / 1024:.1f} MiB; hidden again {rss['hidden again'] / 1024:.1f} MiB",
              flush=True)
        print(f"stylus-canvas (layer-shell) context switches in 5 s idle: minimized {wakeups['minimized']}, "
              f"open with no pen {wakeups['open, no pen']}", flush=True)


class ScreencopyLooks:
    """Pixels read back from sway through bench/screencopy_probe.c (wlr-screencopy): one
    capture of the rectangle holding every pending point, stamped when the compositor said
    the copy was ready, at its next frame."""

    def __init__(self, binary, env):
        self.proc = subprocess.Popen([binary], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def look(self, points):
        self.proc.stdin.write(f"LOOK {len(points)} " + " ".join(f"{x} {y}" for x, y in points) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().split()
        ot.check(len(answer) == 3 and answer[0] == "SEEN", f"the screencopy probe failed: {answer}")
        seen_at = int(answer[1]) / 1e6
        return [(bit == "1", seen_at) for bit in answer[2]]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(5)


PROBE = "screencopy_probe"


def probe_binary(args):
    """--probe, the one in --tools, or one compiled now into the run's scratch."""
    if getattr(args, "probe", None):
        return args.probe
    if getattr(args, "tools", None) and os.path.exists(os.path.join(args.tools, PROBE)):
        return os.path.join(args.tools, PROBE)
    ot.check(shutil.which("cc") and shutil.which("wayland-scanner"),
             "no cc or wayland-scanner to build the screencopy probe: pass --probe or --tools (built with --build-tools)")
    return build_probe(args.scratch)


def build_probe(scratch):
    xml = sorted(glob.glob(os.path.join(lt.WLR_PROTOCOLS, "wlr-screencopy-unstable-v1.xml")))
    ot.check(xml, "the wlr-screencopy XML is missing: install librust-wayland-protocols-dev")
    header = os.path.join(scratch, "wlr-screencopy-unstable-v1-client-protocol.h")
    code = os.path.join(scratch, "wlr-screencopy-unstable-v1-protocol.c")
    subprocess.run(["wayland-scanner", "client-header", xml[-1], header], check=True)
    subprocess.run(["wayland-scanner", "private-code", xml[-1], code], check=True)
    binary = os.path.join(scratch, PROBE)
    subprocess.run(["cc", "-O1", "-o", binary, "-I", scratch, os.path.join(ROOT, "bench", "screencopy_probe.c"), code,
                    "-lwayland-client"], check=True)
    return binary


def bench_ink(args):
    """Pen sample -> its ink on screen under sway: section 9's generated session (a double press,
    then 30 rows of samples 14 px apart at 200 a second, replayed at the recorded pace), each
    sample's due time against the first screencopy in which the pixel under it is ink."""
    runtime = tempfile.mkdtemp(prefix="stylus-layer-ink-")
    os.chmod(runtime, 0o700)
    probe = probe_binary(args)
    sway = lt.Sway(runtime)
    kwin = looks = None
    try:
        # Under KWin the canvas is KWin's client and the probe still sway's: it sees KWin's window.
        if args.compositor == "kwin":
            kwin = kwin_test(args).KWin(sway, args.scratch)
        looks = ScreencopyLooks(probe, sway.env)
        desktop = ot.Desktop.__new__(ot.Desktop)
        desktop.env = dict((kwin or sway).env, GDK_BACKEND="wayland")
        desktop.screenshot = sway.screenshot
        ink = ob.bench_ink(args, desktop, looks)
    finally:
        if looks:
            looks.close()
        if kwin:
            kwin.close()
        sway.close()
    t, iv = ink["latencies"], ink["intervals"]
    ot.check(len(t) >= ink["expected"] * 9 // 10,
             f"ink seen for only {len(t)} of {ink['expected']} samples ({len(ink['late'])} not within 2 s)")
    label = "layer-shell" if args.compositor == "sway" else f"layer-shell, {compositor_label(args)}"
    copies = "sway copies at its next frame" if args.compositor == "sway" else \
        "the outer sway copies at its next frame, after KWin's frame and its own"
    print(f"stylus-canvas ({label}): pen sample due in the replay -> its ink on screen (screencopy), "
          f"{len(t)} of {ink['expected']} samples at 200/s: p50 {percentile(t, 50):.1f} ms, p99 {percentile(t, 99):.1f} ms, "
          f"max {max(t):.1f} ms; a look every {percentile(iv, 50):.1f} ms (p99 {percentile(iv, 99):.1f} ms: {copies}); "
          f"{len(ink['late'])} not within 2 s; due -> this reader has the event p50 "
          f"{percentile(ink['delivery'], 50):.2f} ms, p99 {percentile(ink['delivery'], 99):.2f} ms"
          f"; due -> a reader that only reads (its own process) has it p50 {percentile(ink['delivery_alone'], 50):.2f} ms, "
          f"p99 {percentile(ink['delivery_alone'], 99):.2f} ms", flush=True)


def as_nobody(args):
    """Root: this bench again as `nobody` (sway refuses root), with copies it can read of --probe and of
    kwin_test.py: both may sit where only root reads, and the suite's copy of the tree leaves Tests/desktops out."""
    extra = ["--rounds", str(args.rounds), "--compositor", args.compositor]
    folder = tempfile.mkdtemp(prefix="stylus-probe-", dir="/var/tmp")
    try:
        os.chmod(folder, 0o755)
        if args.probe:
            probe = os.path.join(folder, PROBE)
            shutil.copy2(args.probe, probe)
            extra += ["--probe", probe]
        if args.compositor == "kwin":
            shutil.copy2(os.path.join(kwin_tests_folder(args), "kwin_test.py"), folder)
            extra += ["--kwin-tests", folder]
        return lt.as_unprivileged(args, os.path.join("bench", "layer_shell_bench.py"), extra)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build-static", "release", "stylus-canvas"))
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", default="", choices=["", "toggle", "ink"], help="one part")
    parser.add_argument("--probe", default=None, help="bench/screencopy_probe.c built already (--build-tools builds it)")
    parser.add_argument("--compositor", default="sway", choices=["sway", "kwin"],
                        help="the canvas on sway, or on KWin nested in sway as Tests/desktops/kwin_test.py starts it")
    parser.add_argument("--kwin-tests", default=None, metavar="FOLDER", help="the folder of kwin_test.py (Tests/desktops)")
    lt.tools_arguments(parser)
    args = parser.parse_args()
    if args.build_tools:
        os.makedirs(args.build_tools, exist_ok=True)
        lt.build_pointer(args.build_tools)
        build_probe(args.build_tools)
        return 0
    needed = ("sway", "grim") + (("kwin_wayland", "dbus-run-session") if args.compositor == "kwin" else ())
    missing = [tool for tool in needed if not shutil.which(tool)]
    if missing:
        where = "make test-overlay installs them" if args.compositor == "sway" else \
            "KWin 6 runs in the root of Tests/desktops/trixie_root.sh: Tests/desktops/run.sh bench-kwin"
        on = "" if args.compositor == "sway" else " on KWin"
        print(f"layer-shell bench{on}: NOT MEASURED: missing {missing} ({where})", flush=True)
        return 0
    if os.getuid() == 0:
        return as_nobody(args)
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    lt.build_pointer(args.scratch)
    # A part that cannot be measured says why; a benchmark never fails the build.
    for part, run in (("toggle", bench), ("ink", bench_ink)):
        if args.only in ("", part):
            try:
                run(args)
            except ot.Failure as error:
                where = "" if args.compositor == "sway" else " on KWin"
                print(f"layer-shell bench{where}, {part}: NOT MEASURED: {error}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
