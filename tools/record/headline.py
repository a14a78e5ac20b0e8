"""Headline numbers of a recording, for summary.txt: enough to see at a glance whether the
measurements look sane before unpacking the archive. Reads the CSVs that run_all.sh writes into
RECORD_DIR; a missing file is reported and skipped. Standard library only.

usage: python3 headline.py RECORD_DIR
"""

import csv
import os
import statistics
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fmt_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return f"{n}B"


def copybench(path):
    """Per mode and direction: smallest-size latency and largest-size bandwidth."""
    groups = defaultdict(list)
    for r in rows(path):
        groups[(r["mode"], r["src"], r["dst"])].append(r)
    print("copybench (event-timed medians)")
    print(f"  {'mode':15s} {'path':12s} {'smallest':>20s} {'largest':>24s}")
    for (mode, src, dst), rs in groups.items():
        rs.sort(key=lambda r: int(r["bytes"]))
        lo, hi = rs[0], rs[-1]
        print(f"  {mode:15s} {src + '->' + dst:12s} "
              f"{fmt_bytes(int(lo['bytes'])):>7s} {float(lo['median_ns']) / 1e3:8.2f} us  "
              f"{fmt_bytes(int(hi['bytes'])):>7s} {float(hi['median_gbps']):9.2f} GB/s")


def concurrency(path):
    """Per pattern and size: median makespan together against its copies run alone."""
    makespans = defaultdict(list)
    for r in rows(path):
        makespans[(r["pattern"], int(r["bytes_per_op"]))].append(int(r["makespan_ns"]))
    median = {k: statistics.median(v) for k, v in makespans.items()}
    print("concurrency (median makespan; alone: slowest and sum of the copies run one by one)")
    for (pattern, nbytes), together in median.items():
        if ".alone" in pattern:
            continue
        alone = [t for (p, b), t in median.items()
                 if b == nbytes and p.startswith(pattern + ".alone")]
        print(f"  {pattern:17s} {fmt_bytes(nbytes):>7s}  together {together / 1e3:9.1f} us"
              f"  alone max {max(alone, default=0) / 1e3:9.1f} us"
              f"  sum {sum(alone) / 1e3:9.1f} us")


def nccl(path):
    """Per variant and collective: smallest-size time and largest-size bus bandwidth."""
    groups = defaultdict(list)
    for r in rows(path):
        groups[(r["variant"], r["collective"])].append(r)
    print("nccl_bench")
    for (variant, coll), rs in groups.items():
        rs.sort(key=lambda r: int(r["bytes"]))
        lo, hi = rs[0], rs[-1]
        print(f"  {variant:12s} {coll:14s} {fmt_bytes(int(lo['bytes'])):>6s} "
              f"{float(lo['time_us']):9.1f} us   {fmt_bytes(int(hi['bytes'])):>6s} "
              f"busbw {float(hi['busbw_gbps']):8.1f} GB/s")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    rec = sys.argv[1]
    for name, show in (("copybench_summary.csv", copybench),
                       ("concurrency_summary.csv", concurrency),
                       ("nccl_bench.csv", nccl)):
        path = os.path.join(rec, name)
        if not os.path.exists(path):
            print(f"{name}: not written")
            continue
        try:
            show(path)
        except (KeyError, ValueError) as e:
            print(f"{name}: unreadable ({type(e).__name__}: {e})")
    traces = sorted(f for f in os.listdir(rec) if f.endswith(".json.gz"))
    print("torch traces: " + (", ".join(
        f"{f} ({os.path.getsize(os.path.join(rec, f)) // 1024} KiB)" for f in traces) or "none"))


if __name__ == "__main__":
    main()
