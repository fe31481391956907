# SPDX-License-Identifier: MIT
"""snapshot_test.py's checks on Wayland (`snapshot_test.py --sway`): on headless
sway the snapshot taken with zwlr_screencopy against grim's screenshot, and the
clipboard held through zwlr_data_control as wl-paste reads it, in
layer_shell_test.py's session; on weston (wayland_smoke.py's), which lets no
client read the screen nor hold a clipboard without focus, a snapshot of the
ink alone that says so, and `copy` refused naming what is missing."""
import os
import subprocess
import tempfile

import layer_shell_test as lt
import overlay_test as ot
from overlay_test import WIDTH, HEIGHT, check
from snapshot_test import PALETTE_ALWAYS, check_pasted_is_the_export, png_size, snapshot_against, snapshot_of_the_ink_alone, stylusctl


def test_on_sway_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette():
    """Headless sway (layer_shell_test.py's session): the snapshot, taken with
    zwlr_screencopy, agrees with grim's screenshot on >= 99 % of the pixels outside the
    palette, shows sway's background under the palette, and holds the ink."""
    with lt.Session(config=PALETTE_ALWAYS) as w:
        shot = snapshot_against(w.stack, w.sway.screenshot, "grim", pauses=(0.5, 0.3))
        print(f"  {shot.outside:.2%} of {shot.n} pixels agree with grim; the palette's {shot.m} pixels are the background; "
              f"{shot.inked} points inked", flush=True)


def wl_paste(env, *argv):
    """What `wl-paste ARGV` prints (bytes), or None when it says the clipboard is empty; at most 5 s."""
    r = subprocess.run(["wl-paste", "--no-newline", *argv], env=env, capture_output=True, timeout=5)
    return r.stdout if r.returncode == 0 else None


def test_on_sway_copy_puts_the_exported_png_on_the_clipboard_until_replaced_and_through_a_minimize():
    """`stylusctl copy` on headless sway: wl-paste (wl-clipboard) gives back export's PNG as
    image/png; it stays through an opening and a minimize; `copy --snapshot` on the open canvas
    replaces it with the screen; once the canvas ends, wl-paste finds the clipboard empty."""
    os.environ["STYLUSD_RENDERER"] = ot.ARGS.canvas   # export draws its PNG with the canvas's renderer, as the copy does
    with lt.Session() as w:
        s, env = w.stack, w.sway.env
        r = stylusctl(s, "copy")
        check(r.returncode == 0 and "copied to the clipboard" in r.stdout, f"stylusctl copy: {r.returncode} {r.stdout} {r.stderr}")
        types = (wl_paste(env, "--list-types") or b"").decode().split()
        check("image/png" in types, f"the clipboard offers {types}")
        pasted = wl_paste(env, "--type", "image/png")
        same = check_pasted_is_the_export(s, pasted)
        s.open_and_wait()
        s.minimize_and_wait()
        check(wl_paste(env, "--type", "image/png") == pasted, "the clipboard changed when the canvas opened and minimized")
        s.open_and_wait()
        r = stylusctl(s, "copy", "--snapshot")
        check(r.returncode == 0, f"stylusctl copy --snapshot: {r.returncode} {r.stdout} {r.stderr}")
        later = wl_paste(env, "--type", "image/png")
        check(later and png_size(later) == (WIDTH, HEIGHT) and later != pasted,
              f"after copy --snapshot the clipboard holds {png_size(later) if later else None}")
        s.overlay.terminate()
        s.overlay.wait(5)
        gone = wl_paste(env, "--type", "image/png")
        check(gone is None, f"the clipboard still holds {len(gone or b'')} bytes after the canvas ended")
        print(f"  the drawing ({png_size(pasted)[0]}×{png_size(pasted)[1]}, {'the same bytes' if same else 'the same pixels'} as export) "
              "held through a minimize, replaced by a snapshot, gone with the canvas", flush=True)


def test_on_weston_a_snapshot_holds_the_ink_only_and_says_why():
    import wayland_smoke as ws
    with tempfile.TemporaryDirectory(prefix="stylus-canvas-wayland-") as runtime:
        os.chmod(runtime, 0o700)
        weston = ws.Weston(runtime, False)
        desktop = ot.Desktop.__new__(ot.Desktop)   # Stack needs only .env and .screenshot from its desktop
        desktop.env = dict(weston.env)
        desktop.screenshot = weston.screenshot
        try:
            with ot.private_directory("stylus-canvas-test-") as root:
                s = ot.Stack(ot.ARGS, desktop, root, (), replay=False, state=ot.drawn_state())
                try:
                    strokes = s.request("strokes")["strokes"]
                    s.open_and_wait()
                    inked, n, clear = snapshot_of_the_ink_alone(s, os.path.join(root, "shot.png"), strokes, "no screen capture")
                    r = stylusctl(s, "copy")
                    check(r.returncode != 0 and "zwlr_data_control" in r.stderr, f"copy on weston: {r.returncode} {r.stdout} {r.stderr}")
                    print(f"  the ink alone ({inked} of {n} points, {clear:.0%} transparent), "
                          "and the answer says why", flush=True)
                finally:
                    s.close()
        finally:
            weston.close()


TESTS = [test_on_sway_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette,
         test_on_sway_copy_puts_the_exported_png_on_the_clipboard_until_replaced_and_through_a_minimize,
         test_on_weston_a_snapshot_holds_the_ink_only_and_says_why]
