"""NCCL collective timings through torch.distributed, counted as nccl-tests counts them.

One invocation measures one variant in a fresh set of processes (one per GPU, started with
torch.multiprocessing.spawn after the variant's environment is set, so NCCL reads it at init):
  default      NCCL's own choice
  ring         NCCL_ALGO=Ring
  tree         NCCL_ALGO=Tree (allreduce only: NCCL has no Tree for the other collectives and
               fails them with "no algorithm/protocol available")
  p2p_disable  NCCL_P2P_DISABLE=1 (GPU-to-GPU traffic then goes through host shared memory)
  ring_simple, ring_ll128, ring_ll    NCCL_ALGO=Ring with NCCL_PROTO=Simple, LL128 or LL
  tree_simple, tree_ll128, tree_ll    NCCL_ALGO=Tree with NCCL_PROTO=Simple, LL128 or LL
                                      (allreduce only, as tree)
  proto_simple, proto_ll128, proto_ll NCCL_PROTO alone (NCCL picks the algorithm)
--channels N pins the communicator to N channels (NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = N)
and names the variant `<variant>_ch<N>` in the CSV and the meta file; --collectives names the
collectives to measure (default: the variant's). --inplace runs allgather and reducescatter in
place (`_inplace`); --cold B gives each call the next of as many buffer sets as hold B bytes
together, so that no call finds its buffers in the L2 cache (`_cold`): by default every call of a
size reuses one set, which stays in the L2 where it fits.
NVLink multicast (NVLS) is always off. NCCL_DEBUG=INFO with subsystems INIT,GRAPH,TUNING,ENV goes
to the processes' stdout: redirect it to a log per variant. --dump-topology also writes NCCL's
topology and graph XML (NCCL_TOPO_DUMP_FILE, NCCL_GRAPH_DUMP_FILE) into --out.

Collectives (float32): allreduce, allgather, reducescatter, broadcast, alltoall
(all_to_all_single); with --collectives also broadcast_alt, a broadcast whose root is each rank
in turn. Sizes (--sizes): `default` 8 B .. 512 MiB in powers of 4, plus 256 MiB and
1 GiB; `pow2` every power of two from 1 MiB to 4 GiB; `l2` 16 MiB to 64 MiB in steps of 8 MiB
(across an H100's or H200's L2); all cut at --max-bytes (default 1 GiB for `default`, 4 GiB for
`pow2`). Each size is the whole buffer as nccl-tests counts it: allreduce/broadcast the buffer, allgather its output,
reducescatter its input, alltoall each rank's send buffer (rounded down to whole elements per
rank). Per size: 3 warm-up calls, then `iters` calls (20 up to 64 MiB, 5 above) between two CUDA
events (--iters N: N calls at every size); time_us is the slowest rank's mean per call, issue_us
the slowest rank's host time per call to issue them (the loop's seconds on the host clock from
before the first call to the last call's return, divided by the calls; for a graph, the
replay's launch), algbw = bytes / time, busbw = algbw times the nccl-tests factor (allreduce 2(n-1)/n; allgather, reducescatter, alltoall (n-1)/n;
broadcast 1).

--launch (the `launch` column):
  eager  each call issued from Python as a training loop issues it (the default): where a call's
         GPU work is shorter than the process takes to issue it (about 20 us through
         torch.distributed), the loop times the process, not NCCL.
  graph  the `iters` calls captured once into a CUDA graph, the graph replayed --repeats times
         (default 5), each replay between two CUDA events; time_us is the median replay's time
         per call (the slowest rank's): NCCL and the GPUs alone, no host in the loop.
With --repeats R > 1 in eager mode the timed loop runs R times and time_us is the median.

Rank 0 appends rows to --csv (header written when the file is new):
  variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,busbw_gbps,iters,launch,issue_us
(recordings before 2026-11-26 have no `launch` column: they are eager; before 2026-11-28 no
`issue_us`).
and writes nccl_<variant>_meta.json (versions, environment, devices) into --out.
"""

import os

# NVLink multicast stays off on shared multi-GPU hosts: set before torch (and NCCL) load, and
# inherited by every spawned process.
os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

ALL_COLLECTIVES = ("allreduce", "allgather", "reducescatter", "broadcast", "alltoall")
# variant -> (environment it sets, collectives it measures)
VARIANTS = {
    "default": ({}, ALL_COLLECTIVES),
    "ring": ({"NCCL_ALGO": "Ring"}, ALL_COLLECTIVES),
    "tree": ({"NCCL_ALGO": "Tree"}, ("allreduce",)),
    "p2p_disable": ({"NCCL_P2P_DISABLE": "1"}, ALL_COLLECTIVES),
}
for _key, _proto in (("simple", "Simple"), ("ll128", "LL128"), ("ll", "LL")):
    VARIANTS[f"ring_{_key}"] = ({"NCCL_ALGO": "Ring", "NCCL_PROTO": _proto}, ALL_COLLECTIVES)
    VARIANTS[f"tree_{_key}"] = ({"NCCL_ALGO": "Tree", "NCCL_PROTO": _proto}, ("allreduce",))
    VARIANTS[f"proto_{_key}"] = ({"NCCL_PROTO": _proto}, ALL_COLLECTIVES)
# Variables a variant may set; cleared first so that one variant never leaks into another.
VARIANT_KEYS = ("NCCL_ALGO", "NCCL_PROTO", "NCCL_P2P_DISABLE", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS")
SIZE_SETS = {
    "default": sorted({8 * 4**k for k in range(14)} | {128 << 20, 256 << 20, 512 << 20, 1 << 30}),
    "pow2": [1 << k for k in range(20, 33)],  # 1 MiB .. 4 GiB
    "l2": [k << 23 for k in range(2, 9)],  # 16 MiB .. 64 MiB in 8 MiB steps: across the L2's capacity
}
DEFAULT_MAX_BYTES = {"default": 1 << 30, "pow2": 4 << 30, "l2": 64 << 20}
DTYPE = torch.float32
DTYPE_NAME = str(DTYPE).removeprefix("torch.")
WARMUP = 3
CSV_HEADER = "variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,busbw_gbps,iters,launch,issue_us\n"


def busbw_factor(collective, n):
    if collective == "allreduce":
        return 2 * (n - 1) / n
    if collective.startswith("broadcast"):
        return 1.0
    return (n - 1) / n  # allgather, reducescatter, alltoall


def iters_for(nbytes):
    return 20 if nbytes <= 64 << 20 else 5


def make_one_call(collective, elems, n, rank, device, inplace):
    """Allocates one set of buffers for a call of `elems` elements; returns (callable, bytes the
    set holds)."""
    esize = torch.tensor([], dtype=DTYPE).element_size()

    def buf(numel):
        return torch.ones(numel, dtype=DTYPE, device=device)

    if collective == "allreduce":
        x = buf(elems)
        return (lambda: dist.all_reduce(x)), elems * esize
    if collective == "broadcast":
        x = buf(elems)
        return (lambda: dist.broadcast(x, src=0)), elems * esize
    if collective == "broadcast_alt":
        # Each call's root the next rank in turn (0, 1, ..., n-1, 0, ...): no rank runs ahead of
        # the others as a fixed root does, each waits for the one before it every n calls.
        x = buf(elems)
        turn = [0]

        def call():
            dist.broadcast(x, src=turn[0] % n)
            turn[0] += 1

        return call, elems * esize
    if collective == "allgather":
        out = buf(elems)
        # In place: the input is this rank's block of the output (NCCL then sends from the output).
        inp = out.narrow(0, rank * (elems // n), elems // n) if inplace else buf(elems // n)
        return (lambda: dist.all_gather_into_tensor(out, inp)), (elems + (0 if inplace else elems // n)) * esize
    if collective == "reducescatter":
        inp = buf(elems)
        # In place: the output is this rank's block of the input.
        out = inp.narrow(0, rank * (elems // n), elems // n) if inplace else buf(elems // n)
        return (lambda: dist.reduce_scatter_tensor(out, inp)), (elems + (0 if inplace else elems // n)) * esize
    if collective == "alltoall":
        inp, out = buf(elems), buf(elems)
        return (lambda: dist.all_to_all_single(out, inp)), 2 * elems * esize
    raise ValueError(f"unknown collective {collective}")


def make_call(collective, nbytes, n, device):
    """Allocates the buffers for one size (out of place); returns (counted bytes, callable doing
    one call)."""
    counted, call, _ = make_calls(collective, nbytes, n, 0, device)
    return counted, call


def make_calls(collective, nbytes, n, rank, device, inplace=False, cold_bytes=0):
    """Allocates the buffers for one size; returns (counted bytes, callable doing one call, buffer
    sets). With cold_bytes > 0, as many sets of buffers as hold at least that many bytes together
    (at least 2), each call on the next set in turn: no call finds its buffers in the GPU's L2
    cache (50 MiB on an H100 or H200) when cold_bytes is a few times its size and a timed loop
    makes at least one call per set (the worker's iters)."""
    esize = torch.tensor([], dtype=DTYPE).element_size()
    elems = max(1, nbytes // esize)
    if collective in ("allgather", "reducescatter", "alltoall"):
        elems = max(1, elems // n) * n  # whole elements per rank
    counted = elems * esize
    first, set_bytes = make_one_call(collective, elems, n, rank, device, inplace)
    if cold_bytes <= 0:
        return counted, first, 1
    calls = [first]
    while len(calls) < 2 or len(calls) * set_bytes < cold_bytes:
        calls.append(make_one_call(collective, elems, n, rank, device, inplace)[0])
    turn = [0]

    def next_call():
        calls[turn[0] % len(calls)]()
        turn[0] += 1

    return counted, next_call, len(calls)


def slowest_rank(values, device):
    """Each value's maximum over the ranks."""
    t = torch.tensor(values, dtype=torch.float64, device=device)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return t.tolist()


def timed_seconds(run, device):
    """Seconds `run()` takes on the GPU between two CUDA events, after a barrier (this rank's),
    and the seconds the host took to return from `run()`."""
    dist.barrier()
    torch.cuda.synchronize(device)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    t0 = time.perf_counter()
    run()
    host = time.perf_counter() - t0
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / 1e3, host


def median_per_call(run, iters, repeats, device):
    """Over `repeats` runs of `run()` (`iters` calls each): the median of the slowest rank's GPU
    seconds per call, and the median of the slowest rank's host seconds per call to issue them."""
    gpu, host = [], []
    for _ in range(repeats):
        g, h = slowest_rank(list(timed_seconds(run, device)), device)
        gpu.append(g / iters)
        host.append(h / iters)
    return sorted(gpu)[len(gpu) // 2], sorted(host)[len(host) // 2]


def time_eager(call, iters, repeats, device):
    """Median over `repeats` timed loops of the mean seconds per call, the slowest rank's, and the
    host's seconds per call to issue them."""
    for _ in range(WARMUP):
        call()
    torch.cuda.synchronize(device)

    def loop():
        for _ in range(iters):
            call()

    return median_per_call(loop, iters, repeats, device)


def capture_graph(call, iters, device):
    """`iters` calls of `call` captured into one CUDA graph, warmed up and uploaded."""
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):  # warm-up off the capture, as torch.cuda.graph asks
        for _ in range(WARMUP):
            call()
    torch.cuda.current_stream(device).wait_stream(side)
    torch.cuda.synchronize(device)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(iters):
            call()
    torch.cuda.synchronize(device)
    graph.replay()  # one untimed replay: the graph's first launch uploads it
    torch.cuda.synchronize(device)
    return graph


def time_graph(call, iters, repeats, device):
    """`iters` calls captured into one CUDA graph; the median over `repeats` replays of the
    seconds per call, the slowest rank's, and of the host's seconds per call to launch the replay."""
    graph = capture_graph(call, iters, device)
    t = median_per_call(graph.replay, iters, repeats, device)
    del graph
    return t


def join_process_group(rank, n, init_file):
    """This spawned process's GPU (`rank`), bound to it, and the NCCL process group of `n` ranks
    joined through `init_file`."""
    device = torch.device("cuda", rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", init_method=f"file://{init_file}", rank=rank, world_size=n,
                            device_id=device, timeout=datetime.timedelta(seconds=120))
    return device


def use_variant_environment(variant, channels=None, extra=None):
    """Sets the environment the processes spawned next read NCCL's settings from: the variant's
    variables (those of other variants cleared), the channel count where pinned, NCCL's debug
    output (INIT,GRAPH,TUNING,ENV) and `extra`."""
    for key in VARIANT_KEYS:
        os.environ.pop(key, None)
    env = dict(VARIANTS[variant][0])
    if channels is not None:
        env.update({"NCCL_MIN_NCHANNELS": str(channels), "NCCL_MAX_NCHANNELS": str(channels)})
    env.update({"NCCL_DEBUG": "INFO", "NCCL_DEBUG_SUBSYS": "INIT,GRAPH,TUNING,ENV"})
    env.update(extra or {})
    os.environ.update(env)


def worker(rank, n, init_file, label, csv_path, sizes, launch, repeats, collectives, inplace, cold_bytes,
           fixed_iters):
    device = join_process_group(rank, n, init_file)
    try:
        for collective in collectives:
            for nbytes in sizes:
                counted, call, sets = make_calls(collective, nbytes, n, rank, device, inplace, cold_bytes)
                iters = max(fixed_iters or iters_for(counted), sets)  # a cold loop calls on every set
                if launch == "graph":
                    t, issue = time_graph(call, iters, repeats, device)
                else:
                    t, issue = time_eager(call, iters, repeats, device)
                del call
                if rank == 0:
                    algbw = counted / t / 1e9
                    busbw = algbw * busbw_factor(collective, n)
                    with open(csv_path, "a") as f:
                        f.write(f"{label},{collective},{n},{counted},{DTYPE_NAME},{t * 1e6:.3f},"
                                f"{algbw:.6g},{busbw:.6g},{iters},{launch},{issue * 1e6:.3f}\n")
            torch.cuda.empty_cache()  # the next collective's largest buffers need the room
            if rank == 0:
                print(f"nccl_bench: {label} {collective} done", flush=True)
        dist.barrier()
    finally:
        dist.destroy_process_group()


def nccl_version():
    v = torch.cuda.nccl.version()  # a (major, minor, patch) tuple; an int in old releases
    return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)


def parse_bytes(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * units[s[-1]] if s[-1] in units else int(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    ap.add_argument("--out", required=True, help="output folder (meta JSON, topology dumps)")
    ap.add_argument("--csv", help="CSV to append rows to (default: <out>/nccl_bench.csv)")
    ap.add_argument("--dump-topology", action="store_true",
                    help="write nccl_topo.xml and nccl_graph.xml into --out")
    ap.add_argument("--sizes", choices=sorted(SIZE_SETS), default="default",
                    help="default: 8 B .. 1 GiB (powers of 4 and more); pow2: 1 MiB .. 4 GiB; "
                         "l2: 16 MiB .. 64 MiB in 8 MiB steps")
    ap.add_argument("--max-bytes", type=parse_bytes, default=None,
                    help="largest size (suffix K, M or G allowed; default 1G, 4G for pow2)")
    ap.add_argument("--min-bytes", type=parse_bytes, default=0,
                    help="smallest size (suffix K, M or G allowed; default: the size set's smallest)")
    ap.add_argument("--launch", choices=("eager", "graph"), default="eager",
                    help="eager: calls issued from Python; graph: replayed from a CUDA graph")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed loops (eager) or graph replays per size, median kept "
                         "(default 1 eager, 5 graph)")
    ap.add_argument("--iters", type=int, default=None,
                    help="calls per timed loop or graph at every size (default 20 up to 64 MiB, 5 above)")
    ap.add_argument("--channels", type=int, default=None,
                    help="pin the communicator to this many channels (NCCL_MIN/MAX_NCHANNELS)")
    ap.add_argument("--collectives", default=None,
                    help="comma-separated subset of the variant's collectives (default: all of them)")
    ap.add_argument("--inplace", action="store_true",
                    help="allgather and reducescatter in place (the input a block of the output, or the "
                         "output a block of the input); names the variant <variant>_inplace")
    ap.add_argument("--cold", type=parse_bytes, default=0,
                    help="each call on the next of as many buffer sets as hold this many bytes "
                         "together (suffix K, M or G), so that no call finds its buffers in the L2 "
                         "cache; names the variant <variant>_cold")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="one more NCCL setting for this run (repeatable, e.g. NCCL_LL128_NTHREADS=320); "
                         "names the variant <variant>_<key without NCCL_, lower case><value>")
    args = ap.parse_args()
    collectives = VARIANTS[args.variant][1]
    extra_env = {}
    for item in args.env:
        key, eq, value = item.partition("=")
        if not eq or not key.startswith("NCCL_") or not value:
            ap.error(f"--env: '{item}' is not NCCL_KEY=VALUE")
        extra_env[key] = value
    if args.collectives:
        asked = args.collectives.split(",")
        # broadcast_alt (roots in turn) only where asked for, beside the variant's broadcast.
        unknown = [c for c in asked if c not in collectives and not (c == "broadcast_alt" and "broadcast" in collectives)]
        if unknown:
            ap.error(f"--collectives: {', '.join(unknown)} not measured by variant {args.variant} "
                     f"(it measures {', '.join(collectives)})")
        collectives = tuple(asked)
    if args.iters is not None and not 1 <= args.iters <= 1000:
        ap.error("--iters: give 1 to 1000")
    if args.channels is not None and not 1 <= args.channels <= 64:
        ap.error("--channels: give 1 to 64")
    label = args.variant if args.channels is None else f"{args.variant}_ch{args.channels}"
    if args.inplace:
        label += "_inplace"
    if args.cold:
        label += "_cold"
    for key, value in extra_env.items():
        label += f"_{key[len('NCCL_'):].lower()}{value}"
    repeats = args.repeats or (5 if args.launch == "graph" else 1)
    os.makedirs(args.out, exist_ok=True)
    csv_path = args.csv or os.path.join(args.out, "nccl_bench.csv")
    max_bytes = DEFAULT_MAX_BYTES[args.sizes] if args.max_bytes is None else args.max_bytes
    sizes = [s for s in SIZE_SETS[args.sizes] if args.min_bytes <= s <= max_bytes]
    n = torch.cuda.device_count()
    if n < 2:
        print(f"nccl_bench: {n} GPU(s): nothing to measure", flush=True)
        return

    dumps = {}
    if args.dump_topology:
        dumps = {"NCCL_TOPO_DUMP_FILE": os.path.join(args.out, "nccl_topo.xml"),
                 "NCCL_GRAPH_DUMP_FILE": os.path.join(args.out, "nccl_graph.xml")}
    use_variant_environment(args.variant, args.channels, {**dumps, **extra_env})

    meta = {
        "variant": label,
        "collectives": list(collectives),
        "nranks": n,
        "sizes": args.sizes,
        "launch": args.launch,
        "repeats": repeats,
        "min_bytes": args.min_bytes,
        "max_bytes": max_bytes,
        "inplace": args.inplace,
        "cold_bytes": args.cold,
        "iters": args.iters,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": nccl_version(),
        "env": {k: v for k, v in sorted(os.environ.items()) if k.startswith(("NCCL_", "TORCH_",
                                                                            "NVSHMEM_"))},
        "devices": [torch.cuda.get_device_name(d) for d in range(n)],
    }
    tag = label if args.launch == "eager" else f"{label}_graph"
    with open(os.path.join(args.out, f"nccl_{tag}_meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if not os.path.exists(csv_path) or os.path.getsize(csv_path) == 0:
        with open(csv_path, "w") as f:
            f.write(CSV_HEADER)
    print(f"nccl_bench: variant {label}, {n} ranks, NCCL {meta['nccl']}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(n, os.path.join(tmp, "rendezvous"), label, csv_path, sizes, args.launch,
                               repeats, collectives, args.inplace, args.cold, args.iters), nprocs=n, join=True)


if __name__ == "__main__":
    main()
