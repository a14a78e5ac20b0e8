"""PyTorch training apps under DistributedDataParallel, one process per GPU, each rank timed
without the profiler and traced with it: the multi-rank ground truth for linkcast's whole-
application projection (`linkcast project --from A --to B rank0.json.gz rank1.json.gz --actual
...`), recorded the same way on two machines.

Every app runs in a fresh set of processes (one per GPU, NCCL backend, torch.multiprocessing
spawn) and, within them, exactly as torch_apps.py runs a single-GPU app (the same functions:
warm-up, the `loop` and `sync` variants without the profiler, then 1 + K profiled steps), each
rank with its own outputs. The models are torch_apps.py's, built on the rank's GPU and wrapped
in DistributedDataParallel(device_ids=[rank]) (gradient buckets of 25 MiB, allreduced by NCCL
during the backward pass); every rank reads the same seeded batches.

Apps:
  ddp_train_pinned   train_pinned's CNN (1.6 M parameters) on pinned host batches, non_blocking
  ddp_gpt            gpt_mixed's GPT (6 layers, d 768, vocabulary 16384) on pinned token
                     batches, bf16 autocast, AdamW and clipping, no checkpoints
  ddp_encoder_bf16   encoder_bf16's TransformerEncoder on GPU-resident tokens, bf16 autocast
  ddp_mlp            the checkpoint apps' MLP (4 x Linear(4096, 4096), 67 M parameters, 268 MB
                     of gradients a step) on a batch of 512 on the GPU, SGD, no checkpoints:
                     the allreduce is a large share of the step
  pp_mlp             (not DDP) a two-stage GPipe pipeline of that MLP's layers, 4 micro-batches of
                     1024 rows, activations and gradients by dist.send/recv (2026-11-29,
                     tools/record/run_pipeline_apps.sh)

Outputs (in --out):
  rank<r>/apps_steps.csv      rank r's rows, as torch_apps.py writes them
  app_<name>/rank<r>.json.gz  rank r's Kineto trace of the profiled steps: a folder per job, as
                              `linkcast project`, `simulate` and --actual take one
  ddp_apps_meta.json          versions, settings, and per app and rank its meta and status

Usage: python3 torch_ddp_apps.py --out DIR [--apps a,b] [--gpus N] [--quick] [--steps 30]
       [--warmup 5] [--active 8] [--per-app-s 120] [--budget-s S]
"""

import os

os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import csv  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
from torch.nn.parallel import DistributedDataParallel  # noqa: E402

import torch_apps as ta  # noqa: E402

META_JSON = "ddp_apps_meta.json"


def log(msg):
    print(f"torch_ddp_apps: {msg}", flush=True)


class DdpTrainPinned(ta.TrainPinned):
    name = "ddp_train_pinned"


class DdpGpt(ta.GptMixed):
    name = "ddp_gpt"
    every = 1 << 30  # no checkpoint within a run


class DdpEncoderBf16(ta.EncoderBf16):
    name = "ddp_encoder_bf16"


class DdpMlp(ta.Checkpoint):
    name = "ddp_mlp"
    # Checkpoint.step calls checkpoint() at step 0 of each variant (step % every == 0): a no-op.
    every = 1 << 30

    def __init__(self, quick):
        super().__init__(quick)
        batch = 64 if quick else 512
        width = self.data[0][0].shape[1]
        self.data = [(torch.randn(batch, width, device=self.dev),
                      torch.randn(batch, width, device=self.dev)) for _ in range(2)]
        self.meta["batch_shapes"] = [[batch, width], [batch, width]]
        self.meta["checkpoint"] = "none"
        self.meta.pop("checkpoint_every", None)

    def checkpoint(self):  # no checkpoints: the collectives are what this app is for
        pass


class PipelineMlp(ta.App):
    """Two-stage pipeline (GPipe): rank 0 holds the first 4 x (Linear(4096, 4096), GELU), rank 1
    the last 4 and the loss; 4 micro-batches of 1024 rows a step. Rank 0 sends each micro-batch's
    activations (16 MiB, dist.send), then receives their gradients (dist.recv); rank 1 receives
    all four, then runs each backward and sends its gradient back. SGD on each rank. No DDP: the
    traffic is NCCL send/recv alone (Kineto's "Dst Rank" / "Src Rank")."""

    name = "pp_mlp"
    ddp = False
    micro = 4

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, rows = (64, 2, 16) if quick else (4096, 4, 1024)
        self.rank = dist.get_rank()
        self.model = ta.mlp(width, layers, "gelu").to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-4, momentum=0.9)
        self.shape = (rows, width)
        self.xs = [torch.randn(rows, width, device=self.dev) for _ in range(self.micro)]
        self.ts = [torch.randn(rows, width, device=self.dev) for _ in range(self.micro)]
        self.meta.update({
            "model": f"stage {self.rank} of 2: MLP {layers} x (Linear({width}, {width}), GELU)",
            "parameters": ta.numel(self.model),
            "batch_shapes": [[rows, width]] * self.micro,
            "pipeline": "GPipe, 2 stages, 4 micro-batches; dist.send/recv of activations and gradients",
            "p2p_bytes_per_step": 2 * self.micro * rows * width * 4,
            "precision": "float32",
            "optimizer": "SGD(lr=1e-4, momentum=0.9)",
        })

    def step(self, i):
        self.opt.zero_grad(set_to_none=True)
        if self.rank == 0:
            outs = []
            for x in self.xs:
                h = self.model(x)
                dist.send(h.detach(), dst=1)
                outs.append(h)
            for h in outs:
                g = torch.empty(self.shape, device=self.dev)
                dist.recv(g, src=1)
                h.backward(g)
        else:
            ins, losses = [], []
            for t in self.ts:
                h = torch.empty(self.shape, device=self.dev)
                dist.recv(h, src=0)
                h.requires_grad_(True)
                ins.append(h)
                losses.append(torch.nn.functional.mse_loss(self.model(h), t))
            for h, loss in zip(ins, losses):
                loss.backward()
                dist.send(h.grad, dst=0)
        self.opt.step()


APPS = {cls.name: cls for cls in (DdpTrainPinned, DdpGpt, DdpEncoderBf16, DdpMlp, PipelineMlp)}


def rank_out(out, rank):
    path = os.path.join(out, f"rank{rank}")
    os.makedirs(path, exist_ok=True)
    steps = os.path.join(path, ta.STEPS_CSV)
    if not os.path.exists(steps):
        with open(steps, "w", newline="") as f:
            csv.writer(f).writerow(["app", "variant", "step", "step_ns"])
    return path


def part_path(out, name, rank):
    return os.path.join(out, f".ddp_{name}_rank{rank}.part.json")


def write_part(out, name, rank, info):
    tmp = part_path(out, name, rank) + ".tmp"
    with open(tmp, "w") as f:
        json.dump(info, f, indent=1, default=str)
    os.replace(tmp, part_path(out, name, rank))


def worker(rank, world, init_file, name, args):
    """One rank of one app: both passes of torch_apps.py on this rank's GPU under DDP."""
    info = {"app": name, "rank": rank, "status": "running", "pid": os.getpid()}
    t0 = time.perf_counter()
    try:
        torch.cuda.set_device(rank)
        dist.init_process_group("nccl", init_method=f"file://{init_file}", rank=rank,
                                world_size=world, device_id=torch.device("cuda", rank),
                                timeout=datetime.timedelta(seconds=120))
        ta.seed_all()
        app = APPS[name](args.quick)
        if getattr(app, "ddp", True):
            app.model = DistributedDataParallel(app.model, device_ids=[rank])
            info["ddp"] = "DistributedDataParallel(device_ids=[rank]), bucket_cap_mb 25 (default)"
        info.update(app.meta)
        info["build_s"] = round(time.perf_counter() - t0, 3)
        out = rank_out(args.out, rank)
        ta.run_unprofiled(app, args, out, info)
        args.profile_wait = rank * args.window_offset
        args.profile_extra_steps = (world - 1) * args.window_offset
        ta.run_profiled(app, args, out, info)
        job = os.path.join(args.out, f"app_{name}")  # the job's ranks side by side
        os.makedirs(job, exist_ok=True)
        os.replace(os.path.join(out, f"app_{name}.json.gz"), os.path.join(job, f"rank{rank}.json.gz"))
        info["trace"] = os.path.relpath(os.path.join(job, f"rank{rank}.json.gz"), args.out)
        torch.cuda.synchronize()
        info["max_memory_allocated"] = torch.cuda.max_memory_allocated()
        info["device"] = torch.cuda.get_device_name(rank)
        info["status"] = "ok"
    except Exception:  # noqa: BLE001 (recorded in the meta; the driver reports it)
        tb = traceback.format_exc()
        print(f"torch_ddp_apps: FAILED {name} rank {rank}:\n{tb}", file=sys.stderr, flush=True)
        info["status"] = "failed"
        info["error"] = tb
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
    info["wall_s"] = round(time.perf_counter() - t0, 3)
    write_part(args.out, name, rank, info)


def run_child(args):
    """This process runs one app: spawns one process per GPU."""
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(args.gpus, os.path.join(tmp, "rendezvous"), args.child, args),
                 nprocs=args.gpus, join=True)


def run_isolated(name, args, limit_s):
    for r in range(args.gpus):
        try:
            os.remove(part_path(args.out, name, r))
        except FileNotFoundError:
            pass
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--out", args.out,
           "--gpus", str(args.gpus), "--steps", str(args.steps), "--warmup", str(args.warmup),
           "--active", str(args.active), "--window-offset", str(args.window_offset)] + (["--quick"] if args.quick else [])
    status, rc = None, None
    try:
        rc = subprocess.run(cmd, timeout=limit_s).returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
        log(f"{name}: TIMEOUT after {limit_s:.0f} s")
    ranks = []
    for r in range(args.gpus):
        try:
            with open(part_path(args.out, name, r)) as f:
                ranks.append(json.load(f))
            os.remove(part_path(args.out, name, r))
        except (OSError, ValueError) as e:
            ranks.append({"rank": r, "status": f"no metadata ({type(e).__name__})"})
    ok = status is None and rc == 0 and all(i.get("status") == "ok" for i in ranks)
    return {"app": name, "status": "ok" if ok else (status or f"failed (rc={rc})"),
            "child_returncode": rc, "ranks": ranks}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--apps", default=",".join(APPS))
    ap.add_argument("--gpus", type=int, default=None, help="ranks (default: every GPU)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--active", type=int, default=8)
    ap.add_argument("--window-offset", type=int, default=0,
                    help="rank r's profiling window opens r x N steps later (every rank runs the same steps)")
    ap.add_argument("--per-app-s", type=float, default=120.0)
    ap.add_argument("--budget-s", type=float, default=None)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    args.profile_sync = "step"  # torch_apps.run_profiled reads these two
    args.sync_events = False
    if args.gpus is None:
        args.gpus = torch.cuda.device_count()
    return ap, args


def main():
    ap, args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.child:
        run_child(args)
        return
    if args.gpus < 2:
        sys.exit(f"torch_ddp_apps: needs 2 or more GPUs, sees {args.gpus}")
    names = ta.chosen_apps(ap, args.apps, APPS)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t_start = time.monotonic()
    apps_info = []
    for name in names:
        left = None if args.budget_s is None else args.budget_s - (time.monotonic() - t_start)
        if left is not None and left < 25:
            apps_info.append({"app": name, "status": "skipped (no time)"})
            continue
        t = time.monotonic()
        log(f"{name}: start on {args.gpus} GPUs")
        info = run_isolated(name, args, args.per_app_s if left is None else min(args.per_app_s, left - 5))
        apps_info.append(info)
        log(f"{name}: {info['status']} in {time.monotonic() - t:.1f} s")
        meta = {"script": "tools/record/torch_ddp_apps.py", "argv": sys.argv, "started_utc": started,
                "versions": ta.versions(), "gpus": args.gpus,
                "settings": {"quick": args.quick, "warmup_steps": args.warmup, "steps": args.steps,
                             "profiled_steps": 1 + args.active, "profile_sync": "step",
                             "isolation": "one set of processes per app", "seed": ta.SEED},
                "env": {k: v for k, v in sorted(os.environ.items())
                        if k.startswith(("NCCL_", "TORCH_", "NVSHMEM_", "CUDA_"))},
                "apps": apps_info}
        with open(os.path.join(args.out, META_JSON), "w") as f:
            json.dump(meta, f, indent=1, default=str)
    bad = [i["app"] for i in apps_info if i.get("status") != "ok"]
    log(f"done in {time.monotonic() - t_start:.1f} s; " + (f"NOT ok: {', '.join(bad)}" if bad else "all ok"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
