#!/usr/bin/env python3
"""What CUPTI and CUDA events time of a pageable copy, from tools/record/pageable_chunks.py's output
(default tests/data/real/h200-1gpu-pageable): per direction and size, the median CUPTI time of the
pageable and the pinned copy (Kineto's gpu_memcpy events), their ratio, and the pageable copy's
median time between CUDA events over the pinned copy's CUPTI time (trace::recorded_regime cites
these). Python 3 standard library only.

Usage: python3 tools/results/pageable_chunks.py [DIR]
"""
import collections
import csv
import gzip
import json
import os
import statistics
import sys


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "tests", "data", "real", "h200-1gpu-pageable")
    with gzip.open(os.path.join(folder, "pageable_chunks.json.gz")) as f:
        events = json.load(f)["traceEvents"]
    cupti = collections.defaultdict(list)
    for e in events:
        if e.get("cat") != "gpu_memcpy" or "bytes" not in e.get("args", {}):
            continue
        way = "h2d" if "HtoD" in e["name"] else "d2h"
        kind = "pinned" if "Pinned" in e["name"] else "pageable"
        cupti[(way, kind, e["args"]["bytes"])].append(e["dur"])
    events_us = collections.defaultdict(list)
    with open(os.path.join(folder, "pageable_chunks.csv")) as f:
        for r in csv.DictReader(f):
            way, _, pinned = r["direction"].partition("_")
            events_us[(way, pinned or "pageable", int(r["bytes"]))].append(float(r["event_us"]))
    print("way  bytes      pageable_us  pinned_us  pageable/pinned  events/pinned")
    for way in ("h2d", "d2h"):
        for n in sorted({k[2] for k in cupti if k[0] == way}):
            pageable = statistics.median(cupti[(way, "pageable", n)])
            pinned = statistics.median(cupti[(way, "pinned", n)])
            ev = statistics.median(events_us[(way, "pageable", n)])
            print(f"{way}  {n:>9}  {pageable:11.2f}  {pinned:9.2f}  {pageable / pinned:15.2f}  {ev / pinned:13.2f}")


if __name__ == "__main__":
    main()
