#!/usr/bin/env python3
"""stream_gaps.py TRACE.json.gz...: how long after its stream predecessor's end GPU work started
where its launch does not explain its start (it began more than 2 x the trace's launch latency
+ 5 us after its launching call: the CPU ran ahead of a backlogged GPU), in buckets of the gap.
What the application replay's stream rule for such work (sim/app_graph.cpp,
kBackloggedStreamSlackNs) rests on; the figure in its comment:
    python3 tools/results/stream_gaps.py tests/data/real/h*-1gpu-apps*/app_*.json.gz
The trace's launch latency is its median start-after-call of work whose stream had been idle
50 us or more and that started within 50 us of its call (infer_app_graph's typical_launch).
Gaps of 3 us or less are left out: the replay takes those as held by the stream anyway."""
import gzip
import json
import statistics
import sys

BUCKETS = [(3, 4), (4, 6), (6, 10), (10, 20), (20, 40), (40, 100), (100, float("inf"))]


def gaps(path):
    events = json.load(gzip.open(path, "rt"))["traceEvents"]
    calls = {e["args"].get("correlation"): e for e in events
             if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver")}
    work = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")),
                  key=lambda e: e["ts"])
    last, free, seen = {}, [], []
    for e in work:
        key = (e["args"].get("device"), e["args"].get("stream"))
        prev, call = last.get(key), calls.get(e["args"].get("correlation"))
        since_prev = e["ts"] - (prev["ts"] + prev["dur"]) if prev else float("inf")
        since_call = e["ts"] - call["ts"] if call else None
        if since_call is not None and since_prev > 50 and 0 <= since_call < 50:
            free.append(since_call)
        last[key] = e
        seen.append((since_prev, since_call))
    typical = statistics.median(free) if free else 5.0
    return [p for p, c in seen if c is not None and c > 2 * typical + 5 and 3 < p < float("inf")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    all_gaps = [g for path in sys.argv[1:] for g in gaps(path)]
    print(f"{len(sys.argv) - 1} traces; gaps of work its launch does not explain, after its stream predecessor:")
    for lo, hi in BUCKETS:
        n = sum(1 for g in all_gaps if lo < g <= hi)
        print(f"  {lo}-{hi if hi != float('inf') else ''} us: {n}")
    upto10 = sum(1 for g in all_gaps if g <= 10)
    upto100 = sum(1 for g in all_gaps if g <= 100)
    print(f"  3-10 us: {upto10} of the {upto100} of 3-100 us ({len(all_gaps)} in all)")


if __name__ == "__main__":
    main()
