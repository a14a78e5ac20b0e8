#!/usr/bin/env python3
"""warm_cold.py FOLDER: how much faster NCCL calls ran on one set of buffers (which stays in the L2
where it fits) than on a new set each call, from a recording whose nccl_bench.csv holds each
variant twice, `<variant>` and `<variant>_cold` (tools/record/run_nccl_l2.sh, run_nccl_llfifo.sh,
run_nccl_treel2.sh). Prints, per variant and collective, each size's time on one set over its time
on a new set (1.00: the L2 did not help; calls of 1-4 MiB on a new set also carry a per-call cost
of the many buffer sets in one CUDA graph, whatever the protocol)."""
import csv
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    times = {}
    for r in csv.DictReader(open(f"{sys.argv[1]}/nccl_bench.csv")):
        if r.get("launch", "eager") == "graph":
            times[(r["variant"], r["collective"], int(r["bytes"]))] = float(r["time_us"])
    for variant, collective in dict.fromkeys((v, c) for v, c, _ in times if not v.endswith("_cold")):
        cells = [f"{size >> 20} MiB {times[(variant, collective, size)] / times[(variant + '_cold', collective, size)]:.2f}"
                 for v, c, size in sorted(times) if v == variant and c == collective
                 and (variant + "_cold", collective, size) in times]
        if cells:
            print(f"{variant:14} {collective:14} " + ", ".join(cells))


if __name__ == "__main__":
    main()
