#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How much the kept config parser child grows per reload, and when it starts
afresh: talks to `stylusd parse-config-child --serve` as the
daemon does (one request at a time) and prints, every 50 answers, the child's
VmRSS and the answer count its command line carries after a fresh start.

    tools/parser_child_growth.py [--program PATH] [--limit-kib N] [--reloads N]

The figures in docs/SECURITY.md come from this, on the release build
(`--program .build-static/release/stylusd` for the installed link)."""
import argparse
import subprocess
import sys


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--program", default=".build/release/stylusd")
    ap.add_argument("--limit-kib", type=int, default=8192)
    ap.add_argument("--reloads", type=int, default=750)
    a = ap.parse_args()
    try:
        child = subprocess.Popen([a.program, "parse-config-child", "--serve", "--growth-limit-kib", str(a.limit_kib)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as e:
        sys.exit(f"parser_child_growth: cannot start {a.program}: {e} (build it with `swift build -c release`)")
    first = None
    for i in range(1, a.reloads + 1):
        name = b"config.toml"
        body = f"# reload {i}\ninterval_ms = {300 + i % 500}\n[precision]\nenabled = true\n".encode()
        child.stdin.write(f"{len(name)} {len(body)}\n".encode() + name + body)
        child.stdin.flush()
        header = child.stdout.readline().split()
        if len(header) != 2:
            sys.exit(f"parser_child_growth: no answer to reload {i} (the child exited {child.poll()})")
        child.stdout.read(int(header[1]))
        if i == 1 or i % 50 == 0:
            rss = status_kib(child.pid, "VmRSS")
            first = first or rss
            with open(f"/proc/{child.pid}/cmdline") as f:
                args = f.read().split("\0")
            before = args[args.index("--answered") + 1] if "--answered" in args else "0"
            print(f"reload {i}: VmRSS {rss} KiB ({rss - first:+d} since the first), answers before the last fresh start {before}")
    child.stdin.close()
    child.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
