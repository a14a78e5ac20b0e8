#!/usr/bin/env python3
"""How much the PyTorch profiler slows the recorded apps' steps, by what paces them.

For every app of tests/data/real/*-1gpu-apps*, *-1gpu-sync and *-1gpu-matrix with a trace and
step times: the median step synchronized after each step without the profiler (apps_steps.csv,
`sync`) and under it (`profiled`, the trace's steps), and the CPU's share of the replayed critical
path (`linkcast simulate NODE TRACE --as-recorded`, the "whole span" row). Prints one row per app
and the range of profiled/unprofiled on each side of sim::kProfilerPacedCpuShare (40%), the figures
the replay's "the CPU paces this recording" warning quotes.

Usage: python3 tools/results/profiler_pace.py [LINKCAST]   (default build/linkcast)
"""
import csv
import glob
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LINKCAST = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "linkcast")
THRESHOLD = 0.40


def cpu_share(node, trace):
    out = subprocess.run([LINKCAST, "simulate", node, trace, "--as-recorded"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("whole span"):
            shares = [int(x) for x in re.findall(r"\((\d+)%\)", line)]
            return shares[3] / 100.0 if len(shares) >= 4 else None  # compute, transfers, collectives, CPU
    return None


def main():
    folders = sorted(glob.glob(os.path.join(ROOT, "tests/data/real/h*-1gpu-apps*")) +
                     glob.glob(os.path.join(ROOT, "tests/data/real/h*-1gpu-sync")) +
                     glob.glob(os.path.join(ROOT, "tests/data/real/h*-1gpu-matrix")))
    paced = {True: [], False: []}
    print(f"{'folder':<18} {'app':<20} {'unprofiled ms':>13} {'profiled ms':>11} {'ratio':>6} {'CPU share':>9}")
    for d in folders:
        steps = os.path.join(d, "apps_steps.csv")
        if not os.path.exists(steps):
            continue
        node = os.path.join(ROOT, "configs", "testbed-" + os.path.basename(d).split("-1gpu")[0] + "-1gpu-apps.yaml")
        times = defaultdict(lambda: defaultdict(list))
        with open(steps) as f:
            for r in csv.DictReader(f):
                times[r["app"]][r["variant"]].append(int(r["step_ns"]))
        for app, v in sorted(times.items()):
            trace = os.path.join(d, f"app_{app}.json.gz")
            if not os.path.exists(trace) or not v.get("sync") or len(v.get("profiled", [])) < 2:
                continue
            unprofiled = statistics.median(v["sync"])
            profiled = statistics.median(v["profiled"][1:])  # step 0 is the profiler's warm-up
            share = cpu_share(node, trace)
            if share is None:
                continue
            ratio = profiled / unprofiled
            paced[share >= THRESHOLD].append(ratio)
            print(f"{os.path.basename(d):<18} {app:<20} {unprofiled / 1e6:>13.2f} {profiled / 1e6:>11.2f} {ratio:>6.2f} "
                  f"{share:>8.0%}")
    for side, name in ((True, f"CPU share >= {THRESHOLD:.0%}"), (False, f"CPU share < {THRESHOLD:.0%}")):
        r = paced[side]
        if r:
            print(f"{name}: {len(r)} apps, profiled/unprofiled {min(r):.2f}-{max(r):.2f} (median {statistics.median(r):.2f})")


if __name__ == "__main__":
    main()
