#!/usr/bin/env python3
"""gen_trace.py N OUT.csv [--gpus 8] [--seed 1] [--distinct]: a linkcast CSV trace of N copies for
whole-command timings (project, matrix, sweep, report) on an 8-GPU HGX-like node.

Kinds are host<->GPU (pinned and pageable), device-to-device and peer copies between the GPUs;
sizes are powers of two from 1 B to 256 MiB, as real traces repeat a few sizes; with --distinct
every size is different (the worst case for a sweep, which prices each distinct operation once).
Durations are synthetic (1 us + bytes / 20 GB/s). Streams cycle over 16.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("--gpus", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--distinct", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.out, "w") as f:
        f.write("kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream\n")
        t = 0
        lines = []
        for i in range(a.n):
            g = rng.randrange(a.gpus)
            r = rng.randrange(8)
            if r < 2:
                src, dst, sm, dm = "cpu0", f"gpu{g}", "pinned", "device"
            elif r < 3:
                src, dst, sm, dm = "cpu0", f"gpu{g}", "pageable", "device"
            elif r < 5:
                src, dst, sm, dm = f"gpu{g}", "cpu0", "device", "pinned"
            elif r < 6:
                src, dst, sm, dm = f"gpu{g}", "cpu0", "device", "pageable"
            elif r < 7:
                src, dst, sm, dm = f"gpu{g}", f"gpu{g}", "device", "device"
            else:
                h = (g + 1 + rng.randrange(a.gpus - 1)) % a.gpus
                src, dst, sm, dm = f"gpu{g}", f"gpu{h}", "device", "device"
            size = (1 << rng.randrange(29)) + (i if a.distinct else 0)
            dur = 1000 + size // 20
            lines.append(f"copy,{src},{dst},{size},{sm},{dm},{t},{dur},{i % 16}\n")
            t += dur
            if len(lines) >= 100000:
                f.writelines(lines)
                lines = []
        f.writelines(lines)


if __name__ == "__main__":
    main()
