# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: filter mode's buttons. stylusd grabs the scripted
pen and writes what the desktop should see to a virtual clone; these tests
read the clone's node the way a compositor would: a double press never
reaches it, a single click arrives late by at most the interval, a hold
arrives as a hold, an unbound button passes at once."""
import time

from libevdev import InputEvent as E, EV_ABS, EV_KEY

from harness import GuestStalls, filter_daemon, hover, settle_until
from stylustest import check

INTERVAL_S = 0.5


def finish(pen, d, reader):
    reader.close()
    d.stop()
    pen.destroy()


def test_filter_double_press_never_reaches_the_clone():
    pen, d, clone, reader = filter_daemon()
    try:
        pen.enter()
        # A count of hover frames, not a time: the double press opens the canvas, which takes the clone
        # out of proximity, so these are the motion the clone must see; 0.2 s of them on a loaded
        # host (CI's overlay stages beside the guest) was sometimes fewer than the check wants.
        for _ in range(30):
            pen.x += 1
            pen.frame(E(EV_ABS.ABS_X, pen.x), pause=0.01)
        pen.double_click("BTN_STYLUS", gap=0.3)
        d.wait(lambda e: e["event"] == "double-press", what="double press")
        hover(pen, 0.8)
        check(reader.keys("BTN_STYLUS") == [], f"the clone saw {reader.keys('BTN_STYLUS')}")
        moved = len(reader.abs("ABS_X"))
        check(moved > 10, f"hover motion did not reach the clone: {moved} ABS_X events of 30 hover frames and more")
    finally:
        finish(pen, d, reader)


def test_filter_single_click_arrives_late_by_at_most_the_interval():
    pen, d, clone, reader = filter_daemon()
    stalls = None
    try:
        stalls = GuestStalls()
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.click("BTN_STYLUS", hold=0.25)
        hover(pen, 0.9)
        settle_until(lambda: len(reader.keys("BTN_STYLUS")) >= 2)
        keys = reader.keys("BTN_STYLUS")
        check([v for _, v in keys] == [1, 0], f"clone got {keys}")
        late = keys[0][0] - t0
        print(f"    click reached the clone {late * 1000:.1f} ms after the press (interval {INTERVAL_S * 1000:.0f} ms)"
              f"{stalls.say(t0, keys[0][0], INTERVAL_S)}")
        # Sent once the interval from the press has passed with no second press: not before it
        # (5 ms for the two clocks), and not counted from the release, which the 250 ms hold
        # would put about 250 ms late. The 60 ms margin is the guest's scheduling on a loaded
        # 2-core host (21 ms was seen in CI beside the sanitizer stages); a stall of the emulator
        # itself (295 ms was seen) as the press was written or once the interval ended is
        # measured and allowed on top. A click held until the next event would pass here
        # (hover() writes every 10 ms); the pad case, with no events after its click, catches that.
        allowed = INTERVAL_S + 0.060 + stalls.allowed(t0, keys[0][0], INTERVAL_S)
        check(INTERVAL_S - 0.005 <= late <= allowed, f"{late * 1000:.1f} ms late, {allowed * 1000:.1f} allowed")
    finally:
        if stalls:
            stalls.close()
        finish(pen, d, reader)


def test_filter_hold_arrives_as_a_hold_and_a_button_drag_works():
    pen, d, clone, reader = filter_daemon()
    stalls = None
    try:
        stalls = GuestStalls()
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.press("BTN_STYLUS")
        hover(pen, 1.0)
        t1 = time.monotonic()
        pen.release("BTN_STYLUS")
        hover(pen, 0.2)
        settle_until(lambda: len(reader.keys("BTN_STYLUS")) >= 2)
        keys = reader.keys("BTN_STYLUS")
        check([v for _, v in keys] == [1, 0], f"hold: clone got {keys}")
        stood = stalls.allowed(t0, keys[0][0], INTERVAL_S)
        check(keys[0][0] - t0 < INTERVAL_S + 0.05 + stood and keys[1][0] >= t1 - 0.001,
              f"hold timing {keys} vs {t0}, {t1}{stalls.say(t0, keys[0][0], INTERVAL_S)}")
        print(f"    hold: press after {(keys[0][0] - t0) * 1000:.0f} ms, held {(keys[1][0] - keys[0][0]) * 1000:.0f} ms"
              f"{stalls.say(t0, keys[0][0], INTERVAL_S)}")
        # Button-drag: press, touch 50 ms later: the press goes out before the tip.
        hover(pen, 0.6)
        pen.press("BTN_STYLUS")
        time.sleep(0.05)
        pen.frame(E(EV_ABS.ABS_PRESSURE, 3000), E(EV_KEY.BTN_TOUCH, 1))
        for _ in range(10):
            pen.pressure(0.4)
        pen.frame(E(EV_ABS.ABS_PRESSURE, 0), E(EV_KEY.BTN_TOUCH, 0))
        pen.release("BTN_STYLUS")
        hover(pen, 0.2)

        def drag():
            with reader.lock:
                return [(c, v) for (_, ty, c, v) in reader.events
                        if ty == 1 and c in (EV_KEY.BTN_STYLUS.value, EV_KEY.BTN_TOUCH.value)][2:]
        settle_until(lambda: len(drag()) >= 4)   # press, touch, lift, release
        seq = drag()
        check(seq[:2] == [(EV_KEY.BTN_STYLUS.value, 1), (EV_KEY.BTN_TOUCH.value, 1)], f"drag order {seq}")
    finally:
        if stalls:
            stalls.close()
        finish(pen, d, reader)


def test_filter_unbound_button_passes_at_once():
    pen, d, clone, reader = filter_daemon(buttons=("BTN_STYLUS", "BTN_STYLUS2", "BTN_STYLUS3"))
    stalls = None
    try:
        stalls = GuestStalls()
        pen.enter()
        hover(pen, 0.2)
        t0 = time.monotonic()
        pen.click("BTN_STYLUS3", hold=0.08)
        hover(pen, 0.2)
        keys = reader.keys("BTN_STYLUS3")
        check([v for _, v in keys] == [1, 0], f"clone got {keys}")
        print(f"    unbound press reached the clone {(keys[0][0] - t0) * 1000:.1f} ms after it was written"
              f"{stalls.say(t0, keys[0][0])}")
        check(keys[0][0] - t0 < 0.05 + stalls.allowed(t0, keys[0][0]), f"{(keys[0][0] - t0) * 1000:.1f} ms")
    finally:
        if stalls:
            stalls.close()
        finish(pen, d, reader)
