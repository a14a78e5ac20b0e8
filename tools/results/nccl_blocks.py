#!/usr/bin/env python3
"""nccl_blocks.py: a GPU's NCCL channel-block rates from its recordings.

Prints the node keys the simulator's block model takes (configs/SCHEMA.md) from two recordings of
CUDA-graph NCCL calls (nccl_bench.csv and logs/ of tools/record/run_nccl_channels.sh and
run_nccl.sh), per protocol (Simple, LL128):

- nccl_<proto>_load_gbps, _store_gbps, _peer_store_gbps: what one channel's block alone takes per
  byte of each memory operation. Ring allreduce, all-gather and reduce-scatter pinned to one
  channel run different mixes of loads, stores and stores into the peer (nccl/collectives.hpp,
  send_memory_ops): three calls, three unknowns, solved exactly. From --alone (default
  tests/data/real/h200-2gpu-channels) at 256 MiB, where one channel's rate no longer grows with
  the size.
- nccl_block_memory_gbps: the rate at which all of a call's blocks on a GPU load and store at
  most. At NCCL's own channel count (read from the log) the blocks queue for it (nccl/blocks.hpp,
  a closed queue solved by mean value analysis); the ceiling is the one with which that queue
  gives the recorded ring/Simple bus bandwidth, solved per collective by bisection and averaged
  over the three. From --ceiling (default tests/data/real/h200-2gpu-nccl-graph) at its largest
  size (4 GiB), as steady a state as the recordings hold: at NCCL's channel count the bus
  bandwidth still grows by 15-29% from 256 MiB to 4 GiB (printed with the ceiling).

With --slice-us S (default: nccl_simple_slice_us as tools/results/nccl_slices.py gives it) the
Simple rates and the ceiling are solved with each slice a primitive runs costing its block S us
beside its bytes (2 slices a chunk; the first loop's first slice of each primitive is the step
handshake's): the time left to the bytes is the call's less its slices'. --slice-us 0: none.

Then it prints what the model says against the recordings at every channel count, for --alone
and any other given with --check FOLDER (held-out recordings), at 256 MiB; and why LL is left
out of it: its one-channel calls of 8 MiB (replayed on the same buffers, which fit in the L2)
against those of 256 MiB, per collective, and the per-operation costs solved as for Simple with
the loads of the user's buffer split into L2 and memory loads (the all-gather and the
reduce-scatter ask for L2 load costs 37 times apart: no such sum fits).
"""
import argparse
import csv
import gzip
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nccl_slices  # noqa: E402


CHUNK = 2 << 20  # a ring/Simple loop's chunk per rank: 4 steps of 512 KiB (NCCL's default buffer)


def memory_ops(collective, n):
    """(loads, stores, peer stores) a rank's block issues per element of a chunk over one call, and
    the chunks it sends (busbw = sent chunk bytes / time), as send_memory_ops counts them."""
    send, copy_send, reduce_send, reduce_copy_send = (1, 0, 1), (1, 1, 1), (2, 0, 1), (2, 1, 1)
    recv, reduce_copy = (1, 1, 0), (2, 1, 0)
    if collective == "allgather":
        prims, sent = [copy_send] + [copy_send] * (n - 2) + [recv], n - 1
    elif collective == "reducescatter":
        prims, sent = [send] + [reduce_send] * (n - 2) + [reduce_copy], n - 1
    elif collective == "allreduce":
        prims = [send] + [reduce_send] * (n - 2) + [reduce_copy_send] + [copy_send] * (n - 2) + [recv]
        sent = 2 * (n - 1)
    else:
        raise ValueError(collective)
    return [sum(p[k] for p in prims) for k in range(3)], sent


def slice_ns_per_chunk_byte(collective, n, size, channels, slice_us):
    """The slices' fixed time of one block over a call of `size` bytes on `channels`, per byte of a
    rank's block on the channel (the unit memory_ops counts in), as the simulator charges it."""
    block = size / n / channels  # one rank's block on one channel
    loops = max(1, -(-int(block) // CHUNK))
    return nccl_slices.primitives(collective, n) * (nccl_slices.SLICES * loops - 1) * slice_us * 1e3 / block


def shared_block_speed(blocks, own, shared):
    """nccl::shared_block_speed: the share of its alone rate each block keeps (mean value analysis)."""
    queued = rate = 0.0
    for k in range(1, blocks + 1):
        wait = shared * (1 + queued)
        rate = k / (own + wait)
        queued = rate * wait
    return rate * (own + shared) / blocks


def recording(folder, size=None):
    """{(variant, collective): busbw GB/s} at `size` (the largest where None), the ranks, and NCCL's
    own channel count."""
    bw, ranks = {}, 0
    rows = [r for r in csv.DictReader(open(os.path.join(folder, "nccl_bench.csv"))) if r["launch"] == "graph"]
    size = size or max(int(r["bytes"]) for r in rows)
    for row in rows:
        if int(row["bytes"]) == size:
            bw[(row["variant"], row["collective"])] = float(row["busbw_gbps"])
            ranks = int(row["nranks"])
    channels = None
    log = os.path.join(folder, "logs", "nccl_ring_simple.log.gz")
    with gzip.open(log, "rt", errors="replace") as f:
        for line in f:
            m = re.search(r"NCCL INFO (\d+) coll channels", line)
            if m:
                channels = int(m.group(1))
                break
    if channels is None:
        raise SystemExit(f"{log}: no 'coll channels' line")
    return bw, ranks, channels, size


COLLECTIVES = ("allreduce", "allgather", "reducescatter")


def alone_rates(bw, ranks, proto, size=0, slice_us=0.0):
    rows, times = [], []
    for c in COLLECTIVES:
        ops, sent = memory_ops(c, ranks)
        rows.append(ops)
        t = sent / bw[(f"ring_{proto}_ch1", c)]  # ns per chunk byte, one block
        if proto == "simple" and slice_us:
            t -= slice_ns_per_chunk_byte(c, ranks, size, 1, slice_us)
        times.append(t)
    return [1 / ns for ns in nccl_slices.solve(rows, times)]


def predicted_busbw(rates, memory_gbps, collective, ranks, channels, size=0, slice_us=0.0):
    ops, sent = memory_ops(collective, ranks)
    alone = sum(o / r for o, r in zip(ops, rates))
    if slice_us and size:
        alone += slice_ns_per_chunk_byte(collective, ranks, size, channels, slice_us)
    shared = sum(ops) / memory_gbps
    return channels * shared_block_speed(channels, alone - shared, shared) * sent / alone


def ceiling(rates, busbw, collective, ranks, channels, size=0, slice_us=0.0):
    lo, hi = 1.0, 1e6
    for _ in range(200):
        mid = (lo * hi) ** 0.5
        if predicted_busbw(rates, mid, collective, ranks, channels, size, slice_us) < busbw:
            lo = mid
        else:
            hi = mid
    return (lo * hi) ** 0.5


def ll_in_l2(folders):
    """LL's one-channel calls of 8 MiB against 256 MiB, and the per-operation costs that would have
    to explain them (ns per chunk byte), from the first folder (2 GPUs)."""
    print("LL, one channel: bus bandwidth at 8 MiB / at 256 MiB (the buffers in the L2 / in memory)")
    for folder in folders:
        small, ranks, _, _ = recording(folder, 8 << 20)
        large, _, _, _ = recording(folder, 256 << 20)
        print(f"  {folder} ({ranks} GPUs): " + ", ".join(
            f"{c} {small[('ring_ll_ch1', c)] / large[('ring_ll_ch1', c)]:.2f}x" for c in COLLECTIVES))
    # 2 GPUs, per chunk: loads of the user's buffer (in memory, or in the L2 at 8 MiB), loads of the
    # connection buffer, stores, peer stores. Memory: three calls give h + s, h - s and b + r; the
    # L2 all-gather then gives the L2 load, the L2 reduce-scatter another.
    small, _, _, _ = recording(folders[0], 8 << 20)
    large, _, _, _ = recording(folders[0], 256 << 20)
    t = {(c, size): sent / bw[("ring_ll_ch1", c)] for size, bw in (("l2", small), ("mem", large))
         for c, sent in (("allgather", 1), ("reducescatter", 1), ("allreduce", 2))}
    h_plus_s = t[("allgather", "mem")] + t[("reducescatter", "mem")] - t[("allreduce", "mem")]
    h_minus_s = t[("reducescatter", "mem")] - t[("allgather", "mem")]
    h, s = (h_plus_s + h_minus_s) / 2, (h_plus_s - h_minus_s) / 2
    b_plus_r = t[("allgather", "mem")] - h - 2 * s
    l2_from_allgather = t[("allgather", "l2")] - b_plus_r - 2 * s
    l2_from_reducescatter = (t[("reducescatter", "l2")] - b_plus_r - s) / 2
    print(f"  solved ({folders[0]}): a memory load {h:.4f} ns/B, an L2 load {l2_from_allgather:.4f} "
          f"(from all-gather) or {l2_from_reducescatter:.4f} (from reduce-scatter)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alone", default="tests/data/real/h200-2gpu-channels")
    ap.add_argument("--ceiling", default="tests/data/real/h200-2gpu-nccl-graph")
    ap.add_argument("--check", action="append", default=[], help="a held-out recording to compare with")
    ap.add_argument("--slice-us", type=float, default=None,
                    help="nccl_simple_slice_us (default: what tools/results/nccl_slices.py fits; 0: none)")
    args = ap.parse_args()
    if args.slice_us is None:
        args.slice_us = round(nccl_slices.fit(), 2)
    size = 256 << 20
    bw, ranks, _, _ = recording(args.alone, size)
    rates = {p: alone_rates(bw, ranks, p, size, args.slice_us) for p in ("simple", "ll128")}
    cbw, cranks, cchannels, csize = recording(args.ceiling)
    ceilings = [ceiling(rates["simple"], cbw[("ring_simple", c)], c, cranks, cchannels, csize, args.slice_us)
                for c in COLLECTIVES]
    memory_gbps = sum(ceilings) / len(ceilings)
    print(f"alone: {args.alone}, {size} B, {ranks} GPUs, one channel")
    print(f"ceiling: {args.ceiling}, {csize} B, {cranks} GPUs, NCCL's {cchannels} channels")
    print(f"slices: {args.slice_us} us each (nccl_simple_slice_us)")
    for p in ("simple", "ll128"):
        for name, r in zip(("load", "store", "peer_store"), rates[p]):
            print(f"  nccl_{p}_{name}_gbps: {r:.1f}")
    print(f"  nccl_block_memory_gbps: {memory_gbps:.0f}   (per collective: "
          + ", ".join(f"{c} {v:.0f}" for c, v in zip(COLLECTIVES, ceilings)) + ")")
    mid, _, _, _ = recording(args.ceiling, size)
    print(f"  ring/Simple bus bandwidth at {csize} B over {size} B, {cchannels} channels: "
          + ", ".join(f"{c} {cbw[('ring_simple', c)] / mid[('ring_simple', c)]:.2f}x" for c in COLLECTIVES))
    print("model / recorded - 1, bus bandwidth, by channels:")
    for folder in [args.alone] + args.check:
        cbw, cranks, cchannels, _ = recording(folder, size)
        print(f"  {folder} ({cranks} GPUs)")
        for p in ("simple", "ll128"):
            for c in COLLECTIVES:
                cells = []
                for ch in (1, 2, 4, 8, 16, cchannels):
                    key = (f"ring_{p}" + ("" if ch == cchannels else f"_ch{ch}"), c)
                    if key in cbw:
                        model = predicted_busbw(rates[p], memory_gbps, c, cranks, ch, size,
                                                args.slice_us if p == "simple" else 0.0)
                        cells.append(f"{ch:>2}: {100 * (model / cbw[key] - 1):+5.1f}%")
                print(f"    {p:7}{c:14}" + "  ".join(cells))
    ll_in_l2([args.alone] + args.check)


if __name__ == "__main__":
    main()
