#!/usr/bin/env python3
"""Toggle → the overlay's first frame visible on the X server, 50 toggles, p50/p99.

A headless desktop like the overlay tests' (Xvfb, openbox, xcompmgr). stylusd
starts from a state holding the recording's strokes; stylus-canvas follows it.
Each round sends `toggle` (open) and then polls one pixel of the root window
(XGetImage through ctypes: what the X server shows, composited) at a point the
canvas inks, until it leaves the desktop's colour: the first frame of the
fade-in is visible. Then `toggle` again and waits for the minimized state and
the bare pixel. Beside it, in the same run, gromit-mpx: `gromit-mpx
--visibility` toggles its window, timed until that window is viewable
(XGetWindowAttributes.map_state).

    python3 bench/overlay_bench.py [--bin .build/release] [--canvas Overlay/.build/release/stylus-canvas] [--rounds 50]
"""
import argparse
import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "overlay"))
import overlay_test as ot  # noqa: E402


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

    def viewable(self, window):
        attributes = XAttributes()
        if not self.lib.XGetWindowAttributes(self.dpy, window, ctypes.byref(attributes)):
            return False
        return attributes.map_state == 2   # IsViewable


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def wait_until(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
    return False


def bench_canvas(args, desktop, x):
    with ot.private_directory("stylus-canvas-bench-") as root:
        s = ot.Stack(args, desktop, root, (), replay=False, state=ot.drawn_state())
        try:
            strokes = s.request("strokes")["strokes"]
            # The first point of the longest pen stroke: certainly inked.
            pen = max((t for t in strokes if t.get("tool") != "eraser"), key=lambda t: len(t["points"]))
            px, py = ot.screen_points([pen], ot.WIDTH, ot.HEIGHT)[len(pen["points"]) // 2]
            check_bare = lambda: x.pixel(px, py) == ot.DESKTOP
            ot.check(check_bare(), "the probe pixel is not the desktop before opening")
            times = []
            client = ot.Client(s.socket)
            for _ in range(args.rounds):
                started = time.perf_counter()
                client.request("toggle")
                ot.check(wait_until(lambda: not check_bare()), "no overlay frame within 3 s")
                times.append((time.perf_counter() - started) * 1000)
                # let the fade end and the ack arrive, then minimize and wait for the bare desktop
                ot.check(wait_until(lambda: client.request("status")["result"]["canvas"]["state"] == "open"), "not open")
                client.request("toggle")
                ot.check(wait_until(lambda: client.request("status")["result"]["canvas"]["state"] == "minimized"), "not minimized")
                ot.check(wait_until(check_bare), "the overlay did not leave the screen")
            rss = int(open(f"/proc/{s.overlay.pid}/status").read().split("VmRSS:")[1].split()[0])
            return times, rss
        finally:
            s.close()


def bench_gromit(args, desktop, x):
    if not shutil.which("gromit-mpx"):
        return None, "gromit-mpx is not installed"
    env = dict(desktop.env, GDK_BACKEND="x11")
    proc = subprocess.Popen(["gromit-mpx"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        found = subprocess.run(["xdotool", "search", "--class", "gromit"], env=env, capture_output=True, text=True).stdout.split()
        if not found:
            return None, "gromit-mpx opened no window"
        windows = [int(w) for w in found]
        visible = lambda: any(x.viewable(w) for w in windows)
        if visible():   # it starts shown: hide it first
            subprocess.run(["gromit-mpx", "--visibility"], env=env)
            wait_until(lambda: not visible())
        times = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            subprocess.run(["gromit-mpx", "--visibility"], env=env)
            if not wait_until(visible):
                return None, "gromit-mpx's window did not become viewable"
            times.append((time.perf_counter() - started) * 1000)
            subprocess.run(["gromit-mpx", "--visibility"], env=env)
            wait_until(lambda: not visible())
        rss = int(open(f"/proc/{proc.pid}/status").read().split("VmRSS:")[1].split()[0])
        return times, rss
    finally:
        proc.terminate()
        proc.wait(5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--canvas", default=os.path.join(ROOT, "Overlay", ".build", "release", "stylus-canvas"))
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    desktop = ot.Desktop()
    try:
        x = X(desktop.display)
        times, rss = bench_canvas(args, desktop, x)
        print(f"stylus-canvas: toggle -> first frame on the X server, {len(times)} toggles: "
              f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms; RSS {rss // 1024} MiB")
        gromit, detail = bench_gromit(args, desktop, x)
        if gromit is None:
            print(f"gromit-mpx: not measured: {detail}")
        else:
            print(f"gromit-mpx --visibility -> window viewable, {len(gromit)} toggles: "
                  f"p50 {percentile(gromit, 50):.1f} ms, p99 {percentile(gromit, 99):.1f} ms (includes starting the gromit-mpx client process); RSS {detail // 1024} MiB")
    finally:
        desktop.close()
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
