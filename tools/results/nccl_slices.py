#!/usr/bin/env python3
"""nccl_slices.py [DIR]: what a ring/Simple primitive's slice costs its block beside its bytes
(node key nccl_simple_slice_us), from NCCL calls on one channel with three connection-buffer sizes
(tools/record/run_nccl_buffsize.sh; default tests/data/real/h200-2gpu-buffsize).

With NCCL_BUFFSIZE = B a ring loop moves B/2 bytes per rank (4 of the buffer's 8 slots) and each
of its primitives runs 2 slices (ALLGATHER/REDUCESCATTER/ALLREDUCE_CHUNKSTEPS / SLICESTEPS); a
2-GPU call of S bytes runs ceil(S / B) loops. Per collective, the call's time is fitted as
a + r x S + L x loops over its sizes (1-32 MiB) and the three buffers (least squares): L is what a
loop costs beyond its bytes. A rank's block runs 2 primitives a loop in an all-gather (copySend,
recv) and a reduce-scatter (send, recvReduceCopy), 3 in an allreduce (send, recvReduceCopySend,
recv): L / (2 x primitives) is a slice's cost; the one value that fits the three loops' L =
slices x value best (least squares) is printed last.
"""
import csv
import math
import os
import sys

SLICES = 2  # slices a ring/Simple primitive runs on a chunk above 32 KiB (nccl::kRingSlicesPerChunk)


def primitives(collective, n):
    """The primitives a rank's block runs each loop of a ring call on n ranks: one per step it
    sends and its final receive."""
    return {"allgather": n, "reducescatter": n, "allreduce": 2 * n - 1}[collective]


def solve(a, b):
    """The square system a x = b by Gauss-Jordan elimination with partial pivoting."""
    n = len(b)
    m = [list(map(float, row)) + [float(v)] for row, v in zip(a, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def lstsq(rows, y):
    """Least squares by the normal equations."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * v for r, v in zip(rows, y)) for i in range(n)]
    return solve(a, b)


DEFAULT = "tests/data/real/h200-2gpu-buffsize"


def fit(folder=DEFAULT, out=None):
    """nccl_simple_slice_us: the one slice cost that fits every collective's loop cost L = slices x
    value by least squares. Prints each collective's fit (a, r, L, L / slices, largest residual) to
    `out` where given."""
    rows = [r for r in csv.DictReader(open(os.path.join(folder, "buffsize.csv")))
            if r["variant"] == "ring_simple_ch1" and r["nranks"] == "2"]
    if out:
        print(f"{folder}: ring/Simple on one channel, 2 GPUs, time = a + r x bytes + L x loops", file=out)
    weighted, slices = 0.0, 0
    for coll in ("allgather", "reducescatter", "allreduce"):
        prims = primitives(coll, 2)
        x, y = [], []
        for r in rows:
            if r["collective"] != coll:
                continue
            size, buff = int(r["bytes"]), int(r["buffsize_bytes"])
            x.append([1.0, size / 2**20, math.ceil(size / buff)])
            y.append(float(r["time_us"]))
        a, rate, loop = lstsq(x, y)
        resid = max(abs(sum(c * v for c, v in zip(xi, (a, rate, loop))) - yi) / yi for xi, yi in zip(x, y))
        slice_us = loop / (SLICES * prims)
        weighted += slice_us * (SLICES * prims) ** 2
        slices += (SLICES * prims) ** 2
        if out:
            print(f"  {coll:14} {len(y)} calls: a {a:5.1f} us, r {rate:5.2f} us/MiB, L {loop:5.2f} us a loop "
                  f"({SLICES * prims} slices: {slice_us:.2f} us a slice); largest residual {100 * resid:.1f}%",
                  file=out)
    return weighted / slices


def main():
    value = fit(sys.argv[1] if len(sys.argv) > 1 else DEFAULT, sys.stdout)
    print(f"  nccl_simple_slice_us: {value:.2f}   (the three loops' L = slices x value, least squares)")


if __name__ == "__main__":
    main()
