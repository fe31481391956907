# SPDX-License-Identifier: MIT
"""snapshot_test.py's checks on headless sway (`snapshot_test.py --sway`): the
snapshot taken with zwlr_screencopy against grim's screenshot, in
layer_shell_test.py's session."""
import os
import time

import layer_shell_test as lt
from overlay_test import check
from snapshot_test import PALETTE_ALWAYS, check_snapshot_pixels, stylusctl


def test_on_sway_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette():
    """Headless sway (layer_shell_test.py's session): the snapshot, taken with
    zwlr_screencopy, agrees with grim's screenshot on >= 99 % of the pixels outside the
    palette, shows sway's background under the palette, and holds the ink."""
    with lt.Session(config=PALETTE_ALWAYS) as w:
        s = w.stack
        strokes = s.request("strokes")["strokes"]
        below = w.sway.screenshot()
        since = time.monotonic()
        s.open_and_wait()
        s.wait_overlay("palette: 18 regions reported", 5, since)
        time.sleep(0.5)
        out = os.path.join(w.root, "shot.png")
        r = stylusctl(s, "snapshot", out)
        check(r.returncode == 0 and "the screen with the ink" in r.stdout, f"stylusctl snapshot: {r.returncode} {r.stdout} {r.stderr}")
        time.sleep(0.3)
        screen = w.sway.screenshot()
        outside, n, m, inked = check_snapshot_pixels(out, screen, below, strokes, "grim")
        r = stylusctl(s, "copy")
        check(r.returncode != 0 and "Wayland" in r.stderr, f"copy on sway: {r.returncode} {r.stdout} {r.stderr}")
        print(f"  {outside:.2%} of {n} pixels agree with grim; the palette's {m} pixels are the background; "
              f"{inked} points inked", flush=True)


TESTS = [test_on_sway_a_snapshot_is_the_screen_with_the_ink_and_without_the_palette]
