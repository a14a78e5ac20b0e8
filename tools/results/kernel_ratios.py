#!/usr/bin/env python3
"""The same PyTorch app's kernels on the H100 and on the H200 testbed: per kernel name, the median
recorded duration on each, their ratio, and the occupancy Kineto estimated, longest first. The
figures README "A whole application" quotes for the kernel classes come from here:

    python3 tools/results/kernel_ratios.py train_pinned
"""
import collections
import gzip
import json
import statistics
import sys

REAL = "tests/data/real"


def kernels(path):
    by_name = collections.defaultdict(list)
    with gzip.open(path, "rt") as f:
        for e in json.load(f)["traceEvents"]:
            if e.get("cat") in ("kernel", "Kernel") and e.get("ph") == "X":
                a = e.get("args", {})
                by_name[e["name"]].append((e["dur"], a.get("est. achieved occupancy %"), a.get("warps per SM", 0)))
    return by_name


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    app = sys.argv[1]
    h100 = kernels(f"{REAL}/h100-1gpu-apps/app_{app}.json.gz")
    h200 = kernels(f"{REAL}/h200-1gpu-apps/app_{app}.json.gz")
    rows = []
    for name, runs in h100.items():
        if name not in h200:
            continue
        a = statistics.median(r[0] for r in runs)
        b = statistics.median(r[0] for r in h200[name])
        rows.append((sum(r[0] for r in runs), a, b, b / a, runs[0][1], runs[0][2], len(runs), name[:80]))
    rows.sort(reverse=True)
    print(f"{'sum us':>9} {'H100 us':>8} {'H200 us':>8} ratio occ% {'warps/SM':>9}    n kernel")
    for total, a, b, ratio, occ, warps, n, name in rows[:25]:
        print(f"{total:9.0f} {a:8.1f} {b:8.1f} {ratio:5.3f} {occ if occ is not None else '-':>4} {warps:9.1f} {n:4d} {name}")


if __name__ == "__main__":
    main()
