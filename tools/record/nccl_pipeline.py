"""How consecutive NCCL calls overlap across ranks, for linkcast's collective simulation.

NCCL's Simple protocol moves data through connection buffers of NCCL_STEPS slots in the
receiver's memory; a sender waits for a free slot, not for the receiver's kernel. So a rank whose
part of a call ends early (a broadcast's root) may start the next call and fill its peer's free
slots while the peer still works on the call before. Two tests, NCCL's default choice, float32,
every rank's own time kept (rank 0 writes --csv):

  calls   a CUDA graph of K back-to-back calls (K = 1, 2, 4, 8, 20) of broadcast (root 0),
          allgather, reducescatter and allreduce at every power of two from 1 MiB to 64 MiB,
          replayed 7 times. Before each replay the ranks meet on the GPU (a one-element
          all-reduce issued just before, so that every rank's replay starts when the last rank
          arrives, not when its process got there); each rank times its replay between two CUDA
          events. Time per call against K separates one call's latency from the period of calls
          in a row.
  delay   one broadcast (root 0) of 1, 8 or 32 MiB replayed from a graph while one rank (1, 2 or
          3, or none) sleeps on its stream (torch.cuda._sleep, about 200 us) between the meeting
          and its replay: each rank's time from its own start. If the root's time stays near the
          undelayed one while rank 1 sleeps, the root wrote into rank 1's free slots without
          waiting for rank 1's kernel. The sleeping rank's slept_us is its measured sleep.

CSV: test,collective,nranks,bytes,calls,delayed_rank,rank,replay,time_us,slept_us
(time_us: the whole replay, all `calls` calls; delayed_rank -1: none; slept_us empty unless the
rank slept).
"""

import os

os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import datetime  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nccl_bench import capture_graph, make_call, nccl_version  # noqa: E402

COLLECTIVES = ("broadcast", "allgather", "reducescatter", "allreduce")
SIZES = [1 << k for k in range(20, 27)]  # 1 MiB .. 64 MiB
CALLS = (1, 2, 4, 8, 20)
REPLAYS = 7
DELAY_SIZES = (1 << 20, 8 << 20, 32 << 20)
SLEEP_CYCLES = 400_000  # about 200 us at the H100/H200's 1.98 GHz SM clock
HEADER = "test,collective,nranks,bytes,calls,delayed_rank,rank,replay,time_us,slept_us\n"


def timed_replay(graph, meet, sleep):
    """Meets the other ranks on the GPU, optionally sleeps, replays: (replay us, slept us)."""
    dist.barrier()
    torch.cuda.synchronize()
    before_sleep = torch.cuda.Event(enable_timing=True)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    dist.all_reduce(meet)
    before_sleep.record()
    if sleep:
        torch.cuda._sleep(SLEEP_CYCLES)
    start.record()
    graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3, before_sleep.elapsed_time(start) * 1e3


def gather_rows(n, device, values):
    """All ranks' (time, slept) lists, in rank order, on every rank."""
    t = torch.tensor(values, dtype=torch.float64, device=device)
    out = [torch.empty_like(t) for _ in range(n)]
    dist.all_gather(out, t)
    return [o.tolist() for o in out]


def worker(rank, n, init_file, csv_path):
    device = torch.device("cuda", rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", init_method=f"file://{init_file}", rank=rank, world_size=n,
                            device_id=device, timeout=datetime.timedelta(seconds=120))
    meet = torch.ones(1, device=device)
    rows = []
    try:
        for collective in COLLECTIVES:
            for nbytes in SIZES:
                counted, call = make_call(collective, nbytes, n, device)
                for calls in CALLS:
                    graph = capture_graph(call, calls, device)
                    times = [timed_replay(graph, meet, False)[0] for _ in range(REPLAYS)]
                    del graph
                    for r, ts in enumerate(gather_rows(n, device, times)):
                        for i, t in enumerate(ts):
                            rows.append(f"calls,{collective},{n},{counted},{calls},-1,{r},{i},{t:.3f},\n")
                del call
            torch.cuda.empty_cache()
            if rank == 0:
                print(f"nccl_pipeline: calls {collective} done", flush=True)
        for nbytes in DELAY_SIZES:
            counted, call = make_call("broadcast", nbytes, n, device)
            graph = capture_graph(call, 1, device)
            for delayed in [-1] + list(range(1, n)):
                pairs = [timed_replay(graph, meet, rank == delayed) for _ in range(REPLAYS)]
                flat = [x for p in pairs for x in p]
                for r, vals in enumerate(gather_rows(n, device, flat)):
                    for i in range(REPLAYS):
                        slept = f"{vals[2 * i + 1]:.3f}" if r == delayed else ""
                        rows.append(f"delay,broadcast,{n},{counted},1,{delayed},{r},{i},{vals[2 * i]:.3f},"
                                    f"{slept}\n")
            del graph, call
        if rank == 0:
            print("nccl_pipeline: delay done", flush=True)
            new = not os.path.exists(csv_path) or os.path.getsize(csv_path) == 0
            with open(csv_path, "a") as f:
                if new:
                    f.write(HEADER)
                f.writelines(rows)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", required=True, help="CSV to append rows to")
    args = ap.parse_args()
    n = torch.cuda.device_count()
    if n < 3:
        print(f"nccl_pipeline: {n} GPU(s); the delay test needs a chain of 3 or more", flush=True)
        return
    os.environ.update({"NCCL_DEBUG": "INFO", "NCCL_DEBUG_SUBSYS": "INIT,GRAPH,TUNING,ENV"})
    print(f"nccl_pipeline: {n} ranks, NCCL {nccl_version()}, torch {torch.__version__}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(n, os.path.join(tmp, "rendezvous"), args.csv), nprocs=n, join=True)


if __name__ == "__main__":
    main()
