"""Matrix kernels (GEMMs and convolutions) across arithmetic intensity on cuda:0, for how a matrix
kernel's time follows the GPU's memory rate (linkcast's kernel scaling, issue 14): from skinny GEMMs
and narrow convolutions, which stream their tensors, to square ones, which the tensor cores bound.

Each case runs WITHOUT the profiler first: 3 warm-up calls, then --reps calls (default 20), each
timed alone by CUDA events on the current stream, the median kept. Then every case runs --traced
times (default 4) under torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True), all in
one Kineto trace, each case inside a record_function("case:<name>") annotation.

Cases (each with its tensors allocated once; bf16 unless named fp32, whose TF32 stays off):
  gemm_bf16_m<M>      (M x 4096) @ (4096 x 4096), M = 8 .. 8192: intensity from a few FLOPs a
                      byte to thousands
  gemm_bf16_k<K>      (8192 x K) @ (K x 8192), K = 64 .. 1024: short reductions, large outputs
  gemm_fp32_m<M>      (M x 4096) @ (4096 x 4096) in FP32 (SIMT kernels), M = 32, 512, 4096
  conv_bf16_c<C>_h<H> 3x3 convolution, padding 1, 64 x C x H x H channels_last, C -> C, forward
                      and backward (fprop, dgrad and wgrad kernels), C = 32 .. 256
  add_bf16            a + b of 256 Mi elements each: the streaming reference (no tensor cores)

Outputs (in --out):
  matrix_roofline.csv      case,kind,dtype,flops,min_bytes,median_ns,reps: flops and the bytes of
                           the inputs and outputs read and written once (forward and backward for
                           the convolutions)
  matrix_roofline.json.gz  the Kineto trace of the traced calls
  matrix_roofline_meta.json  versions, the device, clocks as torch reports them, settings
Usage: python3 matrix_roofline.py --out DIR [--reps 20] [--traced 4] [--quick]
"""

import argparse
import csv
import gzip
import json
import os
import shutil
import statistics
import sys
import time


def cases(torch, quick):
    dev = torch.device("cuda:0")
    bf16, fp32 = torch.bfloat16, torch.float32
    n = 1024 if quick else 4096
    out = []

    def gemm(name, m, k, nn, dtype):
        a = torch.randn(m, k, device=dev, dtype=dtype)
        b = torch.randn(k, nn, device=dev, dtype=dtype)
        size = a.element_size()
        out.append((name, "gemm", str(dtype).replace("torch.", ""), 2.0 * m * k * nn,
                    size * (m * k + k * nn + m * nn), lambda: a @ b))

    for m in ([8, 512] if quick else [8, 32, 128, 512, 2048, 8192]):
        gemm(f"gemm_bf16_m{m}", m, n, n, bf16)
    for k in ([64] if quick else [64, 256, 1024]):
        gemm(f"gemm_bf16_k{k}", 2 * n, k, 2 * n, bf16)
    for m in ([32] if quick else [32, 512, 4096]):
        gemm(f"gemm_fp32_m{m}", m, n, n, fp32)

    def conv(c, h):
        x = torch.randn(64, c, h, h, device=dev, dtype=bf16).to(memory_format=torch.channels_last)
        x.requires_grad_(True)
        w = torch.randn(c, c, 3, 3, device=dev, dtype=bf16).to(memory_format=torch.channels_last)
        w.requires_grad_(True)
        g = torch.randn(64, c, h, h, device=dev, dtype=bf16).to(memory_format=torch.channels_last)
        act = 64 * c * h * h * 2
        wb = c * c * 9 * 2
        flops = 3 * 2.0 * 64 * c * h * h * c * 9  # forward, dgrad, wgrad

        def run():
            y = torch.nn.functional.conv2d(x, w, padding=1)
            y.backward(g)
        # forward: x, w in, y out; backward: g, w in, dx out; g, x in, dw out
        out.append((f"conv_bf16_c{c}_h{h}", "conv", "bfloat16", flops, 3 * act + wb + 2 * act + wb + 2 * act + wb, run))

    for c, h in ([(32, 32)] if quick else [(32, 128), (64, 64), (128, 64), (256, 32), (256, 16)]):
        conv(c, h)

    elems = (1 << 20) if quick else (256 << 20)
    a = torch.randn(elems, device=dev, dtype=bf16)
    b = torch.randn(elems, device=dev, dtype=bf16)
    out.append(("add_bf16", "elementwise", "bfloat16", float(elems), 3.0 * 2 * elems, lambda: a + b))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--traced", type=int, default=4)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)

    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = False
    torch.manual_seed(0)
    all_cases = cases(torch, args.quick)

    rows = []
    for name, kind, dtype, flops, min_bytes, fn in all_cases:
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(args.reps):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e) * 1e6)
        rows.append([name, kind, dtype, f"{flops:.0f}", f"{min_bytes:.0f}", f"{statistics.median(times):.0f}", args.reps])
        print(f"{name:22} {statistics.median(times) / 1e3:10.1f} us", flush=True)

    with open(os.path.join(args.out, "matrix_roofline.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "kind", "dtype", "flops", "min_bytes", "median_ns", "reps"])
        w.writerows(rows)

    trace = os.path.join(args.out, "matrix_roofline.json")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        for name, _, _, _, _, fn in all_cases:
            with record_function(f"case:{name}"):
                for _ in range(args.traced):
                    fn()
                torch.cuda.synchronize()
    prof.export_chrome_trace(trace)
    with open(trace, "rb") as src, gzip.open(trace + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(trace)

    props = torch.cuda.get_device_properties(0)
    meta = {
        "torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
        "python": sys.version.split()[0], "device": props.name, "sms": props.multi_processor_count,
        "memory_bytes": props.total_memory, "reps": args.reps, "traced": args.traced, "quick": args.quick,
        "tf32": False, "recorded_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with open(os.path.join(args.out, "matrix_roofline_meta.json"), "w") as f:
        json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
