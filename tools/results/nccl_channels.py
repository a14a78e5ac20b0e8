#!/usr/bin/env python3
"""nccl_channels.py [BUILD_DIR]: the README's table of NCCL collectives pinned to fewer channels.

Runs BUILD_DIR/linkcast_validate_real (default build/) on tests/data/real/h200-2gpu-channels and
h200-4gpu-channels (tools/record/run_nccl_channels.sh) with their testbed nodes, and prints for each
algorithm/protocol and channel count the mean signed error of the simulated time over the
recording's cases, (simulated - recorded) / recorded: + means the recording ran faster.
"""
import collections
import csv
import re
import subprocess
import sys
import tempfile

SETS = [("h200-2gpu-channels", "configs/testbed-h200-2gpu.yaml"),
        ("h200-4gpu-channels", "configs/testbed-h200-4gpu.yaml")]


def errors(build, folder, node):
    """{(variant, channels): [(simulated - measured) / measured, ...]} of a folder's CUDA-graph rows,
    from linkcast_validate_real's --csv."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        subprocess.run([f"{build}/linkcast_validate_real", f"tests/data/real/{folder}", node, "--min-bytes", "1MiB",
                        "--csv", out.name], capture_output=True, check=True)
        rows = list(csv.DictReader(open(out.name)))
    by = collections.defaultdict(list)
    for r in rows:
        m = re.fullmatch(r"nccl/(\S+?)(?:_ch(\d+))?\+graph", r["group"])
        if m and int(r["bytes"]) >= 1 << 20:
            by[(m.group(1), m.group(2) or "NCCL's count")].append(
                100 * (float(r["simulated_ns"]) / float(r["measured_ns"]) - 1))
    return by


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    results = [errors(build, folder, node) for folder, node in SETS]
    channels = ["1", "2", "4", "8", "16", "NCCL's count"]
    print("mean signed error, " + " / ".join(f for f, _ in SETS))
    print(f"{'variant':14}" + "".join(f"{c:>18}" for c in channels))
    for variant in ("ring_simple", "ring_ll128", "ring_ll", "tree_simple"):
        cells = []
        for c in channels:
            parts = []
            for by in results:
                v = by.get((variant, c))
                parts.append(f"{sum(v) / len(v):+.1f}%" if v else "-")
            cells.append(" / ".join(parts))
        print(f"{variant:14}" + "".join(f"{cell:>18}" for cell in cells))


if __name__ == "__main__":
    main()
