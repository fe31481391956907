#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The clients of the flood test (hil/tests/flood_tests.py), one process
each, so that they do not share the GIL: a flooder's parsing would
otherwise show up as `status` latency that the daemon did not cause.

    flood_worker.py ROLE SOCKET [ARGS]

prints "ready" once connected (and subscribed), then waits for the schedule
(JSON, one line on stdin), plays its role and prints its figures as JSON:

  status  asks `status` every STATUS_EVERY_S;
  pen     subscribed to `pen`, stamps the arrival of every sample;
  flood   CONFIG K: loops {`devices`, rewrite CONFIG with a new value,
          `reload`} as fast as the answers come."""
import json
import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "support"))   # its own process
from stylusclient import Client  # noqa: E402

STATUS_EVERY_S = 0.02
FLOODERS = 3
# The flooders run at the lowest priority. The guest has two emulated CPUs:
# three Python clients looping at normal priority starve the measuring
# clients (and the pen writer) themselves, and then even a flood of cheap
# `status` requests, which never block the loop, more than doubles the
# `status` p99 (control run: 86 -> 282 ms). What the test is after is
# whether the daemon's loop waits on a request; the daemon and the parser
# children it starts keep their normal priority, so their own work still counts.
FLOODER_NICE = 19
# Every socket read gives up after this. A reload's parser child is killed
# after 10 s; on a loaded host one probe in the guest has taken 10 s.
READ_TIMEOUT_S = 30.0
TAIL_S = 2.0             # the subscriber keeps reading after the end: late samples are counted, not lost


def connect(path):
    c = Client(path, timeout=READ_TIMEOUT_S)
    if c.hello.get("event") != "hello":
        raise RuntimeError(f"no hello: {c.hello}")
    return c


def sleep_until(t):
    left = t - time.monotonic()
    if left > 0:
        time.sleep(left)


def role_status(path, times, _args):
    """`status` every STATUS_EVERY_S; a slot missed while waiting is skipped,
    not sent in a burst afterwards."""
    c = connect(path)
    print("ready", flush=True)
    times = times()
    samples, error = [], None
    next_t = times["pen"]
    try:
        while next_t < times["end"]:
            sleep_until(next_t)
            sent = time.monotonic()
            try:
                answer = c.request("status")
            finally:       # a timed-out request counts, at least as long as it was waited for
                samples.append([sent, time.monotonic() - sent])
            if not answer.get("ok"):
                error = f"status refused: {answer}"
                break
            next_t += STATUS_EVERY_S
            if next_t < time.monotonic():
                next_t = time.monotonic()
    except Exception as e:   # a timeout included: report it with what was measured
        error = f"status client: {e!r}"
    return {"samples": samples, "error": error}


def role_pen(path, times, _args):
    """Subscribed to `pen`: the arrival time of every sample and its kernel time."""
    c = connect(path)
    c.request("subscribe", topics=["pen"])
    print("ready", flush=True)
    times = times()
    arrivals, kernel, dropped, error = [], [], 0, None
    stop = times["end"] + TAIL_S
    early, c.events = c.events, []     # any that came before the subscription's answer
    try:
        while time.monotonic() < stop:
            c.sock.settimeout(max(0.05, stop - time.monotonic()))
            try:
                messages = early or c.read_available()
            except socket.timeout:
                continue
            early = []
            now = c.received_at
            for message in messages:
                if message.get("event") == "pen":
                    arrivals.append(now)
                    kernel.append(message["time_us"] / 1e6)
                elif message.get("event") == "dropped":
                    dropped += message.get("count", 0)
    except Exception as e:
        error = f"pen subscriber: {e!r}"
    return {"arrivals": arrivals, "kernel": kernel, "dropped": dropped, "error": error}


def write_config(config, text):
    scratch = f"{config}.{os.getpid()}"
    with open(scratch, "w") as f:
        f.write(text)
    os.replace(scratch, config)


def role_flood(path, times, args):
    """Loops {devices, rewrite the config file, reload} from the flood's start
    to its end. Every write differs from every other (client, count, value);
    a reload whose answer carries this client's value parsed this client's file
    (another flooder may have replaced it in between)."""
    config, k = args[0], int(args[1])
    c = connect(path)
    print("ready", flush=True)
    times = times()
    devices, reloads, own, failed, error = [], [], 0, [], None
    sleep_until(times["flood"])
    n = 0
    try:
        while time.monotonic() < times["end"]:
            sent = time.monotonic()
            answer = c.request("devices")
            devices.append(time.monotonic() - sent)
            if not answer.get("ok"):
                failed.append(answer)
            value = 150 + (FLOODERS * n + k) % 851          # interval_ms: 150-1000
            write_config(config, f"# hil flood: client {k}, write {n}\ninterval_ms = {value}\n")
            n += 1
            sent = time.monotonic()
            answer = c.request("reload")
            reloads.append(time.monotonic() - sent)
            if not answer.get("ok"):
                failed.append(answer)
            elif answer["result"]["config"]["interval_ms"] == value:
                own += 1
    except Exception as e:
        error = f"flood client {k}: {e!r}"
    return {"devices": devices, "reloads": reloads, "own": own, "failed": failed[:3], "failures": len(failed),
            "error": error}


ROLES = {"status": role_status, "pen": role_pen, "flood": role_flood}


def worker_main(argv):
    role, path, *args = argv
    if role == "flood":
        os.nice(FLOODER_NICE)

    def times():
        # The schedule comes on stdin once every worker is connected.
        ready, _, _ = select.select([sys.stdin], [], [], 120)
        if not ready:
            sys.exit("flood worker: no schedule within 120 s")
        return json.loads(sys.stdin.readline())

    result = ROLES[role](path, times, args)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    worker_main(sys.argv[1:])
