#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`exec:COMMAND` bindings in a running daemon, driven by a replayed
recording of double presses (no hardware): each double press starts the
command once, a command still running is not started again for the same
button (the double press says so), and no zombie is left after 100. Also
`preset:NAME`, which changes what `status` says, and `key:`/`click:` where
/dev/uinput cannot be opened (the host; hil/ tests them where it can): the
config loads, and `status` and the double press say why and the fix.
Prints 'N passed, N failed'.

    python3 Tests/actions/actions_test.py --bin .build-static/release [--only NAME]"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import stylustest  # noqa: E402
from daemon import Daemon  # noqa: E402
from stylustest import check  # noqa: E402
PEN = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
BIN = None
BTN_STYLUS2 = 0x14C


def recording(root, presses, lead_in=1.5):
    """An evemu recording of the 22HDT pen: in proximity, then BTN_STYLUS2
    pressed at each time in `presses` (seconds after `lead_in`) for 60 ms.
    Returns its path. The lead-in lets a test subscribe before the first press."""
    with open(PEN) as f:
        header = [line for line in f if not line.startswith("E:")]
    t0 = 1000.0
    lines = []

    def frame(t, *events):
        for kind, code, value in events:
            lines.append(f"E: {t:.6f} {kind:04x} {code:04x} {value}\n")
        lines.append(f"E: {t:.6f} 0000 0000 0\n")

    frame(t0, (1, 0x140, 1), (3, 0, 50000), (3, 1, 20000), (3, 0x19, 30))   # BTN_TOOL_PEN in proximity
    for p in presses:
        t = t0 + lead_in + p
        frame(t, (1, BTN_STYLUS2, 1))
        frame(t + 0.06, (1, BTN_STYLUS2, 0))
    last = t0 + lead_in + (presses[-1] if presses else 0) + 0.5
    frame(last, (3, 0, 50001))
    path = os.path.join(root, "presses.events")
    with open(path, "w") as f:
        f.writelines(header + lines)
    return path


def double_presses(count, every, gap=0.25):
    """`count` double presses (two presses `gap` s apart), one every `every` s."""
    return [i * every + g for i in range(count) for g in (0, gap)]


def daemon(root, config, *args, env=None):
    os.makedirs(os.path.join(root, "config", "stylusd"), exist_ok=True)
    with open(os.path.join(root, "config", "stylusd", "config.toml"), "w") as f:
        f.write(config)
    return Daemon([os.path.join(BIN, "stylusd")], root, *args, env=env)


def wait_for(predicate, what, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise stylustest.Failure(f"timed out waiting for {what}")


def lines_of(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def children(pid):
    """(pid, state) of every process whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            found.append((int(entry), fields[0]))
    return found


def double_press_events(client, count, timeout=20):
    events = []
    end = time.monotonic() + timeout
    client.sock.settimeout(timeout)
    while len(events) < count and time.monotonic() < end:
        e = client.next_event()
        if e.get("event") == "double-press":
            events.append(e)
    check(len(events) == count, f"{len(events)} double-press events, expected {count}: {events}")
    return events


def test_each_double_press_runs_the_command_once(root):
    out = os.path.join(root, "ran")
    replay = recording(root, double_presses(5, every=0.6))
    with daemon(root, f'[bindings]\nBTN_STYLUS2 = "exec:echo pressed >> {out}; echo to-stdout; echo to-stderr >&2; '
                      f'echo notify=$NOTIFY_SOCKET; echo home=$STYLUSD_TEST_HOME"\n',
                "--replay", replay, env={"NOTIFY_SOCKET": "@not-for-commands", "STYLUSD_TEST_HOME": "kept"}) as d:
        c = d.connect()
        c.request("subscribe", topics=["double-press"])
        events = double_press_events(c, 5)
        check(all(e["outcome"] == "applied" and e["action"].startswith("exec:echo pressed") for e in events), f"{events}")
        wait_for(lambda: len(lines_of(out)) >= 5 and sum("ended: exit status 0" in l for l in d.log) >= 5, "five commands")
        time.sleep(0.3)
        check(lines_of(out) == ["pressed"] * 5, f"ran {lines_of(out)}")
        # The commands write to the daemon's standard error, its log, between its own lines about them.
        check(d.log.count("to-stdout") == 5, f"stdout not in the log: {d.log}")
        check(d.log.count("to-stderr") == 5, f"stderr not in the log: {d.log}")
        check(d.log.count("notify=") == 5, f"NOTIFY_SOCKET reached a command: {d.log}")
        check(d.log.count("home=kept") == 5, f"the environment did not reach the commands: {d.log}")
        check(sum(re.search(r"exec BTN_STYLUS2 \(pid \d+\): started: echo pressed", l) is not None for l in d.log) == 5, f"{d.log}")


def test_a_running_command_is_not_started_again_and_the_double_press_says_why(root):
    out = os.path.join(root, "ran")
    # Three double presses 0.6 s apart while the first command sleeps 2.5 s, then one after it ended.
    replay = recording(root, double_presses(3, every=0.6) + [5.0, 5.25])
    with daemon(root, f'[bindings]\nBTN_STYLUS2 = "exec:echo start >> {out}; sleep 2.5; echo end >> {out}"\n', "--replay", replay) as d:
        c = d.connect()
        c.request("subscribe", topics=["double-press"])
        events = double_press_events(c, 4)
        outcomes = [e["outcome"] for e in events]
        check(outcomes == ["applied", "ignored", "ignored", "applied"], f"{events}")
        for e in events[1:3]:
            check("still running" in e["reason"] and "one runs at a time per button" in e["reason"], f"{e}")
        # The last double press's event goes out once its shell is spawned, before it has run `echo`.
        wait_for(lambda: lines_of(out)[:3] == ["start", "end", "start"], f"start, end, start in {out}")
        check(any("ignored: the last command of BTN_STYLUS2" in l for l in d.log), f"{d.log}")


def test_a_command_outlives_a_daemon_that_stops(root):
    out = os.path.join(root, "ran")
    replay = recording(root, double_presses(1, every=1))
    # It writes after the daemon is gone: no pipe to the daemon kills it with SIGPIPE, no stop kills it.
    with daemon(root, f'[bindings]\nBTN_STYLUS2 = "exec:sleep 1; echo still-here; echo after-stop >> {out}"\n', "--replay", replay) as d:
        d.wait_log("started: sleep 1")
        check(d.stop() == 0, "no clean stop")
    wait_for(lambda: lines_of(out) == ["after-stop"], "the command to finish after the daemon stopped", timeout=5)


def test_no_zombie_after_a_hundred_double_presses(root):
    out = os.path.join(root, "ran")
    # Recorded 0.3 s apart and played three times as fast: a double press every 100 ms.
    replay = recording(root, double_presses(100, every=0.3, gap=0.12))
    with daemon(root, f'[bindings]\nBTN_STYLUS2 = "exec:echo x >> {out}"\n', "--replay", replay, "--speed", "3") as d:
        wait_for(lambda: any("ended; the recorded pen stays" in l for l in d.log), "the end of the replay", timeout=60)
        # Under load a shell may still be starting when the next double press comes: that one is
        # ignored, as a running command's is. Every double press either started one or was ignored so.
        def counts():
            started = sum("started: echo x" in l for l in d.log)
            ignored = sum("ignored: the last command of BTN_STYLUS2" in l for l in d.log)
            ended = sum("ended: exit status 0" in l for l in d.log)
            return started, ignored, ended
        wait_for(lambda: counts()[0] + counts()[1] >= 100 and counts()[2] >= counts()[0], "a hundred double presses handled")
        time.sleep(0.5)
        started, ignored, ended = counts()
        print(f"    {started} commands started and reaped, {ignored} double presses ignored while one ran")
        check(started + ignored == 100 and ended == started == len(lines_of(out)) and started >= 50,
              f"started {started}, ignored {ignored}, ended {ended}, ran {len(lines_of(out))}")
        left = children(d.proc.pid)
        check(not left, f"processes left under the daemon: {left}")


def test_a_preset_double_press_switches_the_running_preset(root):
    replay = recording(root, double_presses(1, every=1))
    with daemon(root, 'debounce_ms = 20\n[bindings]\nBTN_STYLUS2 = "preset:accessibility"\n', "--replay", replay) as d:
        c = d.connect()
        before = c.request("status")["result"]["config"]
        check(before["preset"] == "default" and before["interval_ms"] == 500, f"{before}")
        c.request("subscribe", topics=["double-press"])
        events = double_press_events(c, 1)
        check(events[0]["action"] == "preset:accessibility" and events[0]["outcome"] == "applied", f"{events}")
        after = c.request("status")["result"]["config"]
        check(after["preset"] == "accessibility" and after["interval_ms"] == 900 and after["transition_ms"] == 600, f"{after}")
        check(after["debounce_ms"] == 20, f"the file's own debounce_ms stays: {after}")
        check(any(b == {"button": "BTN_STYLUS2", "action": "preset:accessibility"} for b in after["bindings"]), f"{after}")


def test_key_and_click_without_uinput_load_and_say_why_with_the_fix(root):
    if os.access("/dev/uinput", os.W_OK):
        print("    SKIPPED: /dev/uinput is writable here; hil/ tests key: and click: against it")
        return
    replay = recording(root, double_presses(2, every=0.8) + [1.6, 1.85])
    config = '[bindings]\nBTN_STYLUS2 = "key:CTRL+Z"\npad-1 = "click:right"\n'
    with daemon(root, config, "--replay", replay) as d:
        c = d.connect()
        bindings = c.request("status")["result"]["config"]["bindings"]
        by_button = {b["button"]: b for b in bindings}
        check(by_button["BTN_STYLUS2"]["action"] == "key:LEFTCTRL+Z", f"{bindings}")
        for b in (by_button["BTN_STYLUS2"], by_button["pad-1"]):
            check("/dev/uinput" in b.get("unavailable", "") and ("modprobe uinput" in b["unavailable"] or "udev" in b["unavailable"]),
                  f"no reason with the fix: {b}")
        c.request("subscribe", topics=["double-press"])
        events = double_press_events(c, 1)
        check(events[0]["outcome"] == "ignored" and "no virtual keyboard" in events[0]["reason"] and "/dev/uinput" in events[0]["reason"], f"{events}")
        text = subprocess.run([os.path.join(BIN, "stylusctl"), "status"], env=d.env, capture_output=True, text=True).stdout
        check("binding    BTN_STYLUS2 = key:LEFTCTRL+Z (not available: no virtual keyboard: /dev/uinput" in text, text)
        check(any("key: and click: bindings cannot work" in l for l in d.log), f"{d.log}")


def use_binaries(folder):
    global BIN
    BIN = folder


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("actions (exec, preset, key and click without uinput)", [
        test_each_double_press_runs_the_command_once,
        test_a_running_command_is_not_started_again_and_the_double_press_says_why,
        test_a_command_outlives_a_daemon_that_stops,
        test_no_zombie_after_a_hundred_double_presses,
        test_a_preset_double_press_switches_the_running_preset,
        test_key_and_click_without_uinput_load_and_say_why_with_the_fix,
    ], "stylusd-actions-", use_binaries))
