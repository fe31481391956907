#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The GNOME Shell extension stylus-canvas@stylusd in one headless GNOME Shell (1280x800,
llvmpipe), the shell of Tests/overlay/gnome_shell_test.py: 43 with the 43 variant here, 48
with --extension .build-gnome/45/... in the Debian 13 root (Tests/desktops/run.sh bench-gnome):

- toggle -> first frame: `toggle` on the daemon's socket (CLOCK_MONOTONIC before the
  request) -> the end of the first stage paint in which the canvas actor is visible at an
  opacity above 0 (the fade-in's first frame, the recording's strokes already in it),
  stamped inside the shell on the same clock by a frame probe added to the suite's test
  helper (the stage's after-paint signal; headless, the painted frame is what a screenshot
  reads). Also: request -> the extension's own "presented" log line (it has the event and
  queued the frame). Then the same over 500 strokes across the screen, whose tiles that
  first frame paints (a minimized canvas keeps none).
- open: what the shell holds with the canvas open over 16 and 500 strokes and no pen,
  against it minimized (the extension's tiles at rest; held as below).
- memory: gnome-shell's VmRSS (median of 5 samples 0.5 s apart) started with the extension
  and never shown, first opened with the strokes drawn, open again after the toggles, and
  after `gnome-extensions disable stylus-canvas@stylusd` (the subtraction the issue asks
  for; gnome-shell gives little back on a disable, so it is a floor, not the cost); and
  over each inking session and, for reference, over 15 s of an animating client window
  (weston-simple-shm) with the canvas minimized: before, after, held while the canvas is
  still open and drawn (inking only), and held once minimized (after glibc returned its
  freed pages: GJS's garbage collected, then malloc_trim(0) called in the shell through gdb, also before
  each, when gdb is installed; pointer moves first make the shell draw, which gives back what
  its last frames, the suite's screenshots, held). llvmpipe rasterizes on the shell's own thread
  (LP_NUM_THREADS=0): its rasterizer threads queue frames when they fall behind, up to 64
  kept for good, which made the shell's memory differ by up to 290 MiB between runs here.
- idle: gnome-shell's context switches (the threads alive at both ends) and CPU time, two
  5 s windows after 3 s of quiet, canvas minimized and open with no pen, against the same
  shell with the extension disabled (the Shell's own wakeups).
- inking: gnome-shell's CPU time per pen segment over section 9's generated session (30
  strokes at 200 samples/s, replayed by stylusd at the recorded pace), drawn over the
  recording's 16 strokes, over 500 strokes of 10 000 points, and over the 16 again.

A part that cannot be measured says why; the bench never fails. Run as root it runs
itself again as `nobody`, like the suite.

    python3 bench/gnome_bench.py [--bin DIR] [--canvas FILE] [--extension DIR] [--rounds 30]
"""
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "overlay"))   # the suites measured; overlay_test puts Tests/support there too
import gnome_shell_test as gst  # noqa: E402
import layer_shell_bench as lsb  # noqa: E402
import layer_shell_test as lt  # noqa: E402
import overlay_bench as ob  # noqa: E402
import overlay_test as ot  # noqa: E402
from measures import percentile, rss_kib  # noqa: E402
SHELL = None

# The suite's helper with a frame probe: after each stage paint in which the canvas's
# visibility changed, one line stamped with CLOCK_MONOTONIC in µs (GLib's monotonic time).
PROBE = """
class TestHelper extends TestHelperBase {
    enable() {
        super.enable();
        this.showing = false;
        this.paintId = global.stage.connect('after-paint', () => {
            const showing = Main.layoutManager.uiGroup.get_children().some(
                a => a.name === 'stylus-canvas' && a.visible && a.opacity > 0);
            if (showing !== this.showing)
                log(`stylus-bench-probe: [${GLib.get_monotonic_time()} us] painted ${showing ? 'with' : 'without'} the canvas`);
            this.showing = showing;
        });
    }

    disable() {
        global.stage.disconnect(this.paintId);
        super.disable();
    }

    // gc -> "ok" once GJS collected its garbage: what the shell holds, not what waits
    // for the collector's own time. tiles -> "ok" after logging the canvas's finished
    // and live tiles per monitor.
    run([command, ...args], answer) {
        if (command === 'tiles') {
            const boxes = Main.layoutManager.uiGroup.get_children().filter(a => a.name === 'stylus-canvas');
            log(`stylus-bench-probe: tiles ${boxes.map(b => b.get_children().slice(0, 2).map(g => g.get_n_children()).join('+')).join(', ')}`);
            answer('ok');
            return;
        }
        if (command !== 'gc')
            return super.run([command, ...args], answer);
        GC_CALL;
        answer('ok');
    }
}
"""


def probe_helper(scratch):
    """A copy of the suite's Tests/overlay/gnome folder whose helper is PROBE over the suite's:
    its class renamed, so the suite's init() (or, on GNOME 45 and later, the default export
    gnome_shell_test.install_helper makes of it) creates the probe."""
    here = os.path.join(scratch, "probe")
    shutil.copytree(os.path.join(gst.HERE, "gnome"), os.path.join(here, "gnome"))
    path = os.path.join(here, "gnome", gst.HELPER, "extension.js")
    with open(path) as f:
        code = f.read()
    ot.check("class TestHelper {" in code, "the suite's helper no longer declares class TestHelper")
    code = code.replace("class TestHelper {", "class TestHelperBase {", 1)
    # An ES module (GNOME 45 and later) has no `imports`, and the conversion refuses any left.
    if gst.shell_major() >= 45:
        code = "import System from 'system';\n" + code + PROBE.replace("GC_CALL", "System.gc()")
    else:
        code += PROBE.replace("GC_CALL", "imports.system.gc()")
    with open(path, "w") as f:
        f.write(code)
    return here


def shell_pid():
    """gnome-shell: the child of the suite's dbus-run-session."""
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                with open(f"/proc/{stat}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{stat}/comm") as f:
                    comm = f.read().strip()
            except OSError:
                continue
            if comm == "gnome-shell" and int(fields[1]) == SHELL.proc.pid:
                return int(stat)
    raise ot.Failure("no gnome-shell process under the session")


def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def rss_mib(pid, samples=5):
    values = []
    for _ in range(samples):
        values.append(rss_kib(pid) / 1024)
        time.sleep(0.5)
    return statistics.median(values), min(values), max(values)


def switches_by_thread(pid):
    """{thread: voluntary + involuntary switches}: the lines bench/layer_shell_bench.py sums."""
    counts = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                counts[tid] = sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
        except OSError:
            pass
    return counts


def idle(pid, seconds=5.0):
    """Context switches of the threads alive at both ends (llvmpipe's workers come and go; one
    that exits would take its count with it) and the process's CPU time, over `seconds`."""
    before, cpu = switches_by_thread(pid), cpu_ms(pid)
    time.sleep(seconds)
    after = switches_by_thread(pid)
    return sum(after[t] - before[t] for t in before if t in after), cpu_ms(pid) - cpu


def idle_runs(pid):
    """Two 5 s windows after 3 s of quiet: the shell's threads that wind down after activity
    (and a thread that exits takes its switches with it) land in the pause, not the figure."""
    time.sleep(3)
    return [idle(pid) for _ in range(2)]


def stamp_after(text, since, timeout=3.0):
    """The first log line holding `text` received after `since`: its [N us] or [N ms] stamp, in s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for received, line in list(SHELL.log):
            if received >= since and text in line:
                value, unit = re.search(r"\[(\d+) (us|ms)\]", line).groups()
                stamp = int(value) / (1e6 if unit == "us" else 1e3)
                if stamp >= since - 0.002:   # the extension's stamps are whole ms
                    return stamp
        time.sleep(0.005)
    raise ot.Failure(f"no {text!r} in the shell's log within {timeout} s")


def bench_toggle(args, pid, report):
    toggle_latency(args, pid, report)
    # Minimized, the canvas keeps no tile's pixels: a large drawing's first frame paints them all.
    toggle_latency(args, pid, None, state=many_strokes_state(args.scratch))


def toggle_latency(args, pid, report, state=None):
    """Toggle -> first frame over `state`'s strokes; with a `report`, also the memory and
    the idle wakeups of the open and the minimized canvas."""
    with gst.Daemon(state=state) as d:
        strokes = d.request("strokes")["strokes"]
        d.open_and_wait()      # the first opening: not measured
        if report is not None:
            report["rss first open"] = rss_mib(pid)
        d.minimize_and_wait()
        client = ot.Client(d.socket)
        state = lambda: client.request("status")["result"]["canvas"]["state"]
        painted, presented = [], []
        try:
            for round_ in range(args.rounds + 1):
                started = time.monotonic()
                client.request("toggle")
                painted.append((stamp_after("painted with the canvas", started) - started) * 1000)
                presented.append((stamp_after("presented", started) - started) * 1000)
                ot.check(lsb.wait_until(lambda: state() == "open"), "not open")
                if round_ == args.rounds and report is not None:
                    gst.settle()
                    report["rss open"] = rss_mib(pid)
                    report["idle open"] = idle_runs(pid)
                since = time.monotonic()
                client.request("toggle")
                ot.check(lsb.wait_until(lambda: state() == "minimized"), "not minimized")
                stamp_after("painted without the canvas", since)
            if report is not None:
                time.sleep(0.5)
                report["idle minimized"] = idle_runs(pid)
        finally:
            client.close()
        painted, presented = painted[:-1], presented[:-1]
        points = sum(len(t["points"]) for t in strokes)
        print(f"stylus-canvas@stylusd (GNOME Shell {gst.shell_major()} headless): toggle -> first stage paint with the canvas, "
              f"{len(painted)} toggles, {len(strokes)} strokes ({points} points): p50 {percentile(painted, 50):.1f} ms, "
              f"p99 {percentile(painted, 99):.1f} ms, max {max(painted):.1f} ms; toggle -> the extension's 'presented' "
              f"p50 {percentile(presented, 50):.1f} ms, p99 {percentile(presented, 99):.1f} ms", flush=True)


def many_strokes_state(scratch, strokes=500, points=20):
    """A state file (version 2) of `strokes` pen strokes of `points` points each, spread over the screen."""
    rng = random.Random(25)

    def stroke():
        x, y = rng.uniform(0.05, 0.85), rng.uniform(0.1, 0.9)
        xs = [x + 0.005 * i for i in range(points)]
        ys = [y + 0.02 * rng.random() for _ in range(points)]
        return {"device": 1, "tool": "pen", "color": "#d61a1c", "width": 8, "x": xs, "y": ys,
                "pressure": [0.6] * points, "tilt_x": [0.0] * points, "tilt_y": [0.0] * points,
                "time_us": [1_000_000 + 5_000 * i for i in range(points)]}
    path = os.path.join(scratch, "many.json")
    with open(path, "w") as f:
        json.dump({"canvas": "minimized", "precision_enabled": False, "version": 2,
                   "style": {"tool": "pen", "color": "#d61a1c", "width": 8},
                   "strokes": [stroke() for _ in range(strokes)]}, f)
    return path


class ReplayDaemon(gst.Daemon):
    """The suite's daemon replaying section 9's generated session at its recorded pace, over the
    state file the suite's daemon copies (its own `recording` replays without one)."""
    session = None

    def arguments(self):
        return ["--socket", self.socket, "--state-file", self.state_file, "--transition-ms", "2000",
                "--replay", self.session, "--speed", "1"]


def trimmed_mib(pid):
    """gnome-shell's VmRSS once it drew a few ordinary frames and glibc has returned the pages
    it freed (malloc_trim(0) through gdb) after GJS collected its garbage (the probe's `gc`),
    or None without gdb: what the shell still holds, not
    what it once reached. An idle shell draws nothing, and what its last frames drew from
    (after the suite's screenshots: settle() takes two or more) stays until it draws again:
    the first frame after them gave back 8 to 13 MiB, so that a reference taken without one
    was 193 or 201 MiB from run to run. Eight pointer moves (at the bottom of the screen,
    over the desktop) make it draw first."""
    if not shutil.which("gdb"):
        return None
    collected_mib(pid)
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int)malloc_trim(0)"],
                   capture_output=True, timeout=60)
    return rss_kib(pid) / 1024


def collected_mib(pid):
    """gnome-shell's VmRSS once GJS collected its garbage and the shell drew a few frames,
    untrimmed: the part of trimmed_mib a system without gdb (the Debian 13 root) gives."""
    # Collected first: GObjects whose JS wrappers the collector drops are freed in the
    # main loop's later turns, which the moves give it.
    SHELL.command("gc")
    for i in range(8):
        SHELL.command(f"move {gst.WIDTH // 2 + i % 2} {gst.HEIGHT - 8}")
        time.sleep(0.05)
    return rss_kib(pid) / 1024


def rss_by_kind(pid):
    """Where gnome-shell's resident memory lies (MiB): glibc's main heap, anonymous maps
    (other malloc arenas and big blocks, llvmpipe's), shared buffers (memfd, /dev/shm: the
    clients' and the Shell's Wayland buffers) and files."""
    kinds = {"heap": 0, "anonymous": 0, "shared buffers": 0, "files": 0}
    kind = "files"
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if not head:
                continue
            if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
                name = " ".join(head[5:])
                kind = ("heap" if name == "[heap]" else "anonymous" if name == "" or name.startswith("[anon")
                        else "shared buffers" if "memfd:" in name or name.startswith("/dev/shm") or name.startswith("/SYSV")
                        else "anonymous" if name.startswith("[") else "files")
            elif head[0] == "Rss:":
                kinds[kind] += int(head[1])
    return {k: v / 1024 for k, v in kinds.items()}


def kind_row(kinds):
    return ", ".join(f"{k} {v:.1f}" for k, v in kinds.items())


def memory_row(rss, held, held_open=None, later="10 s later"):
    row = f"gnome-shell VmRSS before {rss[0]:.1f}, after {rss[1]:.1f} ({rss[1] - rss[0]:+.1f}), {later} {rss[2]:.1f} MiB"
    if None not in held:
        if held_open is not None:
            row += f", held open {held_open - held[0]:+.1f} MiB ({held_open:.1f} after malloc_trim)"
        row += f", held {held[1] - held[0]:+.1f} MiB ({held[0]:.1f} -> {held[1]:.1f} after malloc_trim)"
    return row


def ink_cost(pid, state, segments):
    """gnome-shell's CPU time from the session's first tip-down to 0.5 s after its last stroke ended,
    and its memory: held while the canvas is still open and drawn (the issue's "open and drawn"),
    then held once it is minimized (the tiles' pixels dropped, the strokes kept)."""
    held = [trimmed_mib(pid)]
    rss = [rss_kib(pid) / 1024]
    with ReplayDaemon(state=state) as d:
        before = len(d.request("strokes")["strokes"])
        points = sum(len(t["points"]) for t in d.request("strokes")["strokes"])
        d.watcher.wait(lambda e: e["event"] == "canvas" and e["state"] == "open", 15, "the double press opening the canvas")
        deadline = time.monotonic() + 15
        while not any(p.get("tip") for p in list(d.watcher.pens)):
            ot.check(time.monotonic() < deadline, "no tip-down in the session")
            time.sleep(0.002)
        cpu, started = cpu_ms(pid), time.monotonic()
        d.watcher.wait(lambda e: e["event"] == "stroke" and e["index"] >= before + ob.INK_ROWS - 1, 60,
                       "the session's last stroke")
        time.sleep(0.5)
        spent, wall = cpu_ms(pid) - cpu, time.monotonic() - started
        rss.append(rss_kib(pid) / 1024)
        # As long as after minimizing: what the session's frames and events left (GJS
        # collects its garbage on its own time) is not the open canvas's to hold.
        time.sleep(10)
        held_open = trimmed_mib(pid)
        asked = time.monotonic()
        SHELL.command("tiles")
        time.sleep(0.2)
        tiles = [l.split("tiles ", 1)[1] for t, l in list(SHELL.log) if t >= asked and "stylus-bench-probe: tiles" in l][-1:]
        if held_open is not None:
            print(f"  held open: {kind_row(rss_by_kind(pid))} MiB; tiles finished+live {tiles}", flush=True)
        d.minimize_and_wait()
        time.sleep(10)
        rss.append(rss_kib(pid) / 1024)
    held.append(trimmed_mib(pid))
    if held[-1] is not None:
        print(f"  held minimized: {kind_row(rss_by_kind(pid))} MiB", flush=True)
    return before, points, spent, wall, spent / segments, rss, held, held_open


def bench_ink(args, pid, report):
    recording = os.path.join(args.scratch, "ink.events")
    segments = ob.ink_recording(recording)
    ReplayDaemon.session = recording
    rows = []
    # The first session also pays for the memory gnome-shell grows then (page faults): the 16
    # strokes again after the many is the comparison.
    for state in (ot.drawn_state(), many_strokes_state(args.scratch), ot.drawn_state()):
        before, points, spent, wall, per, rss, held, held_open = ink_cost(pid, state, segments)
        rows.append(f"over {before} strokes ({points} points) {per:.2f} ms per segment ({spent:.0f} ms CPU in {wall:.1f} s; "
                    f"{memory_row(rss, held, held_open, later='minimized, 10 s later')})")
    print(f"stylus-canvas@stylusd inking: gnome-shell CPU per pen segment, {segments} segments in {ob.INK_ROWS} strokes "
          f"at 200/s: " + "; ".join(rows), flush=True)


def bench_open(args, pid, report):
    """What an open canvas holds with a drawing and no inking (opened by `open`, 10 s,
    then trimmed), against the same canvas minimized: the extension's tiles at rest."""
    rows = []
    # Without gdb, untrimmed: glibc may keep freed pages, so the figures are an upper bound.
    held_mib, how = (trimmed_mib, "GJS collected, malloc_trim") if shutil.which("gdb") else \
        (collected_mib, "GJS collected, not trimmed: no gdb")
    for name, state in (("16 strokes", ot.drawn_state()), ("500 strokes", many_strokes_state(args.scratch))):
        with gst.Daemon(state=state) as d:
            time.sleep(3)
            held = [held_mib(pid)]
            d.open_and_wait()
            time.sleep(10)
            held.append(held_mib(pid))
            opened = rss_by_kind(pid)
            d.minimize_and_wait()
            time.sleep(10)
            held.append(held_mib(pid))
            rows.append(f"{name}: open {held[1] - held[0]:+.1f} MiB ({kind_row(opened)}), "
                        f"minimized again {held[2] - held[0]:+.1f} MiB ({kind_row(rss_by_kind(pid))})")
    print(f"stylus-canvas@stylusd at rest: what gnome-shell holds ({how}) over the canvas minimized "
          "before: " + "; ".join(rows), flush=True)


def bench_reference(args, pid, report):
    """What the Shell's own compositing costs: 15 s of a client window redrawn at every frame
    (weston-simple-shm), the canvas minimized, as long as an inking session."""
    if not shutil.which("weston-simple-shm"):
        raise ot.Failure("no weston-simple-shm (weston's clients)")
    held = [trimmed_mib(pid)]
    rss = [rss_kib(pid) / 1024]
    client = subprocess.Popen(["weston-simple-shm"], env=SHELL.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(15)
        rss.append(rss_kib(pid) / 1024)
    finally:
        client.terminate()
        client.wait()
    time.sleep(10)
    rss.append(rss_kib(pid) / 1024)
    held.append(trimmed_mib(pid))
    print(f"reference: an animating client window (weston-simple-shm) for 15 s, the canvas minimized: {memory_row(rss, held)}",
          flush=True)


def bench_without(args, pid, report):
    """The same shell with the extension disabled: the baseline of memory and idle."""
    subprocess.run(["gnome-extensions", "disable", gst.UUID], env=SHELL.env, check=True, capture_output=True)
    try:
        time.sleep(5)
        report["rss without"] = rss_mib(pid)
        report["idle without"] = idle_runs(pid)
    finally:
        subprocess.run(["gnome-extensions", "enable", gst.UUID], env=SHELL.env, check=True, capture_output=True)


def summary(report):
    if "rss open" in report and "rss without" in report:
        n, o, w = report["rss never shown"], report["rss open"], report["rss without"]
        print(f"stylus-canvas@stylusd memory: gnome-shell VmRSS (median of 5 samples 0.5 s apart, min-max) started with "
              f"the extension, canvas never shown {n[0]:.1f} MiB ({n[1]:.1f}-{n[2]:.1f}); first opened with the strokes drawn "
              f"{report['rss first open'][0]:.1f} MiB, open again after the toggles {o[0]:.1f} MiB ({o[1]:.1f}-{o[2]:.1f}); then the extension disabled {w[0]:.1f} MiB ({w[1]:.1f}-{w[2]:.1f}): "
              f"open - disabled {o[0] - w[0]:+.1f} MiB, open - never shown {o[0] - n[0]:+.1f} MiB", flush=True)
    parts = [f"{name} " + ", ".join(f"{n} switches / {ms:.0f} ms CPU" for n, ms in report["idle " + key])
             for key, name in (("minimized", "canvas minimized"), ("open", "open with no pen"), ("without", "extension disabled"))
             if "idle " + key in report]
    if parts:
        print("stylus-canvas@stylusd idle: gnome-shell over 5 s: " + "; ".join(parts), flush=True)


def main():
    parser = ot.canvas_arguments()
    parser.add_argument("--extension", default=os.path.join(ot.ROOT, ".build-gnome", "43", gst.UUID),
                        help="the extension folder (make gnome-extension builds it): .build-gnome/43/... for GNOME 43-44, 45/... for 45 and later")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    missing = [tool for tool in ("gnome-shell", "dbus-run-session", "dbus-daemon", "gsettings", "gnome-extensions")
               if not shutil.which(tool)]
    if missing or not os.path.exists(os.path.join(args.extension, "extension.js")):
        print(f"GNOME bench: NOT MEASURED: missing {missing or args.extension} (make test-overlay, make gnome-extension)")
        return 0
    if os.getuid() == 0:
        return lt.as_unprivileged(args, os.path.join("bench", "gnome_bench.py"), ["--rounds", str(args.rounds)],
                                  copy_extension=(os.path.dirname(os.path.dirname(args.extension)),
                                                  os.path.join(os.path.basename(os.path.dirname(args.extension)), gst.UUID)))
    args.scratch = tempfile.mkdtemp(prefix="stylus-canvas-fixture-")
    ot.ARGS = args
    global SHELL
    runtime = tempfile.mkdtemp(prefix="stylus-gnome-bench-")
    os.chmod(runtime, 0o700)
    report = {}
    try:
        gst.HERE = probe_helper(args.scratch)     # the suite's shell, with the probing helper
        try:
            SHELL = gst.SHELL = gst.GnomeShell(runtime, args.extension, env={"LP_NUM_THREADS": "0"})
        except ot.Failure as error:
            print(f"GNOME bench: NOT MEASURED: {error}", flush=True)
            return 0
        pid = shell_pid()
        time.sleep(2)
        report["rss never shown"] = rss_mib(pid)
        # A part that cannot be measured says why; a benchmark never fails the build.
        # The baseline comes before the inking: gnome-shell does not give back what that run grows.
        for part, run in (("toggle", bench_toggle), ("without", bench_without), ("reference", bench_reference), ("open", bench_open),
                          ("ink", bench_ink)):
            if args.only in ("", part):
                try:
                    run(args, pid, report)
                except ot.Failure as error:
                    print(f"GNOME bench, {part}: NOT MEASURED: {error}", flush=True)
        summary(report)
    finally:
        gst.close_shell(SHELL, runtime, args.scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
