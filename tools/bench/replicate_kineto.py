#!/usr/bin/env python3
"""A large Kineto trace from a recorded one: its events repeated N times one after another
(timestamps shifted by the span, correlation and flow ids offset), for whole-command timings of
the application replay and the Kineto reader.

    python3 tools/bench/replicate_kineto.py tests/data/real/h100-1gpu-apps/app_gpt_mixed.json.gz 20 big.json
"""
import gzip
import json
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, copies, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rt") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    timed = [e for e in events if isinstance(e.get("ts"), (int, float))]
    t0 = min(e["ts"] for e in timed)
    span = max(e["ts"] + e.get("dur", 0) for e in timed) - t0 + 1000
    # Written as it goes (a 10 GB trace is far more than Python holds in memory): the document's
    # other keys first, then the events one copy at a time.
    rest = {k: v for k, v in doc.items() if k != "traceEvents"}
    count = 0
    with open(dst, "w") as f:
        head = json.dumps(rest)
        f.write(head[:-1] + (", " if rest else "") + '"traceEvents": [\n')
        for k in range(copies):
            for e in events:
                if e.get("ph") == "M" and k > 0:
                    continue  # metadata once
                e2 = dict(e)
                if isinstance(e2.get("ts"), (int, float)):
                    e2["ts"] += k * span
                args = e2.get("args")
                if isinstance(args, dict) and "correlation" in args:
                    e2["args"] = dict(args, correlation=args["correlation"] + k * 10_000_000)
                if e2.get("ph") in ("s", "f") and isinstance(e2.get("id"), int):
                    e2["id"] += k * 10_000_000
                f.write((",\n" if count else "") + json.dumps(e2))
                count += 1
        f.write("\n]}\n")
    print(f"{dst}: {count} events")


if __name__ == "__main__":
    main()
