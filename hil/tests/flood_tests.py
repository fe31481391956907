# SPDX-License-Identifier: MIT
"""Hardware-in-the-loop: the daemon's one event loop under a flood of
`devices` and `reload`: the loop never blocks on a request.

Two pens and a pad are present, so that a probe really opens nodes and loads
libwacom's database. In one daemon run, for PHASE_S each:

  baseline  a client asks `status` every 20 ms, a scripted pen draws (a frame
            every 10 ms, strokes of 0.4 s with 0.1 s of hover between them),
            and a subscriber to the `pen` topic timestamps every sample it
            receives;
  flood     the same, while three more clients each loop {`devices`, rewrite
            the config file with a new value, `reload`} as fast as the answers
            come.

It asserts that every client is answered and that every pen sample the kernel
delivered reaches the subscriber, and prints whether two timing targets held:
the `status` p99 under the flood at most twice the baseline p99, and the
longest gap between pen samples at the subscriber at most twice the
baseline's longest gap (`make bench-flood`, HIL_FLOOD_TARGETS=1, asserts
those too). The guest is emulated, so only figures from the same run are
compared.

The clients are separate processes (flood_worker.py, one role each); the pen
is written from the test's process, which owns its uinput device."""
import json
import math
import os
import select
import subprocess
import sys
import time

from libevdev import InputEvent as E, EV_ABS, EV_KEY

from flood_worker import FLOODERS, READ_TIMEOUT_S, sleep_until, write_config
from harness import Stylusd, VirtualPen, destroy_uinput, make_pad, perf_top
from measures import percentile  # by nearest rank here: the bounds count samples
from stylusclient import Client
from stylustest import Failure, check

PHASE_S = 10.0
WARM_UP_S = 1.0          # pen and status running before the baseline counts
PEN_EVERY_S = 0.01
WORK = "/tmp/hil-flood"


# ------------------------------------------------------------ the test

def gaps_in(times, start, end):
    """Gaps between consecutive times, each counted in the window its later time falls in."""
    return [b - a for a, b in zip(times, times[1:]) if start <= b < end]


def draw(pen, until):
    """A frame every PEN_EVERY_S: strokes of 40 frames with the tip down, then
    10 frames of hover, the pen in proximity throughout. Returns write times."""
    written = []
    i = 0
    next_t = time.monotonic()
    while next_t < until:
        sleep_until(next_t)
        phase = i % 50
        down = phase < 40
        events = [E(EV_ABS.ABS_X, 8000 + (i * 37) % 28000), E(EV_ABS.ABS_Y, 15000 + int(6000 * math.sin(i / 25))),
                  E(EV_ABS.ABS_PRESSURE, int(8191 * (0.35 + 0.2 * math.sin(i / 7))) if down else 0),
                  E(EV_ABS.ABS_DISTANCE, 0 if down else 20)]
        if phase == 0:
            events.append(E(EV_KEY.BTN_TOUCH, 1))
        elif phase == 40:
            events.append(E(EV_KEY.BTN_TOUCH, 0))
        pen.frame(*events, pause=0)
        written.append(time.monotonic())
        i += 1
        next_t += PEN_EVERY_S
        if next_t < time.monotonic() - PEN_EVERY_S:
            next_t = time.monotonic()
    return written


class FloodProfile:
    """`perf record -g` of the daemon over the flood phase (HIL_FLOOD_PROFILE=DIR,
    `HIL_SUITE=floodprofile hil/vm.sh`), started a second early (perf takes
    a while to attach under emulation) and ended with the phase. The profiler
    shares the guest's CPUs: that run's figures are for the profile, not for
    the targets."""

    def __init__(self, pid, flood_starts, out_dir):
        import threading
        self.data = os.path.join(out_dir, "perf-flood.data")
        self.proc = None
        self.timer = threading.Timer(max(0.0, flood_starts - 1.0 - time.monotonic()), self._start,
                                     args=(pid, PHASE_S + 1.0))
        self.timer.daemon = True
        self.timer.start()

    def _start(self, pid, seconds):
        self.proc = subprocess.Popen(["perf", "record", "-q", "-g", "-F", "1000", "-p", str(pid), "-o", self.data,
                                      "--", "sleep", str(seconds)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def finish(self):
        """Waits for perf to write its data; the heaviest symbols, or why there are none."""
        self.timer.cancel()
        self.timer.join()
        if self.proc is None:
            return ["perf never started"]
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return ["perf did not finish"]
        return perf_top(self.data, "comm,dso,symbol") or ["perf wrote no samples"]

    def cancel(self):
        self.timer.cancel()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def test_a_flood_of_devices_and_reload_is_answered_and_loses_no_pen_sample():
    os.makedirs(WORK, exist_ok=True)
    config = os.path.join(WORK, "config.toml")
    write_config(config, "interval_ms = 500\n")
    pen = VirtualPen(name="stylusd-hil flood pen")
    second = VirtualPen(name="stylusd-hil second pen")
    pad = make_pad()
    d, workers, profiled = None, [], None
    try:
        d = Stylusd("--config", config)
        d.wait_log("stylusd: ready", timeout=60)
        ctl = Client(d.socket_path, timeout=READ_TIMEOUT_S)
        end = time.monotonic() + 20
        while sum(x["kind"] == "pen" for x in ctl.request("status")["result"]["input"]["devices"]) < 2:
            check(time.monotonic() < end, f"not two pens after 20 s: {ctl.request('status')['result']['input']}")
            time.sleep(0.1)
        # What one probe costs here, and that it sees both pens through libwacom and the pad.
        probe_ms = []
        for _ in range(3):
            started = time.monotonic()
            report = ctl.request("devices")["result"]
            probe_ms.append(time.monotonic() - started)
        nodes = {n["name"]: n for n in report["nodes"]}
        for name in ("stylusd-hil flood pen", "stylusd-hil second pen"):
            node = nodes.get(name) or {}
            check(node.get("kind") == "pen" and (node.get("pen") or {}).get("libwacom_model"),
                  f"the probe does not consult libwacom for {name}: {node}")
        check((nodes.get("stylusd-hil pad") or {}).get("kind") == "pad", f"no pad in the probe: {sorted(nodes)}")
        reload_ms = []
        for n in range(3):
            write_config(config, f"# before the run, {n}\ninterval_ms = {500 + n}\n")
            started = time.monotonic()
            check(ctl.request("reload")["ok"], "reload refused")
            reload_ms.append(time.monotonic() - started)
        check(ctl.request("open")["ok"], "open refused")
        ctl.close()
        pen.warm_up()
        pen.enter()

        worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flood_worker.py")
        specs = [("status",), ("pen",)] + [("flood", config, str(k)) for k in range(FLOODERS)]
        for spec in specs:
            workers.append(subprocess.Popen([sys.executable, worker, spec[0], d.socket_path, *spec[1:]],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        deadline = time.monotonic() + 60
        for w, spec in zip(workers, specs):
            readable, _, _ = select.select([w.stdout], [], [], max(0, deadline - time.monotonic()))
            line = w.stdout.readline() if readable else ""
            check(line.strip() == "ready", f"worker {spec[0]} not ready: {line!r}, exit {w.poll()}")
        now = time.monotonic()
        t0 = now + WARM_UP_S
        times = {"pen": now, "base": t0, "flood": t0 + PHASE_S, "end": t0 + 2 * PHASE_S}
        if os.environ.get("HIL_FLOOD_PROFILE"):
            profiled = FloodProfile(d.proc.pid, times["flood"], os.environ["HIL_FLOOD_PROFILE"])
        for w in workers:
            w.stdin.write(json.dumps(times) + "\n")
            w.stdin.flush()
        written = draw(pen, times["end"] + 0.2)
        results = []
        for w, spec in zip(workers, specs):
            try:
                out, _ = w.communicate(timeout=max(1, times["end"] + READ_TIMEOUT_S + 5 - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise Failure(f"worker {spec[0]} {spec[2:]} did not finish")
            check(w.returncode == 0 and out.strip(), f"worker {spec[0]} {spec[2:]} exited {w.returncode}")
            results.append(json.loads(out.strip().splitlines()[-1]))
        check(d.alive(), "stylusd died")
        libinput_errors = [line for line in d.log if line.startswith("stylusd: libinput:")]
    except BaseException:
        if profiled:
            profiled.cancel()
        raise
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
            w.wait()
        try:
            if d is not None:
                d.stop()
        finally:
            pen.destroy()
            second.destroy()
            destroy_uinput(pad)

    status, sub, floods = results[0], results[1], results[2:]
    phases = {"base": (times["base"], times["flood"]), "flood": (times["flood"], times["end"])}
    figures = {}
    for name, (a, b) in phases.items():
        latencies = [lat for t, lat in status["samples"] if a <= t < b]
        gaps = gaps_in(sub["arrivals"], a, b)
        delay = [t - k for t, k in zip(sub["arrivals"], sub["kernel"]) if a <= t < b]
        figures[name] = dict(
            n=len(latencies), p50=percentile(latencies, 50, nearest_rank=True), p99=percentile(latencies, 99, nearest_rank=True), max=max(latencies, default=math.nan),
            gap_p99=percentile(gaps, 99, nearest_rank=True), gap_max=max(gaps, default=math.nan), samples=len(delay),
            written=sum(a <= t < b for t in written), writer_gap=max(gaps_in(written, a, b), default=math.nan),
            delay_max=max(delay, default=math.nan))
    devices = [x for f in floods for x in f["devices"]]
    reloads = [x for f in floods for x in f["reloads"]]
    base, flood = figures["base"], figures["flood"]
    summary = (
        f"flood: status p50/p99/max baseline {ms(base['p50'])}/{ms(base['p99'])}/{ms(base['max'])} ms (n={base['n']}), "
        f"flood {ms(flood['p50'])}/{ms(flood['p99'])}/{ms(flood['max'])} ms (n={flood['n']}); "
        f"pen gap p99/max baseline {ms(base['gap_p99'])}/{ms(base['gap_max'])} ms, "
        f"flood {ms(flood['gap_p99'])}/{ms(flood['gap_max'])} ms; "
        f"pen samples received/written baseline {base['samples']}/{base['written']}, flood {flood['samples']}/{flood['written']}, "
        f"{sub['dropped']} dropped by the daemon, {len(sub['arrivals'])}/{len(written)} received/written overall; "
        f"{len(libinput_errors)} libinput errors {libinput_errors[:2]}; pen kernel-to-subscriber max baseline {ms(base['delay_max'])} ms, flood {ms(flood['delay_max'])} ms; "
        f"writer gap max baseline {ms(base['writer_gap'])} ms, flood {ms(flood['writer_gap'])} ms; "
        f"served in the flood: {len(devices)} devices (p50 {ms(percentile(devices, 50, nearest_rank=True))} ms, max {ms(max(devices, default=math.nan))} ms), "
        f"{len(reloads)} reloads (p50 {ms(percentile(reloads, 50, nearest_rank=True))} ms, max {ms(max(reloads, default=math.nan))} ms; "
        f"{sum(f['own'] for f in floods)} answered with the client's own file), {sum(f['failures'] for f in floods)} refused; "
        f"before the run one devices took {ms(min(probe_ms))}-{ms(max(probe_ms))} ms, "
        f"one reload {ms(min(reload_ms))}-{ms(max(reload_ms))} ms")
    print(f"    {summary}", flush=True)
    if profiled:
        for line in profiled.finish():
            print(f"    flood profile: {line}", flush=True)
    for r in (status, sub, *floods):
        check(r["error"] is None, f"{r['error']}; {summary}")
    for k, f in enumerate(floods):
        check(f["devices"] and f["reloads"], f"flood client {k} was never answered; {summary}")
        check(f["failures"] == 0, f"flood client {k}: {f['failures']} refused, e.g. {f['failed']}; {summary}")
    check(base["n"] > 0 and flood["n"] > 0 and base["samples"] > 1 and flood["samples"] > 1, f"nothing measured; {summary}")
    # What a user relies on: every pen sample the kernel delivered reaches the
    # subscriber (a loop that blocked lost about half of them in the kernel's
    # buffer), and nothing was dropped on the way.
    check(sub["dropped"] == 0 and len(sub["arrivals"]) == len(written),
          f"pen samples lost under the flood: {len(sub['arrivals'])} of {len(written)} arrived; {summary}")
    # The two timing targets, as written (no floor under the
    # baselines), are a benchmark's goal, not a test's: `make bench-flood`
    # runs this with HIL_FLOOD_TARGETS=1 and records the verdict.
    targets = [("status p99 under the flood", flood["p99"], 2 * base["p99"]),
               ("longest pen gap under the flood", flood["gap_max"], 2 * base["gap_max"])]
    verdicts = [f"{what} {ms(value)} ms {'<=' if value <= limit else '>'} 2 x baseline {ms(limit / 2)} ms" for what, value, limit in targets]
    met = all(value <= limit for _, value, limit in targets)
    print(f"    flood targets {'met' if met else 'MISSED'}: " + "; ".join(verdicts), flush=True)
    if os.environ.get("HIL_FLOOD_TARGETS") == "1":
        check(met, "; ".join(verdicts) + f"; {summary}")
