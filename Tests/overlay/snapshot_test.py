#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`snapshot` and `copy` against a live stylusd and stylus-canvas on a headless
X11 desktop (overlay_test.py's: Xvfb, openbox, xcompmgr, a solid background),
an application window below the canvas for known pixels.

A snapshot is checked against the X server's own screenshot (`import -window
root`) taken at the same moment: equal on >= 99 % of the pixels outside the
palette's strip; in the strip, the screen under the canvas (the palette is left
out of the snapshot), and the ink at the recorded points. The clipboard is read
as a paste reads it (xclip, or a ConvertSelection of our own where xclip is not
installed): image/png equal to `export`'s picture, replaced by a later copy,
held while the canvas is minimized, gone when the canvas ends.

    python3 Tests/overlay/snapshot_test.py [--bin .build-static/release] [--canvas …/stylus-canvas] [--only NAME] [--no-install]

Standard library only."""
import os
import subprocess
import sys
import tempfile
import time
import types
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import overlay_test as ot  # noqa: E402
from overlay_test import WIDTH, HEIGHT, Desktop, check, parse_ppm, pixel, screen_points  # noqa: E402
from x11_selection import read_clipboard  # noqa: E402
sys.path.insert(0, os.path.join(ot.ROOT, "Tests", "support"))
from stylustest import Failure, run_tests  # noqa: E402

PACKAGES = ["xclip"]
PALETTE_ALWAYS = '[canvas]\nshow_palette = "always"\n'


def stylusctl(s, *argv):
    return subprocess.run([os.path.join(ot.ARGS.bin, "stylusctl"), "--socket", s.socket, *argv], capture_output=True, text=True,
                          timeout=30)


def png_pixels(path_or_bytes, mode="ppm"):
    """A PNG's pixels through ImageMagick: (width, height, RGB bytes) for ppm, raw RGBA bytes for rgba."""
    data = path_or_bytes if isinstance(path_or_bytes, bytes) else open(path_or_bytes, "rb").read()
    if mode == "ppm":
        return parse_ppm(subprocess.run(["convert", "png:-", "-depth", "8", "ppm:-"], input=data, capture_output=True, check=True).stdout)
    return subprocess.run(["convert", "png:-", "-depth", "8", "rgba:-"], input=data, capture_output=True, check=True).stdout


def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def palette_box(margin=8):
    """The palette's strip on the screen (the canvas spec's buttons), with a margin: x0, y0, x1, y1."""
    buttons = ot.canvas_spec.palette_buttons(WIDTH, HEIGHT)
    return (min(b["x"] for b in buttons) - margin, min(b["y"] for b in buttons) - margin,
            max(b["x"] + b["side"] for b in buttons) + margin, max(b["y"] + b["side"] for b in buttons) + margin)


def near(a, b, tolerance=6):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def agreement(a, b, inside, tolerance=6):
    """The share of the pixels `inside(x, y)` picks that agree between two screenshots, and how many there were."""
    total = same = 0
    for y in range(0, HEIGHT):
        for x in range(0, WIDTH):
            if not inside(x, y):
                continue
            total += 1
            same += near(pixel(a, x, y), pixel(b, x, y), tolerance)
    return (same / total if total else 1.0), total


def inked_over(image, below, x, y, reach=2):
    """Ink near a point: some pixel within `reach` differs clearly from the screen without the canvas."""
    return any(sum(abs(a - b) for a, b in zip(pixel(image, xx, yy), pixel(below, xx, yy))) > 60
               for yy in range(max(0, y - reach), min(HEIGHT, y + reach + 1)) for xx in range(max(0, x - reach), min(WIDTH, x + reach + 1)))


def test_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette():
    """The canvas open with the palette over an xlogo window: `stylusctl snapshot` writes a PNG
    at the screen's size that agrees with `import -window root` outside the palette, holds the
    ink at the recorded points, and shows the screen under the palette where the palette was."""
    check_snapshot()


def test_without_a_compositor_a_snapshot_is_the_screen_with_the_shaped_canvas_on_it():
    """As above on a desktop with no compositing manager: the canvas window is shaped to its ink,
    which the root window holds like any window's pixels."""
    composited = ot.DESKTOP_SESSION
    ot.DESKTOP_SESSION = Desktop(compositor=False)
    try:
        check_snapshot()
    finally:
        ot.DESKTOP_SESSION.close()
        ot.DESKTOP_SESSION = composited


def check_snapshot_pixels(path, screen, below, strokes, against):
    """The snapshot at `path` against the desktop's own screenshot taken then (`screen`, the palette
    showing) and before the canvas opened (`below`): >= 99 % equal outside the palette, the screen
    under the palette in its strip, ink at the pen's points. Returns the shares and counts said."""
    snap = png_pixels(path)
    check(snap[:2] == (WIDTH, HEIGHT), f"the snapshot is {snap[0]}×{snap[1]}, the screen {WIDTH}×{HEIGHT}")
    x0, y0, x1, y1 = palette_box()
    outside, n = agreement(snap, screen, lambda x, y: not (x0 <= x < x1 and y0 <= y < y1))
    check(outside >= 0.99, f"the snapshot agrees with {against} on {outside:.2%} of {n} pixels outside the palette")
    # Under the palette: what was there before the canvas opened, or the ink drawn over it.
    ink = {(x + dx, y + dy) for x, y in screen_points(strokes, WIDTH, HEIGHT) for dx in range(-10, 11) for dy in range(-10, 11)}
    # The palette did show on the screen, where the snapshot must leave it out. (Its strip as a whole: without a
    # compositor the window manager's frame follows the shaped window's shape a moment late, and shows black there.)
    unchanged, _ = agreement(screen, below, lambda x, y: x0 <= x < x1 and y0 <= y < y1 and (x, y) not in ink)
    check(unchanged < 0.5, f"the palette did not show on the screen: {unchanged:.0%} of its strip is the screen under it")
    under, m = agreement(snap, below, lambda x, y: x0 <= x < x1 and y0 <= y < y1 and (x, y) not in ink)
    check(under >= 0.99, f"the palette's strip in the snapshot is the screen under it on {under:.2%} of {m} pixels: the palette is in it")
    # The open canvas's frame ([canvas] indicator) is on the screen, and not in the snapshot: its band is the screen under it.
    border = ot.canvas_spec.indicator_border()

    def edge(x, y):
        return (x < border or y < border or x >= WIDTH - border or y >= HEIGHT - border) and (x, y) not in ink
    framed, _ = agreement(screen, below, edge)
    check(framed < 0.5, f"the open canvas's frame did not show on the screen: {framed:.0%} of its band is the screen under it")
    unframed, k = agreement(snap, below, edge)
    check(unframed >= 0.99, f"the frame's band in the snapshot is the screen under it on only {unframed:.2%} of {k} pixels: the frame is in it")
    # The ink: at the pen's points the snapshot differs clearly from the screen before the canvas opened.
    points = screen_points([t for t in strokes if t.get("tool") != "eraser"], WIDTH, HEIGHT)
    missing = [p for p in points if not inked_over(snap, below, *p)]
    check(len(missing) <= len(points) // 50, f"{len(missing)} of {len(points)} recorded points have no ink in the snapshot, e.g. {missing[:5]}")
    return outside, n, m, len(points) - len(missing)


def check_snapshot():
    app = subprocess.Popen(["xlogo", "-geometry", "300x300+700+120"], env=ot.DESKTOP_SESSION.env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with ot.stack(config=PALETTE_ALWAYS) as s:
            time.sleep(1.0)
            shot = snapshot_against(s, ot.DESKTOP_SESSION.screenshot, "import")
            print(f"  {shot.outside:.2%} of {shot.n} pixels agree with import; the palette's {shot.m} pixels are the screen under it; "
                  f"{shot.inked} points inked; {shot.took * 1000:.0f} ms for stylusctl snapshot", flush=True)
            waits = [line for _, line in s.overlay_log if "snapshot frame" in line]
            if waits:
                print(f"  the canvas: {waits[-1]}", flush=True)
    finally:
        app.terminate()
        app.wait(5)


def snapshot_against(s, screenshot, against, pauses=None):
    """What each desktop's snapshot test does with the desktop's own screenshot (`screenshot()`, named
    `against`) on the stack `s` minimized with its palette always shown: the screen before the canvas
    opens, the opening until the palette is up, `stylusctl snapshot` to shot.png in the stack's folder,
    the screen again, and check_snapshot_pixels between them. `pauses`: seconds to wait before the
    snapshot and before the second screenshot, where each screenshot is costly (KWin's on llvmpipe);
    by default the stack's settle_screen. Returns the path, the time stylusctl took and the figures."""
    strokes = s.request("strokes")["strokes"]
    below = screenshot()
    since = time.monotonic()
    s.open_and_wait()
    s.wait_overlay(ot.PALETTE_REGIONS_REPORTED, 5, since)
    settle = [s.settle_screen] * 2 if pauses is None else [lambda t=t: time.sleep(t) for t in pauses]
    settle[0]()
    out = os.path.join(s.root, "shot.png")
    started = time.monotonic()
    r = stylusctl(s, "snapshot", out)
    took = time.monotonic() - started
    check(r.returncode == 0 and out in r.stdout and f"{WIDTH}×{HEIGHT}" in r.stdout and "the screen with the ink" in r.stdout,
          f"stylusctl snapshot: {r.returncode} {r.stdout!r} {r.stderr}; the canvas said {[l for _, l in s.overlay_log][-6:]}")
    settle[1]()
    screen = screenshot()
    try:
        outside, n, m, inked = check_snapshot_pixels(out, screen, below, strokes, against)
    except Failure as failure:
        raise Failure(f"{failure} (pictures kept in {keep_pictures(out, screen, below)})") from None
    return types.SimpleNamespace(path=out, took=took, outside=outside, n=n, m=m, inked=inked)


def keep_pictures(snapshot, screen, below):
    """A failed comparison's three pictures, copied where a developer (or CI's log) can find them:
    a folder under $STYLUS_TEST_KEEP, else the system's temporary folder, which the stack's own is not."""
    folder = tempfile.mkdtemp(prefix="stylus-snapshot-failed-", dir=os.environ.get("STYLUS_TEST_KEEP") or None)
    shutil.copy(snapshot, os.path.join(folder, "snapshot.png"))
    for name, (w, h, rgb) in (("screen", screen), ("below", below)):
        with open(os.path.join(folder, f"{name}.ppm"), "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (w, h) + bytes(rgb))
    return folder


def copy_snapshot_pasted(s, path, paste):
    """`stylusctl copy --snapshot` on the open canvas; `paste()` (None: no way to paste here) reads the
    clipboard's image/png back, which must be the snapshot at `path`, pixel for pixel on >= 99 %.
    Returns that share, or None when nothing was pasted."""
    r = stylusctl(s, "copy", "--snapshot")
    check(r.returncode == 0, f"stylusctl copy --snapshot: {r.returncode} {r.stdout} {r.stderr}")
    if paste is None:
        return None
    png = paste()
    check(png and png_size(png) == (WIDTH, HEIGHT), f"the pasted snapshot: {png[:16] if png else png}")
    same, total = agreement(png_pixels(png), png_pixels(path), lambda x, y: True)
    check(same >= 0.99, f"the pasted snapshot agrees with the snapshot's file on {same:.2%} of {total} pixels")
    return same


def test_a_snapshot_is_refused_while_minimized_and_goes_to_the_export_folder_without_a_file():
    with ot.stack(config=f'[canvas]\nexport_dir = "{tempfile.gettempdir()}/stylus-snapshot-test-{os.getpid()}"\n') as s:
        r = stylusctl(s, "snapshot", os.path.join(s.root, "x.png"))
        check(r.returncode != 0 and "minimized" in r.stderr, f"a snapshot while minimized: {r.returncode} {r.stdout} {r.stderr}")
        check(not os.path.exists(os.path.join(s.root, "x.png")), "a refused snapshot wrote a file")
        s.open_and_wait()
        # A watcher of the canvas topic beside the canvas is not asked (nor waited for): the canvas that reported is.
        watch = subprocess.Popen([os.path.join(ot.ARGS.bin, "stylusctl"), "--socket", s.socket, "watch", "--json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        time.sleep(0.5)
        started = time.monotonic()
        r = stylusctl(s, "snapshot", "--json")
        took = time.monotonic() - started
        watch.terminate()
        seen = watch.communicate(timeout=5)[0]
        check('"event":"share"' not in seen and took < 2, f"the watcher was sent the share event ({took:.1f} s): {seen[-300:]}")
        check(r.returncode == 0, f"stylusctl snapshot without a file: {r.returncode} {r.stdout} {r.stderr}")
        folder = f"{tempfile.gettempdir()}/stylus-snapshot-test-{os.getpid()}"
        try:
            made = os.listdir(folder)
            check(len(made) == 1 and made[0].startswith("stylusd-snapshot-") and made[0].endswith(".png"), f"the export folder holds {made}")
            check(made[0] in r.stdout, f"the answer names another file: {r.stdout}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        r = stylusctl(s, "snapshot", "/proc/x.png")
        check(r.returncode != 0 and "/proc" in r.stderr, f"a snapshot into /proc: {r.returncode} {r.stderr}")
        r = stylusctl(s, "snapshot", "--monitor", "NOWHERE-9")
        check(r.returncode != 0 and "NOWHERE-9" in r.stderr, f"an unknown monitor: {r.returncode} {r.stderr}")
        print(f"  refused while minimized; {made[0]} in the export folder; /proc and an unknown monitor refused by name", flush=True)


def snapshot_of_the_ink_alone(s, out, strokes, *said):
    """`stylusctl snapshot` to `out` answers with the ink only and the words `said`, and its PNG is the ink on
    transparency: (points inked, points, share of transparent pixels). Where the desktop lets no client read
    the screen (weston) or refuses the canvas (KWin without its desktop file, or without OpenGL)."""
    r = stylusctl(s, "snapshot", out)
    check(r.returncode == 0 and "the ink only" in r.stdout and all(words in r.stdout for words in said),
          f"stylusctl snapshot: {r.returncode} {r.stdout} {r.stderr}")
    rgba = png_pixels(out, "rgba")
    check(len(rgba) == WIDTH * HEIGHT * 4, f"the snapshot holds {len(rgba) // 4} pixels, not {WIDTH}×{HEIGHT}")
    points = screen_points([t for t in strokes if t.get("tool") != "eraser"], WIDTH, HEIGHT)
    inked = sum(1 for x, y in points if any(rgba[((y + dy) * WIDTH + x + dx) * 4 + 3] > 0
                                           for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                           if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT))
    clear = sum(1 for i in range(3, len(rgba), 4) if rgba[i] == 0)
    check(inked >= len(points) * 0.95, f"only {inked} of {len(points)} points inked in the snapshot")
    check(clear >= WIDTH * HEIGHT * 0.5, f"only {clear} pixels are transparent: the picture is not the ink alone")
    return inked, len(points), clear / (WIDTH * HEIGHT)


def check_pasted_is_the_export(s, pasted):
    """A pasted image/png is `export`'s PNG of the drawing: the same bytes (True), or else the same
    pixels but for 0.1 % (False)."""
    check(pasted and pasted[:8] == b"\x89PNG\r\n\x1a\n", f"the clipboard's image/png is not a PNG: {pasted[:16] if pasted else pasted}")
    exported = os.path.join(s.root, "drawing.png")
    s.request("export", path=exported)
    if pasted == open(exported, "rb").read():
        return True
    a, b = png_pixels(pasted, "rgba"), png_pixels(exported, "rgba")
    check(len(a) == len(b), f"the pasted PNG is {png_size(pasted)}, the export {png_size(open(exported, 'rb').read())}")
    differ = sum(1 for i in range(0, len(a), 4) if not near(a[i:i + 4], b[i:i + 4], 8))
    check(differ <= len(a) // 4 // 1000, f"the pasted PNG differs from the export in {differ} pixels")
    return False


def test_copy_puts_the_exported_png_on_the_clipboard_until_replaced_and_through_a_minimize():
    env = ot.DESKTOP_SESSION.env
    os.environ["STYLUSD_RENDERER"] = ot.ARGS.canvas   # export draws its PNG with the canvas's renderer, as the copy does
    with ot.stack() as s:
        r = stylusctl(s, "copy")
        check(r.returncode == 0 and "copied to the clipboard" in r.stdout, f"stylusctl copy: {r.returncode} {r.stdout} {r.stderr}")
        pasted = read_clipboard(env)
        targets = read_clipboard(env, "TARGETS").decode()
        check("image/png" in targets.split(), f"TARGETS: {targets!r}")
        same = check_pasted_is_the_export(s, pasted)
        s.open_and_wait()
        s.minimize_and_wait()
        check(read_clipboard(env) == pasted, "the clipboard changed when the canvas opened and minimized")
        r = stylusctl(s, "copy", "--snapshot")
        check(r.returncode != 0 and "minimized" in r.stderr, f"copy --snapshot while minimized: {r.returncode} {r.stderr}")
        s.open_and_wait()
        r = stylusctl(s, "copy", "--snapshot")
        check(r.returncode == 0, f"stylusctl copy --snapshot: {r.returncode} {r.stdout} {r.stderr}")
        later = read_clipboard(env)
        check(later and png_size(later) == (WIDTH, HEIGHT), f"after copy --snapshot the clipboard holds {png_size(later) if later else None}")
        s.overlay.terminate()
        s.overlay.wait(5)
        gone = read_clipboard(env)
        check(not gone, f"the clipboard still holds {len(gone or b'')} bytes after the canvas ended")
        print(f"  the drawing ({png_size(pasted)[0]}×{png_size(pasted)[1]}, {'the same bytes' if same else 'the same pixels'} as export) "
              f"held through a minimize, replaced by a snapshot, gone with the canvas", flush=True)


def test_a_submit_of_the_screen_inline_is_the_snapshot_and_ends_the_drawing():
    """`submit` with scene screen and inline: the PNG in the answer (and the canvas event) is what a
    snapshot taken just before shows (>= 99 % of the pixels), and the drawing ends as a submit's does."""
    import base64
    folder = f"{tempfile.gettempdir()}/stylus-snapshot-submit-{os.getpid()}"
    with ot.stack(config=f'[canvas]\nexport_dir = "{folder}"\n') as s:
        s.open_and_wait()
        out = os.path.join(s.root, "shot.png")
        r = stylusctl(s, "snapshot", out)
        check(r.returncode == 0, f"stylusctl snapshot: {r.returncode} {r.stderr}")
        watcher = ot.Client(s.socket)
        watcher.request("subscribe", topics=["canvas"])
        answer = s.request("submit", scene="screen", inline=True)
        png = base64.b64decode(answer["png_base64"])
        check("path" not in answer and png_size(png) == (WIDTH, HEIGHT), f"the answer: { {k: v for k, v in answer.items() if k != 'png_base64'} }")
        event = watcher.next_event()
        while event.get("cause") != "submit":
            event = watcher.next_event()
        watcher.close()
        check(event["result"] == "submitted" and base64.b64decode(event["png_base64"]) == png, "the canvas event does not carry the same PNG")
        same, n = agreement(png_pixels(png), png_pixels(out), lambda x, y: True)
        check(same >= 0.99, f"the submitted screen agrees with the snapshot on {same:.2%} of {n} pixels")
        left = os.listdir(folder)
        shutil.rmtree(folder, ignore_errors=True)
        check(not left, f"an inline submit left files: {left}")
        check(s.request("status")["canvas"]["stroke_count"] == 0, "the drawing did not end")
        print(f"  the inline screen agrees with the snapshot on {same:.2%} of {n} pixels; the canvas event carries it", flush=True)


def test_ctrl_s_and_ctrl_c_on_the_canvas_take_a_snapshot_and_copy_the_drawing():
    """The default keys on the focused canvas (XTEST): Ctrl+S writes a snapshot into the export
    folder, Ctrl+C puts the drawing on the clipboard."""
    env = ot.DESKTOP_SESSION.env
    folder = f"{tempfile.gettempdir()}/stylus-snapshot-keys-{os.getpid()}"
    try:
        with ot.stack(config=f'[canvas]\nexport_dir = "{folder}"\n') as s:
            s.open_and_wait()
            subprocess.run(["xdotool", "search", "--name", "^stylus-canvas$", "windowactivate", "--sync"], env=env, capture_output=True)
            subprocess.run(["xdotool", "key", "ctrl+s"], env=env, check=True)
            # The file under its own name once written: until then it is a hidden partial beside it.
            def made():
                return [n for n in os.listdir(folder) if not n.startswith(".")] if os.path.isdir(folder) else []
            deadline = time.monotonic() + 5
            while not made() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)   # a second file would have come by now
            made = made()
            check(len(made) == 1 and made[0].startswith("stylusd-snapshot-"), f"after Ctrl+S the export folder holds {made}")
            check(os.listdir(folder) == made, f"a partial file stayed beside the snapshot: {os.listdir(folder)}")
            check(png_size(open(os.path.join(folder, made[0]), "rb").read()) == (WIDTH, HEIGHT), "the snapshot is not the screen's size")
            subprocess.run(["xdotool", "key", "ctrl+c"], env=env, check=True)
            deadline = time.monotonic() + 5
            pasted = None
            while not pasted and time.monotonic() < deadline:
                pasted = read_clipboard(env)
                time.sleep(0.05)
            check(pasted and pasted[:8] == b"\x89PNG\r\n\x1a\n", "after Ctrl+C the clipboard holds no PNG")
            print(f"  Ctrl+S wrote {made[0]}; Ctrl+C copied a {png_size(pasted)[0]}×{png_size(pasted)[1]} PNG", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


TESTS = [test_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette,
         test_without_a_compositor_a_snapshot_is_the_screen_with_the_shaped_canvas_on_it,
         test_a_snapshot_is_refused_while_minimized_and_goes_to_the_export_folder_without_a_file,
         test_copy_puts_the_exported_png_on_the_clipboard_until_replaced_and_through_a_minimize,
         test_a_submit_of_the_screen_inline_is_the_snapshot_and_ends_the_drawing,
         test_ctrl_s_and_ctrl_c_on_the_canvas_take_a_snapshot_and_copy_the_drawing]


def run_on_sway(args):
    """The sway tests, as layer_shell_test.py runs its own: as `nobody` when run as root (sway refuses root)."""
    import layer_shell_test as lt
    if os.getuid() == 0:
        return lt.as_unprivileged(args, script=os.path.join("Tests", "overlay", "snapshot_test.py"), extra=("--sway",))
    args.scratch = tempfile.mkdtemp(prefix="stylus-snapshot-fixture-")
    ot.ARGS = args
    try:
        lt.build_pointer(args.scratch)
        import snapshot_sway
        return run_tests("snapshot-sway", snapshot_sway.TESTS, args.only)
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


def main():
    parser = ot.canvas_arguments()
    parser.add_argument("--no-install", action="store_true")
    parser.add_argument("--sway", action="store_true", help="the tests on headless sway (screencopy, grim) instead of X11")
    ot.ARGS = parser.parse_args()
    if ot.ARGS.sway:
        return run_on_sway(ot.ARGS)
    ot.ARGS.scratch = tempfile.mkdtemp(prefix="stylus-snapshot-fixture-")
    if not ot.ARGS.no_install:
        ot.PACKAGES = ot.PACKAGES + PACKAGES
        ot.install_missing()
    for path in (os.path.join(ot.ARGS.bin, "stylusd"), os.path.join(ot.ARGS.bin, "stylusctl"), ot.ARGS.canvas):
        check(os.access(path, os.X_OK), f"{path} is not built")
    ot.DESKTOP_SESSION = Desktop()
    try:
        return run_tests("snapshot", TESTS, ot.ARGS.only)
    finally:
        ot.DESKTOP_SESSION.close()
        shutil.rmtree(ot.ARGS.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
