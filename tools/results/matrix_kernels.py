#!/usr/bin/env python3
"""matrix_kernels.py [SESSION:APP ...]: how matrix kernels (GEMMs, convolutions: names as
classify_kernel) follow the GPU's memory rate, H100 -> H200, from tests/data/real/h100-1gpu-matrix
and h200-1gpu-matrix (tools/record/run_matrix.sh).

1. Per case of matrix_roofline.py: each kernel's median GPU time on either GPU (its Kineto trace,
   kernels assigned to their case by the launch's time inside the `case:` annotation), the ratio,
   and the share of the H100's streaming rate (2879 GB/s) that the case's tensors read and written
   once would make in the kernel's time, with its operator's "Input Dims" alone (`u_in`, what the
   trace gives linkcast) beside it.
2. Matrix- and memory-class kernels summed, for the microbenchmark and for apps: their H100 and H200
   times, and the error of two rules for a matrix kernel's H200 time: kept (linkcast: a matrix
   kernel keeps its time between GPUs of one FLOP rate), and the memory-bound kernels' rule applied
   to it (factor 1 - u_in + u_in x 2879 / 4095).
Default apps: every app of the -matrix folders, then vision_bf16 (apps4), gpt_mixed and
train_pinned (apps). SESSION:APP names others (e.g. apps2:gpt_mixed).
"""
import collections
import csv
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_shares import H100_STREAM, H200_STREAM, MATRIX, kernels  # noqa: E402

REAL = "tests/data/real"


def is_matrix(name):
    return any(m in name.lower() for m in MATRIX)


def case_kernels(path):
    """{case: {kernel name: [GPU ns...]}} from a matrix_roofline.json.gz."""
    events = json.load(gzip.open(path, "rt"))["traceEvents"]
    cases = sorted((e["ts"], e["ts"] + e["dur"], e["name"][5:]) for e in events
                   if e.get("ph") == "X" and e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("case:"))
    launches = {e["args"].get("correlation"): e["ts"] for e in events
                if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver")}
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for e in events:
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        t = launches.get(e["args"].get("correlation"))
        for begin, end, case in cases:
            if t is not None and begin <= t <= end:
                out[case][e["name"]].append(e["dur"] * 1e3)
    return out


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def per_case():
    a = case_kernels(f"{REAL}/h100-1gpu-matrix/matrix_roofline.json.gz")
    b = case_kernels(f"{REAL}/h200-1gpu-matrix/matrix_roofline.json.gz")
    sizes = {r["case"]: r for r in csv.DictReader(open(f"{REAL}/h100-1gpu-matrix/matrix_roofline.csv"))}
    print("case                   H100 us   H200 us  ratio  u(all)  TFLOP/s  kernel")
    for case in a:
        main = {k: median(v) for k, v in a[case].items()}
        name = max(main, key=main.get)  # the case's longest kernel
        t1 = sum(median(v) for v in a[case].values())
        t2 = sum(median(v) for v in b[case].values())
        row = sizes[case]
        u = float(row["min_bytes"]) / t1 / H100_STREAM
        tflops = float(row["flops"]) / t1 / 1e3
        same = "" if set(a[case]) == set(b[case]) else " (other kernels on the H200)"
        print(f"{case:20} {t1 / 1e3:9.1f} {t2 / 1e3:9.1f}  {t2 / t1:.3f}  {u:6.2f}  {tflops:7.0f}  {name[:44]}{same}")


def sums(path_a, path_b, label):
    r = H100_STREAM / H200_STREAM
    a, b = kernels(path_a), kernels(path_b)
    t = collections.Counter()
    for name, runs in a.items():
        other = b.get(name, [])
        if len(other) != len(runs):
            t["unmatched"] += sum(x[0] for x in runs)
            continue
        c = "matrix" if is_matrix(name) else "memory"
        for (dur, occ, ob), o in zip(runs, other):
            # as application/kernel_scaling.cpp: the occupancy where the operator has no shapes
            u = min(max(occ, 0), 100) / 100 if ob is None or dur <= 0 else min(1.0, ob[0] / (dur * 1e3) / H100_STREAM)
            t[c + "1"] += dur
            t[c + "2"] += o[0]
            t[c + "rule"] += dur * (1 - u + u * r)
    for c in ("matrix", "memory"):
        if t[c + "1"] <= 0:
            continue
        h1, h2 = t[c + "1"], t[c + "2"]
        extra = f"; kept {100 * (h1 / h2 - 1):+.1f}%, memory rule {100 * (t[c + 'rule'] / h2 - 1):+.1f}%" if c == "matrix" \
            else f"; memory rule {100 * (t[c + 'rule'] / h2 - 1):+.1f}%"
        print(f"{label:32} {c:6}: H100 {h1 / 1e3:8.2f} ms, H200 {h2 / 1e3:8.2f} ms ({h2 / h1:.3f}){extra}")


def main():
    per_case()
    print()
    sums(f"{REAL}/h100-1gpu-matrix/matrix_roofline.json.gz", f"{REAL}/h200-1gpu-matrix/matrix_roofline.json.gz",
         "matrix_roofline")
    apps = sys.argv[1:] or (["matrix:" + f[4:-8] for f in sorted(os.listdir(f"{REAL}/h100-1gpu-matrix"))
                             if f.startswith("app_")] + ["apps4:vision_bf16", "apps:gpt_mixed", "apps:train_pinned"])
    for spec in apps:
        session, app = spec.split(":")
        sums(f"{REAL}/h100-1gpu-{session}/app_{app}.json.gz", f"{REAL}/h200-1gpu-{session}/app_{app}.json.gz",
             f"{app} ({session})")


if __name__ == "__main__":
    main()
