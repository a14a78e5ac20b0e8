"""PyTorch profiler (Kineto) Chrome traces of copies and small training loops, for linkcast's
Kineto trace reader.

Parts (--parts, comma-separated; default: every part the GPU count allows):
  copy   copy sweep over 1 KiB .. 1 GiB (powers of 4), each op on its own, 5 timed reps after one
         warm-up, every run labelled `<op>/<bytes>/<rep0..|warmup>` with record_function:
           h2d_pageable  pageable CPU tensor .to('cuda:0')
           h2d_pinned    pinned CPU tensor .to('cuda:0', non_blocking=True)
           d2h_pageable  .to('cpu')                     (fresh pageable output)
           d2h_pinned    .to('cpu', non_blocking=True)  (PyTorch allocates the output pinned)
           d2d           .clone() on cuda:0
           p2p_0to1, p2p_1to0   .to('cuda:1') / .to('cuda:0') between the first two GPUs (2+ GPUs)
         -> torch_copy_sweep.json.gz, and torch_copy_sweep.csv (host wall time of each run)
  train  small CNN on one GPU, a DataLoader over CPU batches moved to the GPU every step, 20
         profiled steps after 3 warm-up steps; once with pageable batches, once with
         pin_memory=True and non_blocking copies
         -> torch_train_pageable.json.gz, torch_train_pinned.json.gz
  ddp    the same model under DistributedDataParallel (NCCL backend, one process per GPU via
         torch.multiprocessing.spawn, file:// rendezvous), pinned batches, 20 profiled steps
         -> torch_ddp_rank<r>.json.gz (2+ GPUs)
Always writes torch_meta.json (versions and devices).
"""

import os

# NVLink multicast stays off on shared multi-GPU hosts: set before torch (and NCCL) load, and
# inherited by every spawned process.
os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import csv  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
from torch import nn  # noqa: E402
from torch.profiler import ProfilerActivity, profile, record_function  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

COPY_SIZES = [1 << (10 + 2 * k) for k in range(11)]  # 1 KiB .. 1 GiB, powers of 4
ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
IMAGE_SHAPE = (3, 96, 96)
BATCH = 128
WARMUP_STEPS = 3


def log(msg):
    print(f"torch_traces: {msg}", flush=True)


def export_gz(prof, path_gz):
    """Exports the profiler's Chrome trace and gzips it to `path_gz`."""
    path_json = path_gz[: -len(".gz")]
    prof.export_chrome_trace(path_json)
    with open(path_json, "rb") as src, gzip.open(path_gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path_json)


def sync_all(ngpu):
    for d in range(ngpu):
        torch.cuda.synchronize(d)


# ---------------------------------------------------------------------------------------------
# Copy sweep


def copy_ops(nbytes, ngpu):
    """Returns [(name, callable)] for one size; each callable performs one copy."""
    dev0 = torch.device("cuda:0")
    pageable = torch.empty(nbytes, dtype=torch.uint8).fill_(1)
    pinned = torch.empty(nbytes, dtype=torch.uint8, pin_memory=True).fill_(1)
    on_gpu0 = pinned.to(dev0)
    ops = [
        ("h2d_pageable", lambda: pageable.to(dev0)),
        ("h2d_pinned", lambda: pinned.to(dev0, non_blocking=True)),
        ("d2h_pageable", lambda: on_gpu0.to("cpu")),
        ("d2h_pinned", lambda: on_gpu0.to("cpu", non_blocking=True)),
        ("d2d", lambda: on_gpu0.clone()),
    ]
    if ngpu >= 2:
        dev1 = torch.device("cuda:1")
        on_gpu1 = on_gpu0.to(dev1)
        ops += [("p2p_0to1", lambda: on_gpu0.to(dev1)), ("p2p_1to0", lambda: on_gpu1.to(dev0))]
    return ops


def copy_sweep(out, ngpu, reps, max_bytes):
    sizes = [s for s in COPY_SIZES if s <= max_bytes]
    rows = []
    with profile(activities=ACTIVITIES) as prof:
        for nbytes in sizes:
            for name, op in copy_ops(nbytes, ngpu):
                for rep in ["warmup"] + [f"rep{r}" for r in range(reps)]:
                    with record_function(f"{name}/{nbytes}/{rep}"):
                        t0 = time.perf_counter_ns()
                        op()
                        sync_all(ngpu)
                        wall = time.perf_counter_ns() - t0
                    if rep != "warmup":
                        rows.append((name, nbytes, rep, wall))
            log(f"copy sweep: {nbytes} B done")
    export_gz(prof, os.path.join(out, "torch_copy_sweep.json.gz"))
    with open(os.path.join(out, "torch_copy_sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "bytes", "rep", "wall_ns"])
        w.writerows(rows)


# ---------------------------------------------------------------------------------------------
# Training loops


class SmallCNN(nn.Module):
    """Two conv blocks and an MLP head (~9 M parameters, so DDP syncs more than one bucket)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.AdaptiveAvgPool2d(6),
        )
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64 * 6 * 6, 2048),
            nn.ReLU(),
            nn.Linear(2048, 2048),
            nn.ReLU(),
            nn.Linear(2048, 10),
        )

    def forward(self, x):
        return self.head(self.features(x))


def make_loader(steps, pinned, seed):
    """A DataLoader over synthetic CPU images, enough batches for warm-up plus `steps`."""
    g = torch.Generator().manual_seed(seed)
    n = BATCH * (steps + WARMUP_STEPS)
    images = torch.rand((n, *IMAGE_SHAPE), generator=g)
    labels = torch.randint(0, 10, (n,), generator=g)
    return DataLoader(TensorDataset(images, labels), batch_size=BATCH, pin_memory=pinned)


def train(model, loader, device, steps, pinned, prof_kwargs, trace_path):
    """Runs WARMUP_STEPS unprofiled steps, then `steps` profiled ones, and exports the trace."""
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    def step(batch):
        x, y = batch
        x = x.to(device, non_blocking=pinned)
        y = y.to(device, non_blocking=pinned)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    batches = iter(loader)
    for _ in range(WARMUP_STEPS):
        step(next(batches))
    torch.cuda.synchronize(device)
    with profile(activities=ACTIVITIES, **prof_kwargs) as prof:
        for i in range(steps):
            with record_function(f"train_step{i}"):
                step(next(batches))
        torch.cuda.synchronize(device)
    export_gz(prof, trace_path)


def train_single(out, steps):
    device = torch.device("cuda:0")
    for variant, pinned in (("pageable", False), ("pinned", True)):
        torch.manual_seed(0)
        model = SmallCNN().to(device)
        loader = make_loader(steps, pinned, seed=0)
        train(model, loader, device, steps, pinned, {},
              os.path.join(out, f"torch_train_{variant}.json.gz"))
        log(f"train ({variant}) done")


def ddp_worker(rank, world, init_file, out, steps):
    device = torch.device("cuda", rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", init_method=f"file://{init_file}", rank=rank,
                            world_size=world, device_id=device)
    try:
        torch.manual_seed(0)
        model = nn.parallel.DistributedDataParallel(SmallCNN().to(device), device_ids=[rank])
        loader = make_loader(steps, pinned=True, seed=rank)
        # record_shapes: NCCL kernels then carry the collective's arguments in the trace.
        train(model, loader, device, steps, True, {"record_shapes": True},
              os.path.join(out, f"torch_ddp_rank{rank}.json.gz"))
        dist.barrier()
    finally:
        dist.destroy_process_group()


def train_ddp(out, ngpu, steps):
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(ddp_worker, args=(ngpu, os.path.join(tmp, "rendezvous"), out, steps),
                 nprocs=ngpu, join=True)
    log(f"ddp on {ngpu} GPUs done")


# ---------------------------------------------------------------------------------------------


def nccl_version():
    v = torch.cuda.nccl.version()  # a (major, minor, patch) tuple; an int in old releases
    return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)


def write_meta(out, ngpu):
    """Versions and device properties; also whether a non_blocking D2H lands in pinned memory."""
    probe = torch.ones(16, device="cuda:0").to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    meta = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": nccl_version(),
        "python": sys.version.split()[0],
        "d2h_non_blocking_output_pinned": probe.is_pinned(),
        "devices": [
            {
                "index": d,
                "name": torch.cuda.get_device_properties(d).name,
                "total_memory": torch.cuda.get_device_properties(d).total_memory,
                "multi_processor_count": torch.cuda.get_device_properties(d).multi_processor_count,
            }
            for d in range(ngpu)
        ],
    }
    with open(os.path.join(out, "torch_meta.json"), "w") as f:
        json.dump(meta, f, indent=1)


def parse_bytes(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * units[s[-1]] if s[-1] in units else int(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--parts", default="copy,train,ddp", help="comma-separated: copy,train,ddp")
    ap.add_argument("--reps", type=int, default=5, help="timed reps per copy and size")
    ap.add_argument("--steps", type=int, default=20, help="profiled training steps")
    ap.add_argument("--max-bytes", type=parse_bytes, default=1 << 30,
                    help="largest copy size (suffix K, M or G allowed)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ngpu = torch.cuda.device_count()
    if ngpu == 0:
        sys.exit("torch_traces: no CUDA device")
    write_meta(args.out, ngpu)

    parts = args.parts.split(",")
    failed = []
    for part in parts:
        t0 = time.monotonic()
        try:
            if part == "copy":
                copy_sweep(args.out, ngpu, args.reps, args.max_bytes)
            elif part == "train":
                train_single(args.out, args.steps)
            elif part == "ddp":
                if ngpu < 2:
                    log("ddp skipped: needs 2 or more GPUs")
                    continue
                train_ddp(args.out, ngpu, args.steps)
            else:
                sys.exit(f"torch_traces: unknown part {part!r} (copy, train, ddp)")
        except Exception as e:  # one failed part must not lose the others
            failed.append(part)
            print(f"torch_traces: FAILED {part}: {type(e).__name__}: {e}", file=sys.stderr,
                  flush=True)
        log(f"{part} took {time.monotonic() - t0:.1f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
