#!/usr/bin/env python3
"""Geometric-mean |error| of the simulator on a recording's concurrent-copy patterns from a size
on, beside the no-contention baseline: the README's D2D concurrency row.

    python3 tools/results/copy_patterns.py tests/data/real/h200-1gpu-d2d configs/testbed-h200-1gpu.yaml 64MiB

Runs build/linkcast_validate_real on the folder with --csv and reads back its `copies` rows.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

from sizes import size_bytes


def geomean_abs(errors):
    return math.exp(sum(math.log(max(abs(e), 1e-4)) for e in errors) / len(errors))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: copy_patterns.py RECORDING_DIR NODE.yaml MIN_SIZE")
    folder, node, min_bytes = sys.argv[1], sys.argv[2], size_bytes(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cases.csv")
        subprocess.run(["build/linkcast_validate_real", folder, node, "--csv", out], check=True,
                       stdout=subprocess.DEVNULL)
        rows = [r for r in csv.DictReader(open(out)) if r["group"] == "copies" and int(r["bytes"]) >= min_bytes]
    if not rows:
        sys.exit(f"{folder}: no concurrent-copy cases of at least {sys.argv[3]}")
    sim = [float(r["simulated_ns"]) / float(r["measured_ns"]) - 1 for r in rows]
    base = [float(r["baseline_ns"]) / float(r["measured_ns"]) - 1 for r in rows]
    print(f"{folder}: {len(rows)} cases from {sys.argv[3]}: simulated {100 * geomean_abs(sim):.1f}% "
          f"(largest {100 * max(map(abs, sim)):.0f}%), no contention {100 * geomean_abs(base):.1f}% "
          f"(largest {100 * max(map(abs, base)):.0f}%)")


if __name__ == "__main__":
    main()
