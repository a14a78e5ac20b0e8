"""Pageable copies around the CUDA driver's staging chunk, for linkcast's pricing of pageable copies
in CUPTI-timed traces (Kineto, Nsight Systems, nvprof).

For each size from 64 KiB to 8 MiB (finely from 768 KiB to 4 MiB) and each direction, REPS
pageable copies between one reused, touched host buffer and the GPU (torch .copy_ of a CPU tensor
into a device tensor and back, blocking as PyTorch does for pageable memory), each bracketed by
two CUDA events on the stream, all under torch.profiler (CPU + CUDA activities). Writes to --out:
  pageable_chunks.json.gz  the Kineto trace (each copy's GPU activity and its cudaMemcpyAsync call)
  pageable_chunks.csv      direction,bytes,rep,event_us,wall_us: the events' time (the stream's
                           view: staging and DMA) and the host's wall time of the blocking call
  pinned rows likewise (direction h2d_pinned / d2h_pinned) for the DMA rate beside them.
Usage: python3 pageable_chunks.py --out DIR [--reps 20]
"""
import argparse
import csv
import gzip
import os
import shutil
import time

import torch
from torch.profiler import ProfilerActivity, profile

KIB = 1024
MIB = 1024 * KIB
SIZES = ([64 * KIB, 128 * KIB, 256 * KIB, 512 * KIB] +
         [int(m * MIB) for m in (0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 6, 8)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    dev = torch.device("cuda", 0)
    top = max(SIZES)
    host = torch.empty(top, dtype=torch.uint8).fill_(7)  # pageable, every page touched
    pinned = torch.empty(top, dtype=torch.uint8).pin_memory().fill_(7)
    gpu = torch.empty(top, dtype=torch.uint8, device=dev).fill_(3)
    rows = []

    def run(direction, n, rep):
        src_host = pinned if direction.endswith("pinned") else host
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter_ns()
        a.record()
        if direction.startswith("h2d"):
            gpu[:n].copy_(src_host[:n], non_blocking=direction.endswith("pinned"))
        else:
            src_host[:n].copy_(gpu[:n], non_blocking=direction.endswith("pinned"))
        b.record()
        b.synchronize()
        wall = (time.perf_counter_ns() - t0) / 1e3
        rows.append((direction, n, rep, a.elapsed_time(b) * 1e3, wall))

    for n in SIZES:  # warm-up, unprofiled
        for d in ("h2d", "d2h", "h2d_pinned", "d2h_pinned"):
            run(d, n, -1)
    rows.clear()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for n in SIZES:
            for d in ("h2d", "d2h", "h2d_pinned", "d2h_pinned"):
                for rep in range(args.reps):
                    run(d, n, rep)
    raw = os.path.join(args.out, "pageable_chunks.json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as f, gzip.open(raw + ".gz", "wb") as g:
        shutil.copyfileobj(f, g)
    os.remove(raw)
    with open(os.path.join(args.out, "pageable_chunks.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["direction", "bytes", "rep", "event_us", "wall_us"])
        for r in rows:
            w.writerow([r[0], r[1], r[2], f"{r[3]:.3f}", f"{r[4]:.3f}"])
    print(f"pageable_chunks: {len(rows)} copies, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name(0)}")


if __name__ == "__main__":
    main()
