#!/usr/bin/env python3
"""eager_misses.py CSV: the calls issued from Python past 20% that the host's recorded issue time
cannot explain, because their recording did not time the host (no issue_us, no calls of up to
64 KiB in the same loop: the CSV's pace column says neither "issue_us" nor "small calls"), from one
`linkcast_validate_real ... --csv CSV` run (tools/results/collectives_all.sh writes one).

Prints how many there are from 1 MiB and of 1-8 MiB, and for those of 1-8 MiB the recorded time
per call issued from Python beside the same call replayed from a CUDA graph in the same session
(where the session recorded both): median and range. A call that took far longer issued from
Python than from a graph was paced by its host.
"""
import csv
import statistics
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[0])
    rows = [r for r in csv.DictReader(open(sys.argv[1]))
            if r["group"] != "copies" and not r["group"].startswith("pipeline/")]
    by_key = {(r["machine"], r["group"], r["case"], r["bytes"]): r for r in rows}
    misses = []
    for (machine, group, case, nbytes), r in by_key.items():
        paced = r["pace"] in ("issue_us", "small calls") if "pace" in r else bool(r.get("issue_us"))
        if "+graph" in group or paced or int(nbytes) < 1 << 20:
            continue
        measured = float(r["measured_ns"])
        if abs(float(r["simulated_ns"]) - measured) / measured > 0.2:
            misses.append((machine, group, case, nbytes, measured))
    small = [m for m in misses if int(m[3]) <= 8 << 20]
    print(f"eager calls from 1 MiB past 20% at a pace not recorded: {len(misses)}, of 1-8 MiB: {len(small)}")
    eager = [m[4] / 1e3 for m in small]
    twins = [(m[4] / 1e3, float(by_key[(m[0], m[1] + "+graph", m[2], m[3])]["measured_ns"]) / 1e3)
             for m in small if (m[0], m[1] + "+graph", m[2], m[3]) in by_key]

    def span(values):
        return f"median {statistics.median(values):.1f} us, {min(values):.1f}-{max(values):.1f}"

    print(f"  1-8 MiB issued from Python: {span(eager)}")
    if twins:
        print(f"  the {len(twins)} with a CUDA-graph twin: from Python {span([t[0] for t in twins])}; "
              f"from the graph {span([t[1] for t in twins])}")


if __name__ == "__main__":
    main()
