#!/usr/bin/env python3
"""l2_copy.py H100_FOLDER H200_FOLDER: what copies within one GPU and memsets reach by where their
data is (tools/record/l2_copy.cu; tests/data/real/*-l2), for the README's "Copies within a GPU and
the L2 cache". Per mode and GPU: the rate of the bytes beyond the fixed cost (bytes read + written
per ns, from a least-squares line through the medians) for operations whose data fits well inside
the L2 cache (footprint, 2n for a copy and n for a memset, from 2 MiB to 24 MiB), and for those
far past it (256 MiB to 1 GiB); then the H200 / H100 ratio of each, which is what a projection
from one onto the other has to carry; then, for the same copy again and again, the rate between
consecutive sizes, which shows where copies leave the L2 rate; and the share of such a copy's bytes
that came at the L2's rate rather than the memory's, by footprint (time beyond the fixed cost =
share / L2 rate + (1 - share) / past-L2 rate), from which the nodes' l2_resident_mib comes."""
import csv
import sys


def rates(folder):
    rows = list(csv.DictReader(open(f"{folder}/l2_copy_summary.csv")))
    out = {}
    for mode in dict.fromkeys(r["mode"] for r in rows):
        traffic = 1 if mode.startswith("memset") else 2
        pts = [(int(r["bytes"]) * traffic, float(r["median_ns"])) for r in rows if r["mode"] == mode]

        def slope_rate(lo, hi):
            sel = [(x, y) for x, y in pts if lo <= x <= hi]
            n = len(sel)
            mx = sum(x for x, _ in sel) / n
            my = sum(y for _, y in sel) / n
            slope = sum((x - mx) * (y - my) for x, y in sel) / sum((x - mx) ** 2 for x, _ in sel)
            return 1 / slope  # bytes per ns = GB/s

        out[mode] = (slope_rate(2 << 20, 24 << 20), slope_rate(256 << 20, 2 << 30),
                     min(y for x, y in pts if x <= 2 * traffic))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: l2_copy.py H100_FOLDER H200_FOLDER")
    a, b = rates(sys.argv[1]), rates(sys.argv[2])
    print("| mode | H100 in L2 | H100 past L2 | H200 in L2 | H200 past L2 | H200/H100 in L2 | H200/H100 past L2 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mode in a:
        (ai, ao, _), (bi, bo, _) = a[mode], b[mode]
        print(f"| {mode} | {ai:.0f} | {ao:.0f} | {bi:.0f} | {bo:.0f} | {bi / ai:.2f} | {bo / ao:.2f} |")
    print("(GB/s of bytes read + written beyond the fixed cost; in L2: footprint 2-24 MiB; past: 256 MiB-2 GiB)")
    print()
    print("Where the same copy again and again leaves the L2 rate: GB/s between consecutive sizes, by footprint")
    for label, folder in (("H100", sys.argv[1]), ("H200", sys.argv[2])):
        pts = [(int(r["bytes"]) * 2, float(r["median_ns"])) for r in csv.DictReader(open(f"{folder}/l2_copy_summary.csv"))
               if r["mode"] == "copy_warm" and (2 << 20) <= int(r["bytes"]) * 2 <= (128 << 20)]
        print(f"{label}: " + ", ".join(f"{a >> 20}-{b >> 20} MiB {(b - a) / (tb - ta):.0f}"
                                      for (a, ta), (b, tb) in zip(pts, pts[1:])))
    print()
    print("Share of the same copy's bytes at the L2's rate, by footprint")
    for label, folder, r in (("H100", sys.argv[1], a), ("H200", sys.argv[2], b)):
        in_l2, past, fixed = r["copy_warm"]
        pts = [(int(x["bytes"]) * 2, float(x["median_ns"])) for x in csv.DictReader(open(f"{folder}/l2_copy_summary.csv"))
               if x["mode"] == "copy_warm" and (16 << 20) <= int(x["bytes"]) * 2 <= (128 << 20)]
        shares = [((t - fixed) / fp - 1 / past) / (1 / in_l2 - 1 / past) for fp, t in pts]
        print(f"{label}: " + ", ".join(f"{fp >> 20} MiB {sh:.2f}" for (fp, _), sh in zip(pts, shares)))


if __name__ == "__main__":
    main()
