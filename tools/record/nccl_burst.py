"""Each call's own GPU time inside a burst of back-to-back NCCL collectives, after the GPUs idled.

Why: the recorded bus bandwidth of ring all-gathers, reduce-scatters and alltoalls keeps rising
from 64 MiB to 4 GiB on 2 and 4 x H200 (2 GPUs, all-gather: 225 GB/s at 128 MiB, 293 at 4 GiB),
faster than any fixed cost per call explains, while broadcasts (one direction) stay flat. Timings
of whole loops (nccl_bench.py: 3 warm-up calls, then 5 calls between two events) cannot tell a
slow start of each burst (clocks or links waking after idle), a slowdown the longer the GPUs stay
busy, and a steady rate that depends on the size apart. Here every call of a burst is timed on its
own between CUDA events on its stream.

Per variant (a fresh set of processes, one per GPU, NCCL reading the variant's environment as
nccl_bench.py sets it), per collective and size: 3 warm-up calls; then `--bursts` times: the GPUs
idle for --idle-ms (host sleep after a synchronize), then `--calls` calls issued back to back from
Python with an event recorded before each call and after the last. The host issues faster than
these calls run (the sizes are chosen so: >= 16 MiB), so the stream holds them back to back.

Rank 0 appends rows to --csv (header written when the file is new):
  variant,collective,nranks,bytes,burst,call,rank,us
one row per rank per call: `us` that rank's GPU time of call `call` (0-based) of burst `burst`.
"""

import os

os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

from nccl_bench import (VARIANTS, WARMUP, join_process_group, make_calls, parse_bytes,  # noqa: E402
                        use_variant_environment)

CSV_HEADER = "variant,collective,nranks,bytes,burst,call,rank,us\n"


def burst_times(call, calls, device):
    """This rank's GPU microseconds of each of `calls` back-to-back calls."""
    events = [torch.cuda.Event(enable_timing=True) for _ in range(calls + 1)]
    events[0].record()
    for i in range(calls):
        call()
        events[i + 1].record()
    events[-1].synchronize()
    return [events[i].elapsed_time(events[i + 1]) * 1e3 for i in range(calls)]


def worker(rank, n, init_file, label, csv_path, plan, calls, bursts, idle_ms):
    device = join_process_group(rank, n, init_file)
    try:
        for collective, nbytes in plan:
            counted, call, _ = make_calls(collective, nbytes, n, rank, device)
            for _ in range(WARMUP):
                call()
            torch.cuda.synchronize(device)
            rows = []
            for burst in range(bursts):
                dist.barrier()
                torch.cuda.synchronize(device)
                time.sleep(idle_ms / 1e3)
                times = torch.tensor(burst_times(call, calls, device), dtype=torch.float64, device=device)
                gathered = [torch.empty_like(times) for _ in range(n)]
                dist.all_gather(gathered, times)
                for r, t in enumerate(gathered):
                    rows += [(burst, i, r, us) for i, us in enumerate(t.tolist())]
            del call
            torch.cuda.empty_cache()
            if rank == 0:
                with open(csv_path, "a") as f:
                    for burst, i, r, us in rows:
                        f.write(f"{label},{collective},{n},{counted},{burst},{i},{r},{us:.3f}\n")
                print(f"nccl_burst: {label} {collective} {counted} B done", flush=True)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def parse_plan(text):
    """`collective:size,size;collective:size` -> [(collective, bytes), ...]."""
    plan = []
    for part in text.split(";"):
        collective, _, sizes = part.partition(":")
        for s in sizes.split(","):
            plan.append((collective.strip(), parse_bytes(s.strip())))
    return plan


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    ap.add_argument("--csv", required=True, help="CSV to append rows to")
    ap.add_argument("--plan", required=True,
                    help="collectives and sizes, e.g. 'allgather:64M,1G;alltoall:256M'")
    ap.add_argument("--calls", type=int, default=40, help="calls per burst (default 40)")
    ap.add_argument("--bursts", type=int, default=3, help="bursts per collective and size (default 3)")
    ap.add_argument("--idle-ms", type=float, default=300, help="idle time before each burst (default 300)")
    args = ap.parse_args()
    plan = parse_plan(args.plan)
    allowed = VARIANTS[args.variant][1]
    bad = [c for c, _ in plan if c not in allowed]
    if bad:
        ap.error(f"--plan: {', '.join(bad)} not run by variant {args.variant}")
    if not 1 <= args.calls <= 1000 or not 1 <= args.bursts <= 100:
        ap.error("--calls 1..1000, --bursts 1..100")
    n = torch.cuda.device_count()
    if n < 2:
        print(f"nccl_burst: {n} GPU(s): nothing to measure", flush=True)
        return
    use_variant_environment(args.variant)
    if not os.path.exists(args.csv) or os.path.getsize(args.csv) == 0:
        with open(args.csv, "w") as f:
            f.write(CSV_HEADER)
    print(f"nccl_burst: variant {args.variant}, {n} ranks", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(n, os.path.join(tmp, "rendezvous"), args.variant, args.csv, plan, args.calls,
                               args.bursts, args.idle_ms), nprocs=n, join=True)


if __name__ == "__main__":
    main()
