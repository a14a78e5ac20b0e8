#!/usr/bin/env python3
"""op_sizes.py CATEGORY [LO_BYTES HI_BYTES] < CSV: per size, the operations of one kind in a CSV that
linkcast wrote, for the README's per-size figures.
  - `linkcast project ... --actual ... --format csv` (one row per operation): per size, how many,
    and the mean source, actual and projected (`default`) time in us; with LO_BYTES HI_BYTES also
    the share of the kind's actual time in that range of sizes and the WMAPE points it adds.
  - a linkcast CSV trace (`linkcast matrix ... --save-trace FILE`): CATEGORY `d2d` (copies within
    one GPU) or `memset`; per size, how many and the median duration in us.
Examples (README, "Copies that fit in the L2 cache"):
    build/linkcast project --from configs/testbed-h100-1gpu.yaml --to configs/testbed-h200-1gpu.yaml \\
      tests/data/real/h100-1gpu/copybench_trace.csv.gz --actual tests/data/real/h200-1gpu/copybench_trace.csv.gz \\
      --format csv --model default | python3 tools/results/op_sizes.py d2d 4194304 16777216
    ... tests/data/real/h100-1gpu/torch_train_pinned.json.gz ... | python3 tools/results/op_sizes.py memset
    build/linkcast matrix tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz --node configs/testbed-h200-2gpu.yaml \\
      --save-trace ddp0.csv && python3 tools/results/op_sizes.py d2d < ddp0.csv
"""
import collections
import csv
import statistics
import sys


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    category = sys.argv[1]
    rows = list(csv.DictReader(sys.stdin))
    if rows and "actual_ns" in rows[0]:
        by = collections.defaultdict(list)
        for r in rows:
            if r["category"] == category and r["actual_ns"]:
                by[int(r["bytes"])].append((float(r["source_ns"]), float(r["actual_ns"]), float(r["default_ns"])))
        for b in sorted(by):
            v = by[b]
            src, act, dft = (sum(x[k] for x in v) / len(v) / 1e3 for k in range(3))
            print(f"{b:>12} B  n={len(v):3d}  source {src:9.2f} us  actual {act:9.2f} us  default {dft:9.2f} us"
                  f"  ({100 * (dft - act) / act:+.1f}%)")
        if len(sys.argv) == 4:
            lo, hi = int(sys.argv[2]), int(sys.argv[3])
            total = sum(a for v in by.values() for _, a, _ in v)
            part = sum(a for b, v in by.items() if lo <= b <= hi for _, a, _ in v)
            err_all = sum(abs(d - a) for v in by.values() for _, a, d in v)
            err_part = sum(abs(d - a) for b, v in by.items() if lo <= b <= hi for _, a, d in v)
            print(f"{lo}-{hi} B: {100 * part / total:.1f}% of the {category} time; WMAPE {100 * err_all / total:.2f}%, "
                  f"of which {100 * err_part / total:.2f} points in this range")
    else:
        by = collections.defaultdict(list)
        for r in rows:
            within = r["src"] == r["dst"]
            if (category == "memset" and r["kind"] == "memset") or (category == "d2d" and r["kind"] == "copy" and within):
                by[int(r["bytes"])].append(int(r["duration_ns"]))
        for b in sorted(by):
            print(f"{b:>12} B  n={len(by[b]):3d}  median {statistics.median(by[b]) / 1e3:9.2f} us")


if __name__ == "__main__":
    main()
