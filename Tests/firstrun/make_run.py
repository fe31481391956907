#!/usr/bin/env python3
"""`make run` as a new user meets it: no login session (XDG_RUNTIME_DIR
unset), as whoever runs this (root, or e.g. `runuser -u nobody`). Runs
`make run` in its own process group, waits until it prints the commands to
try next, runs the printed `stylusctl status` exactly as printed, then
stops everything with SIGINT as Ctrl-C in a terminal does. Prints the time
from `make run` to the printed commands (a warm build: nothing to compile)."""
import os
import re
import signal
import stat
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    env = dict(os.environ)
    for name in ("XDG_RUNTIME_DIR", "STYLUSD_SOCKET", "MAKEFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    # The user's real canvas is not the test's: keep state and config private.
    scratch = os.path.join(ROOT, ".build", "run-test")
    os.makedirs(scratch, mode=0o700, exist_ok=True)
    env["XDG_STATE_HOME"] = os.path.join(scratch, "state")
    env["XDG_CONFIG_HOME"] = os.path.join(scratch, "config")
    started = time.monotonic()
    make = subprocess.Popen(["make", "--no-print-directory", "run"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines, command, ready_after = [], None, None
    try:
        deadline = started + 600
        while time.monotonic() < deadline:
            line = make.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            match = re.match(r"^\s+(STYLUSD_SOCKET=\S+ \S+/stylusctl status)$", line.rstrip("\n"))
            if match:
                command, ready_after = match.group(1), time.monotonic() - started
                break
        problems = []
        if command is None:
            problems.append("make run never printed the stylusctl status command")
        else:
            # From another folder, as the user would in another terminal.
            status = subprocess.run(["sh", "-c", command], cwd="/", capture_output=True, text=True, timeout=20,
                                    env={k: v for k, v in env.items() if k != "XDG_RUNTIME_DIR"})
            if status.returncode != 0 or not status.stdout.startswith("canvas"):
                problems.append(f"`{command}` gave {status.returncode}: {status.stdout}{status.stderr}")
            run = os.path.join(ROOT, ".build", "run")
            mode = stat.S_IMODE(os.stat(run).st_mode)
            if mode != 0o700:
                problems.append(f"{run} is {oct(mode)}, not 0700")
            if not any(run in line and "XDG_RUNTIME_DIR" in line for line in lines):
                problems.append("the private runtime folder was not announced")
    finally:
        os.killpg(make.pid, signal.SIGINT)   # Ctrl-C: the whole foreground group
        rest, _ = make.communicate(timeout=30)
        lines += rest.splitlines()
    if any("stopping on SIGINT" in line for line in lines) is False and command is not None:
        problems.append("the daemon did not say it stopped on SIGINT")
    if any(line.startswith("Usage:") for line in lines):
        problems.append("a usage text was printed")
    if any("Compiling" in line for line in lines):
        print("note: make run compiled something (not a warm build)")
    print("\n".join("  | " + line for line in lines))
    if problems:
        print("FAIL make run: " + "; ".join(problems))
        return 1
    print(f"PASS make run as uid {os.getuid()} without XDG_RUNTIME_DIR: ready and answering after {ready_after:.1f} s; `{command}` works")
    return 0


if __name__ == "__main__":
    sys.exit(main())
