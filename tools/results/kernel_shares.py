#!/usr/bin/env python3
"""kernel_shares.py APP SESSIONS... [--kernels N]: the memory-class kernels of a PyTorch app recorded on the H100
and on the H200 testbeds (tests/data/real/h100-1gpu-<sessions>, h200-1gpu-<sessions>), summed: their
recorded time on each, and what the H100 time becomes on the H200 when each kernel's memory-bound
share f (factor 1 - f + f x r, r = 2879 / 4095, the nodes' streaming rates) is taken as
  occupancy  Kineto's "est. achieved occupancy %" (linkcast before 2026-11-27)
  inputs     the bytes of the tensors of the kernel's CPU operator ("Input Dims" x "Input type"
             sizes, a TensorList's tensors at the operator's first typed size, else 4 B) over its
             time, over the H100's streaming rate, at most 1 (application/kernel_scaling.cpp)
  in+out     the same with the largest input counted once more, as written
Kernels are matched by name and order; matrix kernels (names as classify_kernel) are left out.
The README's "A whole application" table:
    for a in train_pinned ... ; do python3 tools/results/kernel_shares.py $a apps apps2 apps3; done
    python3 tools/results/kernel_shares.py vision_bf16 apps4
--kernels N also lists the N memory-class kernels with the most H100 time: their time on each GPU,
and the share of the H100's streaming rate their operators' tensors make (time-weighted).
"""
import collections
import gzip
import json
import math
import sys

SIZES = {"float": 4, "double": 8, "c10::Half": 2, "c10::BFloat16": 2, "long int": 8, "int": 4,
         "short int": 2, "signed char": 1, "unsigned char": 1, "bool": 1, "c10::complex<float>": 8,
         "c10::complex<double>": 16}
MATRIX = ["gemm", "xmma", "conv", "fprop", "dgrad", "wgrad", "cutlass", "nvjet", "flash", "attention",
          "mma", "cublas"]
H100_STREAM, H200_STREAM = 2879.0, 4095.0


def dims_elements(d):
    return math.prod(d) if isinstance(d, list) and d and all(isinstance(x, int) for x in d) else None


def operator_bytes(args):
    dims, types = args.get("Input Dims"), args.get("Input type")
    if dims is None or types is None:
        return None
    list_size = next((SIZES[t] for t in types if t in SIZES), 4)
    total, largest, any_ = 0, 0, False
    for d, t in zip(dims, types):
        if t in SIZES and dims_elements(d) is not None:
            v = dims_elements(d) * SIZES[t]
        elif t == "TensorList" and isinstance(d, list):
            v = sum(dims_elements(x) * list_size for x in d if dims_elements(x) is not None)
        else:
            continue
        total, largest, any_ = total + v, max(largest, v), True
    # as trace/kineto_shapes.cpp: no bytes (a TensorList written with empty dims, as PyTorch 2
    # writes its foreach operators') is no shape
    return (total, largest) if any_ and total > 0 else None


def occupancy_pct(args):
    """As application/kernel_scaling.cpp's fallback: Kineto's "est. achieved occupancy %", else the
    resident warps ("blocks per SM" x the block's warps) over the SM's 64, else 100."""
    if "est. achieved occupancy %" in args:
        return args["est. achieved occupancy %"]
    block = args.get("block")
    blocks_per_sm = args.get("blocks per SM", 0)
    if isinstance(block, list) and block and blocks_per_sm > 0:
        threads = math.prod(block)
        if threads > 0:
            return min(100.0, 100.0 * blocks_per_sm * math.ceil(threads / 32) / 64)
    return 100


def kernels(path):
    events = json.load(gzip.open(path, "rt"))["traceEvents"]
    ops = {}
    for e in events:
        if e.get("cat") == "cpu_op":
            b = operator_bytes(e.get("args", {}))
            x = e.get("args", {}).get("External id")
            if b is not None and x is not None and x not in ops:
                ops[x] = b
    by_name = collections.defaultdict(list)
    for e in events:
        if e.get("cat") in ("kernel", "Kernel") and e.get("ph") == "X":
            a = e.get("args", {})
            by_name[e["name"]].append((e["dur"], occupancy_pct(a), ops.get(a.get("External id"))))
    return by_name


def main():
    args = sys.argv[1:]
    top = 0
    if "--kernels" in args:
        at = args.index("--kernels")
        top = int(args[at + 1])
        del args[at:at + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    app, r = args[0], H100_STREAM / H200_STREAM
    for sessions in args[1:]:
        a = kernels(f"tests/data/real/h100-1gpu-{sessions}/app_{app}.json.gz")
        b = kernels(f"tests/data/real/h200-1gpu-{sessions}/app_{app}.json.gz")
        tot = collections.Counter()
        per_kernel = collections.defaultdict(collections.Counter)
        for name, runs in a.items():
            if any(m in name.lower() for m in MATRIX):
                continue
            for (dur, occ, ob), other in zip(runs, b.get(name, [])):
                f_occ = min(max(occ, 0), 100) / 100
                shares = {"occupancy": f_occ}
                for label, count_out in (("inputs", False), ("in+out", True)):
                    if ob is None or dur <= 0:
                        shares[label] = f_occ
                    else:
                        moved = ob[0] + (ob[1] if count_out else 0)
                        shares[label] = min(1.0, moved / (dur * 1e3) / H100_STREAM)
                tot["h100"] += dur
                tot["h200"] += other[0]
                k = per_kernel[name]
                k["h100"] += dur
                k["h200"] += other[0]
                k["share_time"] += shares["inputs"] * dur
                for label, f in shares.items():
                    tot[label] += dur * (1 - f + f * r)
        line = f"{app} {sessions}: H100 {tot['h100'] / 1e3:.1f} ms, H200 {tot['h200'] / 1e3:.1f} ms;"
        for label in ("occupancy", "inputs", "in+out"):
            line += f" {label} {tot[label] / 1e3:.1f} ({100 * (tot[label] / tot['h200'] - 1):+.1f}%)"
        print(line)
        for name, k in sorted(per_kernel.items(), key=lambda x: -x[1]["h100"])[:top]:
            print(f"  {k['h100'] / 1e3:8.1f} ms H100 {k['h200'] / 1e3:8.1f} ms H200 ({k['h200'] / k['h100']:.3f}x), "
                  f"share {k['share_time'] / k['h100']:.2f}: {name[:70]}")


if __name__ == "__main__":
    main()
