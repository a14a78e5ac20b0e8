#!/usr/bin/env python3
"""sm_waits.py TRACE.json.gz...: GPU work that started while a device-to-device copy of at least
1 MiB ran on another stream of its GPU, more than 10 us after its launching call (so not held by
its launch): where in the copy it started. What the application replay's "waits for their SMs"
(sim/app_graph.hpp) rests on; the README's figures for app_d2d_beside_compute:
    python3 tools/results/sm_waits.py tests/data/real/h100-1gpu-apps/app_d2d_beside_compute.json.gz \\
        tests/data/real/h200-1gpu-apps/app_d2d_beside_compute.json.gz
Prints, per trace, how many such starts, how long before the copy's end each started (range), and
the share of the copy's time that had passed (range), split by whether the work took less than a
quarter of the copy's time."""
import gzip
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        events = json.load(gzip.open(path, "rt"))["traceEvents"]
        calls = {e["args"].get("correlation"): e for e in events if e.get("cat") == "cuda_runtime" and e.get("ph") == "X"}
        copies = [e for e in events if e.get("cat") == "gpu_memcpy" and e.get("ph") == "X" and "DtoD" in e["name"]
                  and e["args"].get("bytes", 0) >= 1 << 20]
        work = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy") and e.get("ph") == "X"]
        held = {"taking under a quarter of the copy's time": [], "taking more": []}
        for w in work:
            call = calls.get(w["args"].get("correlation"))
            if call is None or w["ts"] - call["ts"] <= 10:
                continue
            for c in copies:
                if c is w or c["args"].get("stream") == w["args"].get("stream"):
                    continue
                if c["ts"] < w["ts"] < c["ts"] + c["dur"]:
                    key = "taking under a quarter of the copy's time" if w["dur"] < c["dur"] / 4 else "taking more"
                    held[key].append((c["ts"] + c["dur"] - w["ts"], (w["ts"] - c["ts"]) / c["dur"]))
                    break
        print(path)
        for key, v in held.items():
            if v:
                print(f"  {len(v)} {key}: started {min(x for x, _ in v):.0f}-{max(x for x, _ in v):.0f} us before "
                      f"the copy's end, {min(s for _, s in v):.2f}-{max(s for _, s in v):.2f} of its time in")


if __name__ == "__main__":
    main()
