#!/usr/bin/env python3
"""Writes a linkcast CSV trace of random copies for the simulator's speed target:
N copies (default 100,000) round-robin over S streams (default 1,000), between random CPU/GPU
endpoints of an 8-GPU, 2-socket node (never CPU to CPU), sizes log-uniform 4 KiB..16 MiB,
pinned host memory, no recorded times (streams alone order them).

  python3 tools/validate/make_copies_trace.py [N] [S] [SEED] > copies.csv
  time build/linkcast simulate configs/dgx1-v100.yaml copies.csv
"""
import math
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
streams = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
endpoints = ["cpu0", "cpu1"] + [f"gpu{g}" for g in range(8)]
lo, hi = math.log(4096), math.log(16 << 20)
out = sys.stdout
out.write("kind,src,dst,bytes,src_mem,dst_mem,stream\n")
for i in range(n):
    while True:
        src, dst = rng.choice(endpoints), rng.choice(endpoints)
        if src != dst and not (src.startswith("cpu") and dst.startswith("cpu")):
            break
    mem = lambda e: "pinned" if e.startswith("cpu") else "device"
    out.write(f"copy,{src},{dst},{int(math.exp(rng.uniform(lo, hi)))},{mem(src)},{mem(dst)},{i % streams}\n")
