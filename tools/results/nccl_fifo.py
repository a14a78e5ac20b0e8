#!/usr/bin/env python3
"""nccl_fifo.py [CSV...]: what 2-GPU ring calls take beyond their steady rate, by connection
buffer and channel count (tools/record/run_nccl_fifo.sh; default
tests/data/real/h200-2gpu-fifo/fifo.csv and its first run, fifo_run1.csv).

For each case (variant, collective, buffer) the steady rate is the one between its two largest
calls (1 GiB and 512 MiB for LL128, 2 GiB and 1 GiB for Simple); each call's excess is its time less
its bytes at that rate. With P the bytes a rank sends in the call (half the call's size on 2 GPUs),
each channel carries P / channels of them, and its connection buffer holds NCCL_STEPS (8) chunks:
an LL128 chunk is the buffer's eighth times 120/128 (its lines' data), so the default 4915200-byte
buffer holds 4.6 MB a channel. The columns list each call's excess in us with the per-channel
bytes (MB) beside it, and a last column the per-channel bytes the buffer holds.
"""
import csv
import os
import sys
from collections import defaultdict

STEPS = 8  # NCCL_STEPS
LL128_DEFAULT_BUFFER = 120 * 640 * 8 * 8  # DEFAULT_LL128_BUFFSIZE, src/init.cc (NCCL 2.28.9)
SIMPLE_DEFAULT_BUFFER = 1 << 22  # DEFAULT_BUFFSIZE
CHANNELS_DEFAULT = 24  # NCCL's coll channels on the 2 x H200 machine (the logs' "24 coll channels")


def channels(variant):
    """The channel count a variant label names (ring_ll128_ch20), else NCCL's own."""
    return int(variant.rsplit("_ch", 1)[1]) if "_ch" in variant else CHANNELS_DEFAULT


def buffer_bytes(variant, env_bytes):
    """The connection buffer a call ran with: the variable's value, else its protocol's default."""
    if env_bytes:
        return env_bytes
    return LL128_DEFAULT_BUFFER if "ll128" in variant else SIMPLE_DEFAULT_BUFFER


def held_per_channel(variant, buffer):
    """Data bytes a channel's buffer holds: NCCL_STEPS chunks (LL128: 120 of each 128 bytes)."""
    return buffer * 120 // 128 if "ll128" in variant else buffer


def main():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "real",
                        "h200-2gpu-fifo")
    paths = sys.argv[1:] or [os.path.join(here, "fifo.csv"), os.path.join(here, "fifo_run1.csv")]
    for path in paths:
        cases = defaultdict(dict)
        for row in csv.DictReader(open(path)):
            key = (row["variant"], row["collective"], int(row["env_bytes"]))
            cases[key][int(row["bytes"])] = float(row["time_us"])
        print(f"# {os.path.relpath(path)}")
        print("| variant | collective | buffer B | steady us/MiB | excess us (MB a channel) ... | held MB a channel |")
        print("|---|---|---:|---:|---|---:|")
        for (variant, collective, env_bytes), times in sorted(cases.items()):
            sizes = sorted(times)
            if len(sizes) < 3:
                continue
            per_byte = (times[sizes[-1]] - times[sizes[-2]]) / (sizes[-1] - sizes[-2])
            buffer = buffer_bytes(variant, env_bytes)
            n = channels(variant)
            cells = []
            for s in sizes[:-1]:
                excess = times[s] - per_byte * s
                cells.append(f"{s >> 20}M: {excess:.1f} ({s / 2 / n / 1e6:.2f})")
            print(f"| {variant} | {collective} | {buffer} | {per_byte * (1 << 20):.3f} | {'; '.join(cells)} "
                  f"| {held_per_channel(variant, buffer) / 1e6:.2f} |")
        print()


if __name__ == "__main__":
    main()
