#!/usr/bin/env python3
"""How close `linkcast simulate` comes to recorded collectives, beside NCCL's own model.

  nccl_accuracy.py floor CSV
      The per-call floor of a recording (tools/record/nccl_bench.py's CSV): the median time per
      call of its `default` collectives of 8 B to 64 KiB, which run back to back and are bound
      by the host's issue, not by the GPUs. That is a node's `collective_call_us`.
  nccl_accuracy.py score LINKCAST NODE CSV [--variant default] [--min-bytes 1048576] [--rows]
      Simulates every row of the variant at or above --min-bytes as the recording ran it (the
      row's `iters` calls back to back: `--workload nccl-<kind>:bytes=B,gpus=0-(n-1),iters=I`)
      and compares the time per call (makespan / iters) with the recorded one; NCCL's model is
      the call's `nccl_model_s`. Prints, per collective and over all, the geometric mean of
      |error| and the largest, for both; --rows prints every row. Exit 0.

Forced variants (ring, ring_ll, tree_simple, ...) pass --nccl-algo/--nccl-proto as the
recording forced NCCL_ALGO/NCCL_PROTO.
"""
import argparse
import csv
import json
import math
import statistics
import subprocess
import sys

FLOOR_MAX_BYTES = 64 << 10
PROTOS = {"ll": "LL", "ll128": "LL128", "simple": "Simple"}


def rows_of(path, variant):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["variant"] == variant]


def floor(args):
    small = [float(r["time_us"]) for r in rows_of(args.csv, "default") if int(r["bytes"]) <= FLOOR_MAX_BYTES]
    if not small:
        sys.exit(f"{args.csv}: no `default` rows of at most {FLOOR_MAX_BYTES} bytes")
    print(f"{args.csv}: median {statistics.median(small):.1f} us per call over {len(small)} calls of <= 64 KiB "
          f"(min {min(small):.1f}, max {max(small):.1f})")


def variant_flags(variant):
    if variant == "default":
        return []
    algo, _, proto = variant.partition("_")
    if algo not in ("ring", "tree"):
        sys.exit(f"variant '{variant}' forces no algorithm linkcast simulates")
    return ["--nccl-algo", algo] + (["--nccl-proto", PROTOS[proto]] if proto else [])


def geo_mean_pct(errors):
    return 100 * math.exp(sum(math.log(max(e, 1e-4)) for e in errors) / len(errors))


def score(args):
    rows = [r for r in rows_of(args.csv, args.variant) if int(r["bytes"]) >= args.min_bytes]
    if not rows:
        sys.exit(f"{args.csv}: no `{args.variant}` rows of at least {args.min_bytes} bytes")
    by_kind = {}
    for r in rows:
        n, size, iters = int(r["nranks"]), int(r["bytes"]), int(r["iters"])
        spec = f"nccl-{r['collective']}:bytes={size},gpus=0-{n - 1},iters={iters}"
        cmd = [args.linkcast, "simulate", args.node, "--workload", spec, "--format", "json"] + variant_flags(args.variant)
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
        result = json.loads(out.stdout)
        measured = float(r["time_us"])
        simulated = result["makespan_s"] * 1e6 / iters
        nccl = result["collectives"][0]["nccl_model_s"] * 1e6
        by_kind.setdefault(r["collective"], []).append((size, measured, simulated, nccl))
    print(f"{args.csv} [{args.variant}, >= {args.min_bytes} B] on {args.node}")
    print(f"{'collective':14s} {'calls':>5s} {'simulate':>9s} {'NCCL':>9s} {'max sim':>8s} {'max NCCL':>8s}")
    every_sim, every_nccl = [], []
    for kind, entries in by_kind.items():
        sim = [abs(s / m - 1) for _, m, s, _ in entries]
        nccl = [abs(c / m - 1) for _, m, _, c in entries]
        every_sim += sim
        every_nccl += nccl
        print(f"{kind:14s} {len(entries):5d} {geo_mean_pct(sim):8.1f}% {geo_mean_pct(nccl):8.1f}% "
              f"{100 * max(sim):7.0f}% {100 * max(nccl):7.0f}%")
        if args.rows:
            for size, m, s, c in entries:
                print(f"    {size / 2**20:9.0f} MiB  recorded {m:10.1f} us  simulate {s:10.1f} ({100 * (s / m - 1):+6.1f}%)"
                      f"  NCCL {c:10.1f} ({100 * (c / m - 1):+6.1f}%)")
    print(f"{'all':14s} {len(every_sim):5d} {geo_mean_pct(every_sim):8.1f}% {geo_mean_pct(every_nccl):8.1f}% "
          f"{100 * max(every_sim):7.0f}% {100 * max(every_nccl):7.0f}%")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("floor")
    f.add_argument("csv")
    s = sub.add_parser("score")
    s.add_argument("linkcast")
    s.add_argument("node")
    s.add_argument("csv")
    s.add_argument("--variant", default="default")
    s.add_argument("--min-bytes", type=int, default=1 << 20)
    s.add_argument("--rows", action="store_true")
    args = p.parse_args()
    floor(args) if args.command == "floor" else score(args)


if __name__ == "__main__":
    main()
