#!/usr/bin/env python3
"""Fit a protocol's per-call and per-step kernel costs (nccl_simple_call_us / _step_us, or the
nccl_ll_* pair) to tiny ring calls of two GPU counts at once.

The simulator reproduces back-to-back tiny calls (8 B - 2 KiB, replayed from CUDA graphs, so no host
in the loop) from a call's fixed cost, a cost per ring step and how consecutive calls overlap
across ranks. One GPU count alone hardly separates the two costs (a 4-GPU all-gather has 3 steps,
an allreduce 6, and the overlap blurs them); a 2-GPU set beside a 4-GPU one does (1 and 2 steps
against 3 and 6). For each pair on a grid, the script writes copies of the testbed nodes with the
pair in every GPU, runs `build/linkcast_validate_real` on the fitting folders and prints the mean
|error| of the tiny calls, per folder and together.

  python3 tools/results/nccl_call_step_fit.py [--proto simple|ll] [--max-bytes 2048]
      [--fit FOLDER:NODE ...] [--check FOLDER:NODE ...]

The defaults fit on tests/data/real/h200-2gpu-nccl-issue (2 x H200) and h200-4gpu-nccl-small
(4 x H200) and report, for the best pair, the held-out sessions h200-2gpu-nccl-issue2 and
h200-4gpu-nccl-small2 as well.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIT = ["tests/data/real/h200-2gpu-nccl-issue:configs/testbed-h200-2gpu.yaml",
       "tests/data/real/h200-4gpu-nccl-small:configs/testbed-h200-4gpu.yaml"]
CHECK = ["tests/data/real/h200-2gpu-nccl-issue2:configs/testbed-h200-2gpu.yaml",
         "tests/data/real/h200-4gpu-nccl-small2:configs/testbed-h200-4gpu.yaml"]
KINDS = ("broadcast", "allgather", "reducescatter", "allreduce")


def node_with(node, proto, call_us, step_us, out_dir):
    text = open(os.path.join(ROOT, node)).read()
    for key, value in ((f"nccl_{proto}_call_us", call_us), (f"nccl_{proto}_step_us", step_us)):
        text, n = re.subn(rf"({key}:\s*)[0-9.]+", rf"\g<1>{value:g}", text)
        if n == 0:
            sys.exit(f"{node}: no {key} to replace")
    path = os.path.join(out_dir, os.path.basename(node))
    open(path, "w").write(text)
    return path


def errors(pairs, proto, max_bytes, call_us, step_us):
    """|error| of each tiny call of `proto`, per folder."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pair in pairs:
            folder, node = pair.split(":")
            node_copy = node_with(node, proto, call_us, step_us, tmp)
            csv_path = os.path.join(tmp, "out.csv")
            subprocess.run([os.path.join(ROOT, "build/linkcast_validate_real"), os.path.join(ROOT, folder), node_copy,
                            "--csv", csv_path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            group = f"nccl/ring_{proto}+graph"
            errs = []
            for r in csv.DictReader(open(csv_path)):
                if r["group"] != group or int(r["bytes"]) > max_bytes or not r["case"].startswith(KINDS):
                    continue
                errs.append(abs(float(r["simulated_ns"]) / float(r["measured_ns"]) - 1))
            out[folder] = errs
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto", default="simple", choices=["simple", "ll"])
    ap.add_argument("--max-bytes", type=int, default=2048)
    ap.add_argument("--fit", nargs="*", default=FIT)
    ap.add_argument("--check", nargs="*", default=CHECK)
    ap.add_argument("--calls", default="6:17:1", help="first:last:step of the call costs tried, us")
    ap.add_argument("--steps", default="1.5:5.25:0.5", help="first:last:step of the step costs tried, us")
    a = ap.parse_args()

    def grid(spec):
        lo, hi, step = (float(x) for x in spec.split(":"))
        n = int(round((hi - lo) / step))
        return [round(lo + i * step, 3) for i in range(n + 1)]

    best = None
    print("call_us step_us " + " ".join(os.path.basename(p.split(":")[0]) for p in a.fit) + " together")
    for call_us in grid(a.calls):
        for step_us in grid(a.steps):
            per = errors(a.fit, a.proto, a.max_bytes, call_us, step_us)
            together = mean([e for v in per.values() for e in v])
            print(f"{call_us:7.2f} {step_us:7.2f} " + " ".join(f"{100 * mean(v):.1f}%" for v in per.values()) +
                  f" {100 * together:.1f}%", flush=True)
            if best is None or together < best[0]:
                best = (together, call_us, step_us, per)
    together, call_us, step_us, per = best
    print(f"\nbest: {a.proto} {call_us:g} us a call, {step_us:g} us a step: mean |error| {100 * together:.1f}% over "
          f"{sum(len(v) for v in per.values())} calls")
    for folder, v in per.items():
        print(f"  {folder}: {100 * mean(v):.1f}% (largest {100 * max(v):.1f}%, {len(v)} calls)")
    if a.check:
        held = errors(a.check, a.proto, a.max_bytes, call_us, step_us)
        for folder, v in held.items():
            print(f"  held out {folder}: {100 * mean(v):.1f}% (largest {100 * max(v):.1f}%, {len(v)} calls)")


if __name__ == "__main__":
    main()
