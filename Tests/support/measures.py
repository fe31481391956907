# SPDX-License-Identifier: MIT
"""Figures the benchmarks and the tests that bound them read: a process's
memory from /proc and a percentile of a sample. Standard library only."""
import math


def memory_kib(pid, keys):
    """The fields `keys` of /proc/PID/status (VmRSS, RssAnon, RssFile, ...) in KiB;
    a field the kernel does not give is 0."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    return {k: int(fields[k].split()[0]) if k in fields else 0 for k in keys}


def rss_kib(pid):
    """The process's resident set (VmRSS), KiB."""
    return memory_kib(pid, ["VmRSS"])["VmRSS"]


def percentile(values, p, nearest_rank=False):
    """The p-th percentile of `values`. By default the value at the rounded
    index p/100 * (n - 1) of the sorted values (the benchmarks' figures);
    with `nearest_rank`, the smallest value with at least p % of them at or
    below it, and NaN for no values (the HIL flood test's bounds)."""
    values = sorted(values)
    if nearest_rank:
        return values[max(0, math.ceil(p / 100 * len(values)) - 1)] if values else float("nan")
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]
