"""Headline numbers of a recording, for summary.txt: enough to see at a glance whether the
measurements look sane before unpacking the archive. Reads the CSVs that run_all.sh, run_apps.sh
and run_nccl.sh write into RECORD_DIR; a missing file of run_all.sh's is reported, others are
skipped. Standard library only.

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


def hostrates(path):
    """Single-thread host memory rates (hostrates.csv of run_apps.sh)."""
    print("hostrates (single thread, median GB/s)")
    for r in rows(path):
        print(f"  {r['measure']:12s} {fmt_bytes(int(r['bytes'])):>7s} "
              f"{float(r['median_gbps']):8.2f} GB/s  (min {float(r['min_gbps']):.2f}, "
              f"max {float(r['max_gbps']):.2f}, {r['reps']} reps)")


def interference(path):
    """Per copy, size and kernel: the copy and the kernel alone and beside each other."""
    print("interference (medians; copy and kernel alone -> beside each other)")
    for r in rows(path):
        print(f"  {r['copy']:12s} {fmt_bytes(int(r['bytes'])):>7s} {r['kernel']:14s} "
              f"copy {float(r['copy_alone_ns']) / 1e3:8.1f} -> {float(r['copy_beside_ns']) / 1e3:8.1f} us"
              f"  kernel {float(r['kernel_alone_ns']) / 1e3:8.1f} -> "
              f"{float(r['kernel_beside_ns']) / 1e3:8.1f} us")


def kernel_rates(path):
    print("kernel rates")
    for r in rows(path):
        print(f"  {r['kernel']:15s} {fmt_bytes(int(float(r['bytes']))):>7s} "
              f"{float(r['ns']) / 1e3:9.1f} us  {float(r['gbps']):8.1f} GB/s  "
              f"{float(r['tflops']):6.2f} TFLOP/s")


def apps_steps(path):
    """Per app and variant: median step time."""
    groups = defaultdict(list)
    for r in rows(path):
        groups[(r["app"], r["variant"])].append(r)
    print("torch apps (median step ms; loop_total: mean step ms of the whole loop)")
    for app in dict.fromkeys(a for a, _ in groups):  # in the order of the file
        parts = []
        for variant in ("loop", "loop_total", "sync", "profiled"):
            rs = groups.get((app, variant))
            if not rs:
                continue
            if variant == "loop_total":
                r = rs[0]
                parts.append(f"{variant} {int(r['step_ns']) / max(int(r['step']), 1) / 1e6:.2f}")
            else:
                vals = [int(r["step_ns"]) for r in rs if not (variant == "profiled" and r["step"] == "0")]
                parts.append(f"{variant} {statistics.median(vals) / 1e6:.2f}" if vals else variant)
        print(f"  {app:20s} " + "  ".join(parts))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    rec = sys.argv[1]
    # run_all.sh's files: reported as "not written" when missing; run_apps.sh's files (the
    # second group) are shown only when present.
    shows = [("copybench_summary.csv", copybench, True),
             ("concurrency_summary.csv", concurrency, True),
             ("nccl_bench.csv", nccl, True),
             ("hostrates.csv", hostrates, False),
             ("interference.csv", interference, False),
             ("kernel_rates.csv", kernel_rates, False),
             ("apps_steps.csv", apps_steps, False)]
    if any(os.path.exists(os.path.join(rec, n))
           for n in ("command.txt", "hostrates.csv", "interference.csv", "apps_steps.csv")):
        shows = [(n, f, False) for n, f, _ in shows]  # a run_apps.sh (or run_nccl.sh) recording
    for name, show, required in shows:
        path = os.path.join(rec, name)
        if not os.path.exists(path):
            if required:
                print(f"{name}: not written")
            continue
        try:
            show(path)
        except (KeyError, ValueError, ZeroDivisionError, statistics.StatisticsError) as e:
            print(f"{name}: unreadable ({type(e).__name__}: {e})")
    for rank_dir in sorted(d for d in os.listdir(rec) if d.startswith("rank")):  # run_ddp_apps.sh
        path = os.path.join(rec, rank_dir, "apps_steps.csv")
        if os.path.exists(path):
            print(f"{rank_dir}:")
            apps_steps(path)
    traces = sorted(f for f in os.listdir(rec) if f.endswith(".json.gz"))
    print("torch traces: " + (", ".join(
        f"{f} ({os.path.getsize(os.path.join(rec, f)) // 1024} KiB)" for f in traces) or "none"))


if __name__ == "__main__":
    main()
