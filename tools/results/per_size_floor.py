#!/usr/bin/env python3
"""How low a WMAPE any rate model can reach on one kind of a scored projection: the recorded rate
per size, the WMAPE of pricing every size at its own median recorded time (what no model of the
hardware beats), and of the best single rate for every copy from a size on with the smaller
copies at their own medians. The README's Titan -> Summit pageable D2H floor comes from here:

    build/linkcast project --from configs/titan.yaml --to configs/summit.yaml \\
      ../shared/data/ahead/Titan_Data/Bandwidth_Benchmarking/profiler-bandwidth-output-dtoh-pageable.nvvp \\
      --actual ../shared/data/ahead/Summit_Data/Bandwidth_Benchmarking/sqlite/profiler-bandwidth-output-dtoh-pageable.nvvp \\
      --model default --format csv > dtoh.csv
    python3 tools/results/per_size_floor.py dtoh.csv d2h_pageable 4MiB
"""
import collections
import csv
import statistics
import sys

from sizes import size_bytes


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: per_size_floor.py PROJECT.csv CATEGORY FROM_SIZE")
    path, category, from_bytes = sys.argv[1], sys.argv[2], size_bytes(sys.argv[3])
    by_size = collections.defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r["category"] == category and r["actual_ns"]:
            by_size[int(r["bytes"])].append(float(r["actual_ns"]))
    if not by_size:
        sys.exit(f"{path}: no matched {category} operations")
    median = {size: statistics.median(times) for size, times in by_size.items()}
    total = sum(sum(times) for times in by_size.values())

    def wmape(price):
        return 100 * sum(abs(t - price(size)) for size, times in by_size.items() for t in times) / total

    for size in sorted(by_size):
        print(f"{size:>12} B  {len(by_size[size]):4} copies  recorded {size / median[size]:7.2f} GB/s (median)")
    print(f"every size at its own median: {wmape(lambda s: median[s]):.2f}%")
    best = min((wmape(lambda s, g=g / 10: s / g if s >= from_bytes else median[s]), g / 10) for g in range(1, 10001))
    print(f"best single rate from {sys.argv[3]} (smaller sizes at their medians): {best[0]:.2f}% at {best[1]:.1f} GB/s")


if __name__ == "__main__":
    main()
