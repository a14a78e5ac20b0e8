#!/usr/bin/env python3
"""nccl_p2p_call.py: what NCCL's send/receive kernel costs a GPU per call (node key nccl_p2p_call_us).

An alltoall is NCCL's send/receive kernel, not a collective kernel: grouped ncclSend/ncclRecv to
every peer (nccl-tests' alltoall). Its calls of 8 B to 2 KiB replayed back to back from a CUDA graph
move nothing worth pricing, so each takes the kernel's per-call cost and the one LL step its sends
and receives wait for (nccl_ll_step_us of the node). The value is the median such call less that
step, from --fit (default tests/data/real/h200-4gpu-nccl-small, every variant: NCCL_PROTO does not
reach p2p sends, so each is one more sample of the same calls).

It then prints what call + step says against the other recordings of such calls (--check, default
the 4-GPU recording of another machine, h200-4gpu-nccl-small2, and the 2-GPU one,
h200-2gpu-p2p-small): one peer on 2 GPUs or three on 4, the kernel costs the same.
"""
import argparse
import csv
import os
import statistics

REAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "real")
MAX_BYTES = 2048


def tiny_alltoalls(folder):
    """(bytes, time_us) of the alltoalls of at most MAX_BYTES replayed from CUDA graphs."""
    with open(os.path.join(folder, "nccl_bench.csv")) as f:
        return [(int(r["bytes"]), float(r["time_us"])) for r in csv.DictReader(f)
                if r["collective"] == "alltoall" and r["launch"] == "graph" and int(r["bytes"]) <= MAX_BYTES]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fit", default=os.path.join(REAL, "h200-4gpu-nccl-small"))
    ap.add_argument("--check", nargs="*", default=[os.path.join(REAL, "h200-4gpu-nccl-small2"),
                                                   os.path.join(REAL, "h200-2gpu-p2p-small")])
    ap.add_argument("--step-us", type=float, default=1.0, help="the node's nccl_ll_step_us")
    args = ap.parse_args()
    calls = tiny_alltoalls(args.fit)
    if not calls:
        raise SystemExit(f"{args.fit}: no alltoall of at most {MAX_BYTES} B from CUDA graphs")
    median_us = statistics.median(t for _, t in calls)
    call_us = median_us - args.step_us
    print(f"fit: {os.path.relpath(args.fit)}: {len(calls)} calls of 8 B-{MAX_BYTES} B, median {median_us:.2f} us")
    print(f"  nccl_p2p_call_us: {call_us:.1f}   (median less nccl_ll_step_us {args.step_us})")
    predicted = round(call_us, 1) + args.step_us
    for folder in args.check:
        rows = tiny_alltoalls(folder)
        if not rows:
            print(f"check: {os.path.relpath(folder)}: no such calls")
            continue
        errors = [(predicted - t) / t for _, t in rows]
        print(f"check: {os.path.relpath(folder)}: {len(rows)} calls, median {statistics.median(t for _, t in rows):.2f} us;"
              f" call + step {predicted:.1f} us: mean |error| {100 * statistics.mean(abs(e) for e in errors):.1f}%,"
              f" largest {100 * max(abs(e) for e in errors):.1f}%")


if __name__ == "__main__":
    main()
