"""PyTorch training "applications" on cuda:0, each timed without the profiler and traced with it,
for linkcast's whole-application replay (kernels, copies, CPU ops, syncs) and its projection of
step times onto other nodes.

Every app runs in a fresh Python process of its own (so that one app's CUDA error, memory or
profiler state never touches the next; --in-process runs them all in this one), and within it
twice, after seeding everything:
  1. WITHOUT the profiler: --warmup steps (default 5), then
       loop  --steps steps (default 30) back to back, synchronized only before and after the
             whole loop; a CUDA event recorded on the current stream after each step gives each
             step's GPU-side time, and the host wall time of the whole loop is kept too;
       sync  --steps steps, each followed by torch.cuda.synchronize(); each step's host wall time
             (perf_counter_ns, step start to after the synchronize).
  2. WITH the profiler: torch.profiler.profile(activities=[CPU, CUDA],
       schedule=schedule(wait=0, warmup=1, active=K, repeat=1), record_shapes=True,
       with_stack=False), prof.step() after each step, 1 + K steps (K = --active, default 8),
       each followed by torch.cuda.synchronize() and timed exactly as `sync` (prof.step() itself
       is outside the timing). The trace holds ProfilerStep#1 .. ProfilerStep#K (step 0 is the
       profiler's warm-up and is not in it) and is written as app_<name>.json.gz.
       --profile-sync none instead runs the profiled steps back to back like `loop`;
       --sync-events adds experimental_config=_ExperimentalConfig(enable_cuda_sync_events=True)
       (Kineto's "cuda_sync" events: each stream wait, event and stream synchronisation).
Step numbers restart at 0 in each of loop, sync and profiled, and every app's behaviour depends
only on the step number (e.g. a checkpoint after every 2nd step), so the three see the same
program.

Apps (sizes for an H100; each app's whole run takes about 10-25 s, a step 5-100 ms):
  train_pinned        CNN (4 conv/BN/ReLU/pool blocks, width 64) on 256 x 3 x 160 x 160 float
                      batches cycled from 4 pinned host batches, copied with non_blocking=True;
                      SGD with momentum
  train_pageable      the same with pageable host batches (.to(device), blocking)
  gpt_mixed           (held out for final scoring) GPT-style decoder, 6 layers, d 768, 12 heads,
                      vocabulary 16384, 16 x 512 tokens from pinned int64 batches
                      (non_blocking), bf16 autocast, scaled_dot_product_attention (causal),
                      gradient clipping, AdamW; after every 4th step (step % 4 == 3) a checkpoint
                      of every parameter to FRESH pageable CPU tensors
  ckpt_fresh          MLP 4 x Linear(4096, 4096) (67 M parameters), batch 2048 on the GPU, SGD;
                      after every 2nd step (step % 2 == 0) {k: v.detach().cpu()} of the state
                      dict: D2H into freshly allocated pageable memory (page faults)
  ckpt_reuse          the same into pageable CPU buffers allocated (and touched) once:
                      buf.copy_(v)
  offload_pinned      MLP 12 x (Linear(2048, 2048), GELU), batch 4096, forward under
                      torch.autograd.graph.save_on_cpu(pin_memory=True): saved activations go
                      D2H (pinned) during the forward and H2D during the backward
  prefetch_overlap    the train_pinned CNN and batches, the next batch prefetched on a side
                      stream (torch.cuda.stream) while the current step computes; the compute
                      stream wait_stream()s the side stream before using it
  d2d_beside_compute  MLP 4 x (Linear(4096, 4096), LayerNorm, GELU), batch 2048, while a side
                      stream copies 1 GiB device buffers (2 x dst.copy_(src), 2 x src.clone())
                      each step; the compute stream waits for the side stream at step end
  ckpt_fresh_mem      ckpt_fresh profiled with profile_memory=True (allocation events of the
                      fresh destinations in the trace)
  vision_bf16         residual CNN (stem + 3 ResBlocks of 96 channels, max-pools) in bf16 autocast
                      and channels_last, 128 x 3 x 128 x 128 batches on the GPU, Adam (2026-11-27:
                      held out of the kernels' memory-bound share, scored once)
  recsys_embed        EmbeddingBag(262144, 128, sum) lookups of 16384 bags x 32 random rows feeding
                      an MLP (128-1024-1024-1), data on the GPU, SGD (held out likewise)
  d2d_many_beside     MLP 6 x (Linear(2048, 2048), GELU), batch 4096, Adam, while a side stream
                      copies 256 MiB device buffers 8 times a step (held out of the replay's waits
                      for the SMs of GPU-filling copies, scored once)
  mobile_fp16         MobileNetV2-style CNN (inverted residual blocks with depthwise 3x3
                      convolutions, 48 and 96 channels expanded 6x) in fp16 autocast with a
                      GradScaler, channels_last, 128 x 3 x 112 x 112 batches on the GPU, SGD with
                      momentum (2026-11-27: held out of the matrix kernels' memory-bound share,
                      scored once)
  encoder_bf16        TransformerEncoder, 6 pre-norm layers, d 512, 8 heads, 16 x 256 tokens on the
                      GPU, bf16 autocast, AdamW (held out likewise)
  graphed_mlp         MLP 6 x (Linear(2048, 2048), GELU), batch 4096, forward and backward as CUDA
                      graphs (make_graphed_callables), SGD eager, loss.item() every step
  two_stream_branches two MLP towers (4 x Linear(2048, 2048)), one on a side stream, joined by an
                      event before the head, bf16 autocast, AdamW
  launch_bound        MLP 12 x (Linear(256, 256), LayerNorm, GELU), batch 64, Adam(foreach=False):
                      microsecond kernels, the host's launches set the pace; loss.item() each step
  infer_pinned_out    GPT-style decoder (6 layers, d 768, vocabulary 32768) forward, 16 x 512
                      tokens, bf16, inference_mode; the last 64 positions' logits (64 MiB) copied
                      non_blocking into pinned memory and waited for with an event; argmax .tolist()
  compiled_mlp        torch.compile (Triton) MLP 4 x (Linear(4096, 4096), LayerNorm, GELU), batch
                      4096, AdamW(fused=True)
  (the five above: 2026-11-28, patterns the others lack, recorded on one H200 and scored once)
  loader_workers      the train_pinned CNN fed by a DataLoader (2 workers cropping and flipping
                      CPU samples, pin_memory=True, non_blocking copies)
  kv_decode           greedy decoding with a KV cache grown by torch.cat: GPT-style decoder
                      (8 layers, d 1024), 32 prompts of 128 tokens, 48 tokens a step, one forward
                      a token, (next == eos).all().item() per token; bf16, inference_mode
  cpu_adam_offload    ZeRO-offload style: MLP 6 x (Linear(2048, 2048), GELU) whose gradients go
                      D2H to pinned buffers, Adam on the CPU over fp32 master weights, weights H2D
  small_pageable      MLP whose input arrives as 64 small pageable CPU blocks (blocking H2D each,
                      128 KiB and 384 KiB), concatenated on the GPU; [loss, grad norm] .tolist()
  (the last four: 2026-11-29, patterns none of the others has, recorded on one H200 and scored
  once: tools/record/run_unseen_apps2.sh)
  stack_flops_cnn     train_pinned profiled with with_stack, with_flops and with_modules
  moe_router          mixture of experts (router, top 2 of 8 expert MLPs, nonzero() gathers,
                      index_add_, expert loads .tolist()), bf16; profiled with record_shapes=False
  accum_checkpoint    4 pageable micro-batches a step (non_blocking=True), activation
                      checkpointing, fp16 with a GradScaler; profiled without a schedule (one trace
                      of all 1 + K steps, no ProfilerStep markers)
  dynamic_seq         TransformerEncoder on 128/256/384/512-token sequences in turn, expandable
                      segments, batches built and .pin_memory()'d each step, predictions D2H
                      non_blocking into pinned memory and waited for with an event
  (the last four: 2026-11-29, tools/record/run_unseen_apps3.sh)
  cuda_only_cnn       train_pinned profiled with activities=[CUDA] alone (no CPU operators, no
                      ProfilerStep markers)
  cpu_only_cnn        train_pinned profiled with activities=[CPU] alone (no GPU activity)
  windows_mlp         MLP (4 x Linear(2048, 2048), GELU, batch 4096, loss.item() each step)
                      profiled in three windows of two steps by tensorboard_trace_handler: three
                      files in app_windows_mlp/
  (the last three: 2026-11-29, tools/record/run_unseen_apps4.sh)
  accum_hog           accum_checkpoint while six processes copy 512 MiB host buffers in a loop
                      (2026-11-29, tools/record/run_pageable_hog.sh: recorded beside
                      accum_checkpoint, the host's memory shared)
  async_alloc_mlp     MLP (4 x Linear(2048, 2048), GELU, AdamW) on batches of 1024/2048/3072 rows
                      in turn, tensors from the stream-ordered allocator
                      (PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync, set in the app's process);
                      loss.item() every step
  empty_cache_mlp     MLP training with torch.cuda.empty_cache() after every step (cudaFree, which
                      waits for the device; cudaMalloc again in the next step)
  event_poll_mlp      MLP training whose host polls event.query() with 50 us of busy CPU work
                      between polls until the step is done (no synchronize)
  priority_streams    a small MLP trained on the default stream (4 updates a step) beside three
                      8192^2 bf16 GEMMs on a low-priority stream; the batch copied in on a
                      high-priority stream from pinned memory
  threads_two_models  two Python threads each training its own MLP on its own stream at once
  (the last five: 2026-11-29, tools/record/run_unseen_apps5.sh, recorded on one H200, scored once)
  spin_{poll,free,item}_{a,b}
                      event_poll_mlp, empty_cache_mlp and an MLP reading its loss with .item(),
                      each step started by torch.cuda._sleep: 4e6 GPU cycles (_a), 12e6 (_b):
                      the _a trace replayed with its spins at the _b length against the _b
                      recording (tools/record/run_sleep_pairs.sh)

Outputs (in --out):
  apps_steps.csv     app,variant,step,step_ns for every step: variants loop (GPU event time),
                     sync (host wall, synchronized), profiled (host wall, synchronized, step =
                     the ProfilerStep number), and loop_total (one row: step = the number of
                     steps, step_ns = host wall time of the whole loop, synchronize to
                     synchronize); with --profile-sync none also profiled_total
  app_<name>.json.gz Kineto Chrome trace of the profiled steps
  apps_meta.json     versions (torch, CUDA, cuDNN, NCCL, Python), the device, the settings, and
                     per app: parameter count, batch shapes, bytes moved per step, precision,
                     optimizer, step counts, median step times, trace size, status and traceback
Exit status 1 if any app failed, timed out or was skipped for lack of time.

Usage: python3 torch_apps.py --out DIR [--apps a,b] [--quick] [--steps 30] [--warmup 5]
       [--active 8] [--budget-s S] [--per-app-s 150] [--profile-sync step|none] [--sync-events]
       [--in-process]
--quick shrinks every model, batch and step count (a dry run of a few seconds per app).
"""

import os

# NVLink multicast stays off on shared multi-GPU hosts: set before torch (and NCCL) load, and
# inherited by every process started from here.
os.environ.update(
    {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
)

import argparse  # noqa: E402
import concurrent.futures  # noqa: E402
import csv  # noqa: E402
import datetime  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402
from torch.profiler import ProfilerActivity, profile, schedule  # noqa: E402

ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
STEPS_CSV = "apps_steps.csv"
META_JSON = "apps_meta.json"
SEED = 0


def log(msg):
    print(f"torch_apps: {msg}", flush=True)


def seed_all(seed=SEED):
    random.seed(seed)
    torch.manual_seed(seed)  # also seeds every CUDA device
    torch.cuda.manual_seed_all(seed)


def numel(model):
    return sum(p.numel() for p in model.parameters())


def nbytes(t):
    return t.numel() * t.element_size()


def host_batches(count, shape, pinned, gen, kind="float", high=10):
    """`count` CPU tensors (uniform floats, or int64 in [0, high)), pinned or pageable."""
    out = []
    for _ in range(count):
        if kind == "float":
            t = torch.rand(shape, generator=gen)
        else:
            t = torch.randint(0, high, shape, generator=gen, dtype=torch.int64)
        out.append(t.pin_memory() if pinned else t)
    return out


# ---------------------------------------------------------------------------------------------
# Models


class ConvNet(nn.Module):
    """Four conv/BatchNorm/ReLU/max-pool blocks (width, 2w, 4w, 8w channels) and a linear head."""

    def __init__(self, width, classes):
        super().__init__()
        chans = [3, width, 2 * width, 4 * width, 8 * width]
        layers = []
        for cin, cout in zip(chans[:-1], chans[1:]):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                       nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Linear(chans[-1], classes))

    def forward(self, x):
        return self.head(self.features(x))


def mlp(width, layers, kind):
    """Linear(width, width) blocks followed by ReLU, GELU or LayerNorm + GELU."""
    blocks = []
    for _ in range(layers):
        if kind == "relu":
            blocks += [nn.Linear(width, width), nn.ReLU()]
        elif kind == "gelu":
            blocks += [nn.Linear(width, width), nn.GELU()]
        else:  # "ln_gelu"
            blocks += [nn.Linear(width, width), nn.LayerNorm(width), nn.GELU()]
    return nn.Sequential(*blocks)


class Block(nn.Module):
    """Pre-norm decoder block: causal self-attention (scaled_dot_product_attention) and a 4x MLP."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab, seq, d, heads, layers):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)  # not tied: every parameter is its own tensor

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


# ---------------------------------------------------------------------------------------------
# Apps. Each builds its model and data in __init__, fills self.meta, and runs one training step
# in step(i) without synchronizing (except where the app itself must: blocking copies).


class App:
    name = ""

    def __init__(self, quick):
        self.quick = quick
        # The current device: cuda:0 here; each rank's own GPU in torch_ddp_apps.py.
        self.dev = torch.device("cuda", torch.cuda.current_device())
        self.meta = {}

    def step(self, i):
        raise NotImplementedError


class TrainCNN(App):
    """CNN training on host batches: pinned + non_blocking, or pageable + blocking."""

    pinned = True
    prefetch = False

    def __init__(self, quick):
        super().__init__(quick)
        width, batch, side, pool = (8, 16, 32, 2) if quick else (64, 256, 160, 4)
        classes = 100
        gen = torch.Generator().manual_seed(SEED)
        self.xs = host_batches(pool, (batch, 3, side, side), self.pinned, gen)
        self.ys = host_batches(pool, (batch,), self.pinned, gen, kind="int", high=classes)
        self.model = ConvNet(width, classes).to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.loss_fn = nn.CrossEntropyLoss()
        self.side = torch.cuda.Stream() if self.prefetch else None
        self.next = None
        self.meta.update({
            "model": f"ConvNet(width={width}, classes={classes})",
            "parameters": numel(self.model),
            "batch_shapes": [list(self.xs[0].shape), list(self.ys[0].shape)],
            "host_batches": pool,
            "host_memory": "pinned" if self.pinned else "pageable",
            "h2d_bytes_per_step": nbytes(self.xs[0]) + nbytes(self.ys[0]),
            "copy": ("non_blocking=True on a side stream, prefetched one step ahead"
                     if self.prefetch else
                     "non_blocking=True" if self.pinned else ".to(device), blocking"),
            "precision": "float32 (cuDNN convolutions may use TF32: torch defaults)",
            "optimizer": "SGD(lr=0.01, momentum=0.9)",
        })

    def fetch(self, i):
        k = i % len(self.xs)
        return (self.xs[k].to(self.dev, non_blocking=self.pinned),
                self.ys[k].to(self.dev, non_blocking=self.pinned))

    def prefetched(self, i):
        """The batch for step i, prefetched during step i - 1; issues the prefetch of i + 1."""
        if self.next is None:
            with torch.cuda.stream(self.side):
                self.next = self.fetch(i)
        cur = torch.cuda.current_stream()
        cur.wait_stream(self.side)
        x, y = self.next
        x.record_stream(cur)
        y.record_stream(cur)
        with torch.cuda.stream(self.side):
            self.next = self.fetch(i + 1)
        return x, y

    def step(self, i):
        x, y = self.prefetched(i) if self.prefetch else self.fetch(i)
        self.opt.zero_grad(set_to_none=True)
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.opt.step()


class TrainPinned(TrainCNN):
    name = "train_pinned"


class TrainPageable(TrainCNN):
    name = "train_pageable"
    pinned = False


class PrefetchOverlap(TrainCNN):
    name = "prefetch_overlap"
    prefetch = True


class MlpRegression(App):
    """MSE training on two GPU-resident (input, target) batches, alternating; read_loss: the loss
    read back with .item() every step (a logging loop's blocking D2H)."""

    read_loss = False

    def gpu_pairs(self, batch, width):
        return [(torch.randn(batch, width, device=self.dev),
                 torch.randn(batch, width, device=self.dev)) for _ in range(2)]

    # The apps built by build_mlp: their layers' activation and optimizer, as the meta names them.
    ACTIVATIONS = {"gelu": "GELU", "ln_gelu": "LayerNorm, GELU"}
    OPTIMIZERS = {"sgd": ("SGD(lr=1e-3, momentum=0.9)", lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.9)),
                  "adamw": ("AdamW(lr=1e-4)", lambda p: torch.optim.AdamW(p, lr=1e-4))}

    def build_mlp(self, quick, layers, kind, optimizer, data):
        """`layers` x (Linear(2048, 2048), `kind`) trained by `optimizer` ("sgd" or "adamw") on two
        GPU-resident batches of 4096 rows (2 layers 64 wide, 16 rows with --quick); `data` says in
        the meta what else a step does."""
        width, layers, batch = (64, 2, 16) if quick else (2048, layers, 4096)
        self.model = mlp(width, layers, kind).to(self.dev)
        optimizer_name, make = self.OPTIMIZERS[optimizer]
        self.opt = make(self.model.parameters())
        self.data = self.gpu_pairs(batch, width)
        self.loss = None
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), {self.ACTIVATIONS[kind]})",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width]] * 2,
            "data": data,
            "precision": "float32",
            "optimizer": optimizer_name,
        })

    def step(self, i):
        x, t = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.model(x), t)
        loss.backward()
        self.opt.step()
        if self.read_loss:
            self.loss = loss.item()


class Checkpoint(MlpRegression):
    """MLP training on GPU-resident batches with a checkpoint of the state dict to the CPU after
    every 2nd step: into fresh pageable tensors, or into pageable buffers allocated once."""

    fresh = True
    every = 2

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (256, 2, 64) if quick else (4096, 4, 2048)
        self.model = mlp(width, layers, "relu").to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3, momentum=0.9)
        self.data = self.gpu_pairs(batch, width)
        self.saved = None
        self.buffers = None
        if not self.fresh:  # allocated and touched once, reused by every checkpoint
            self.buffers = {k: torch.empty(v.shape, dtype=v.dtype).zero_()
                            for k, v in self.model.state_dict().items()}
        ckpt_bytes = sum(nbytes(v) for v in self.model.state_dict().values())
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), ReLU)",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D)",
            "checkpoint": ("{k: v.detach().cpu() for k, v in state_dict().items()} (fresh pageable)"
                           if self.fresh else "buf.copy_(v) into preallocated pageable buffers"),
            "checkpoint_every": f"after steps with step % {self.every} == 0",
            "checkpoint_bytes": ckpt_bytes,
            "checkpoint_tensors": len(self.model.state_dict()),
            "precision": "float32",
            "optimizer": "SGD(lr=1e-3, momentum=0.9)",
        })

    def checkpoint(self):
        if self.fresh:
            self.saved = {k: v.detach().cpu() for k, v in self.model.state_dict().items()}
        else:
            for k, v in self.model.state_dict().items():
                self.buffers[k].copy_(v)

    def step(self, i):
        super().step(i)
        if i % self.every == 0:
            self.checkpoint()


class CkptFresh(Checkpoint):
    name = "ckpt_fresh"


class CkptFreshMem(Checkpoint):
    name = "ckpt_fresh_mem"
    profile_memory = True


class CkptReuse(Checkpoint):
    name = "ckpt_reuse"
    fresh = False


class OffloadPinned(App):
    """Deep MLP whose forward runs under save_on_cpu(pin_memory=True)."""

    name = "offload_pinned"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (256, 3, 64) if quick else (2048, 12, 4096)
        self.model = mlp(width, layers, "gelu").to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3, momentum=0.9)
        self.data = [(torch.randn(batch, width, device=self.dev),
                      torch.randn(batch, width, device=self.dev)) for _ in range(2)]
        act = batch * width * 4
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), GELU)",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D)",
            "offload": "torch.autograd.graph.save_on_cpu(pin_memory=True) around forward + loss",
            "saved_bytes_per_step_estimate": layers * (2 * act + width * width * 4) + 2 * act,
            "precision": "float32",
            "optimizer": "SGD(lr=1e-3, momentum=0.9)",
        })

    def step(self, i):
        x, t = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            loss = F.mse_loss(self.model(x), t)
        loss.backward()
        self.opt.step()


class D2DBesideCompute(App):
    """MLP training on the current stream while a side stream copies large device buffers."""

    name = "d2d_beside_compute"
    # (width, layers, batch, copy_bytes, copies a step), full and --quick
    sizes = {False: (4096, 4, 2048, 1 << 30, 4), True: (256, 2, 64, 16 << 20, 4)}
    blocks = ("ln_gelu", "LayerNorm, GELU")  # mlp()'s kind, and as the meta says it

    def optimizer(self):
        """The optimizer and how the meta names it."""
        return torch.optim.SGD(self.model.parameters(), lr=1e-3, momentum=0.9), "SGD(lr=1e-3, momentum=0.9)"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch, copy_bytes, self.copies = self.sizes[bool(quick)]
        kind, kind_text = self.blocks
        self.model = mlp(width, layers, kind).to(self.dev)
        self.opt, opt_text = self.optimizer()
        self.data = [(torch.randn(batch, width, device=self.dev),
                      torch.randn(batch, width, device=self.dev)) for _ in range(2)]
        self.side = torch.cuda.Stream()
        self.src = torch.randn(copy_bytes // 4, device=self.dev)
        self.dst = torch.empty_like(self.src)
        half = self.copies // 2
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), {kind_text})",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D)",
            "side_stream_copies": f"{half} x dst.copy_(src), {half} x src.clone(), {copy_bytes} bytes each, "
                                  "issued at step start; current stream waits at step end",
            "d2d_bytes_per_step": self.copies * copy_bytes,
            "precision": "float32",
            "optimizer": opt_text,
        })

    def step(self, i):
        with torch.cuda.stream(self.side):
            for _ in range(self.copies // 2):
                self.dst.copy_(self.src)
                tmp = self.src.clone()
                del tmp
        x, t = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.model(x), t)
        loss.backward()
        self.opt.step()
        torch.cuda.current_stream().wait_stream(self.side)


class D2DManyBeside(D2DBesideCompute):
    """A wider MLP with GELU (no LayerNorm) and Adam while a side stream copies 256 MiB buffers 8 times a step."""

    name = "d2d_many_beside"
    sizes = {False: (2048, 6, 4096, 256 << 20, 8), True: (256, 2, 64, 4 << 20, 2)}
    blocks = ("gelu", "GELU")

    def optimizer(self):
        return torch.optim.Adam(self.model.parameters(), lr=1e-4), "Adam(lr=1e-4)"


class GptMixed(App):
    """Small GPT: pinned token batches, bf16 autocast, AdamW, clipping, checkpoint every 4th."""

    name = "gpt_mixed"
    every = 4

    def __init__(self, quick):
        super().__init__(quick)
        if quick:
            vocab, seq, d, heads, layers, batch, pool = 512, 64, 64, 4, 2, 4, 2
        else:
            vocab, seq, d, heads, layers, batch, pool = 16384, 512, 768, 12, 6, 16, 4
        gen = torch.Generator().manual_seed(SEED)
        self.tokens = host_batches(pool, (batch, seq + 1), True, gen, kind="int", high=vocab)
        self.vocab = vocab
        self.model = GPT(vocab, seq, d, heads, layers).to(self.dev)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-4, weight_decay=0.1)
        self.saved = None
        self.meta.update({
            "model": f"GPT(vocab={vocab}, seq={seq}, d={d}, heads={heads}, layers={layers})",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, seq + 1]],
            "host_batches": pool,
            "host_memory": "pinned",
            "h2d_bytes_per_step": nbytes(self.tokens[0]),
            "copy": "non_blocking=True",
            "precision": "bf16 autocast, float32 parameters",
            "optimizer": "AdamW(lr=3e-4, weight_decay=0.1), clip_grad_norm_(1.0)",
            "checkpoint": "{k: v.detach().cpu() for k, v in state_dict().items()} (fresh pageable)",
            "checkpoint_every": f"after steps with step % {self.every} == {self.every - 1}",
            "checkpoint_bytes": sum(nbytes(v) for v in self.model.state_dict().values()),
        })

    def step(self, i):
        tok = self.tokens[i % len(self.tokens)].to(self.dev, non_blocking=True)
        x, y = tok[:, :-1], tok[:, 1:]
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            logits = self.model(x)
            loss = F.cross_entropy(logits.reshape(-1, self.vocab), y.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        if i % self.every == self.every - 1:
            self.saved = {k: v.detach().cpu() for k, v in self.model.state_dict().items()}


class ResBlock(nn.Module):
    """Two conv3x3/BatchNorm stages with a residual add and ReLU."""

    def __init__(self, c):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.c2, self.b2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(y)))


class ImageClassifier(App):
    """A CNN in autocast (`self.autocast`), channels_last, trained on two GPU-resident batches
    (`image_batches`), with a GradScaler where `self.scaler` is one."""

    autocast = torch.bfloat16
    scaler = None

    def image_batches(self, batch, side, classes):
        return [(torch.randn(batch, 3, side, side, device=self.dev).to(memory_format=torch.channels_last),
                 torch.randint(0, classes, (batch,), device=self.dev)) for _ in range(2)]

    def step(self, i):
        x, y = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=self.autocast):
            loss = F.cross_entropy(self.model(x), y)
        if self.scaler is None:
            loss.backward()
            self.opt.step()
        else:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.opt)
            self.scaler.update()


class VisionBf16(ImageClassifier):
    """Residual CNN in bf16 autocast with channels_last, data on the GPU, Adam (foreach)."""

    name = "vision_bf16"

    def __init__(self, quick):
        super().__init__(quick)
        width, batch, side = (8, 8, 32) if quick else (96, 128, 128)
        classes = 100
        self.model = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
            ResBlock(width), nn.MaxPool2d(2), ResBlock(width), nn.MaxPool2d(2), ResBlock(width),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, classes)
        ).to(self.dev).to(memory_format=torch.channels_last)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.data = self.image_batches(batch, side, classes)
        self.meta.update({
            "model": f"ResNet-style: stem + 3 ResBlocks of {width} channels, max-pools, linear head",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, 3, side, side], [batch]],
            "data": "on the GPU (no per-step H2D)",
            "precision": "bf16 autocast, channels_last",
            "optimizer": "Adam(lr=1e-3)",
        })


class RecsysEmbed(App):
    """Embedding-bag lookups (random rows of a 128 MiB table) feeding an MLP, SGD."""

    name = "recsys_embed"

    def __init__(self, quick):
        super().__init__(quick)
        rows, dim, bags, per_bag, width = (4096, 16, 64, 4, 64) if quick else (262144, 128, 16384, 32, 1024)
        gen = torch.Generator(device=self.dev).manual_seed(SEED)
        self.emb = nn.EmbeddingBag(rows, dim, mode="sum").to(self.dev)
        self.mlp = nn.Sequential(nn.Linear(dim, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 1)).to(self.dev)
        params = list(self.emb.parameters()) + list(self.mlp.parameters())
        self.opt = torch.optim.SGD(params, lr=1e-2)
        self.batches = [(torch.randint(0, rows, (bags * per_bag,), device=self.dev, generator=gen),
                         torch.arange(0, bags * per_bag, per_bag, device=self.dev),
                         torch.rand(bags, 1, device=self.dev, generator=gen)) for _ in range(2)]
        self.meta.update({
            "model": f"EmbeddingBag({rows}, {dim}, sum) + MLP({dim}, {width}, {width}, 1)",
            "parameters": sum(p.numel() for p in params),
            "batch_shapes": [[bags * per_bag], [bags], [bags, 1]],
            "data": "on the GPU (no per-step H2D)",
            "precision": "float32",
            "optimizer": "SGD(lr=1e-2), dense embedding gradient",
        })

    def step(self, i):
        idx, offsets, target = self.batches[i % 2]
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.mlp(self.emb(idx, offsets)), target)
        loss.backward()
        self.opt.step()


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expand, 3x3 depthwise, 1x1 project, BatchNorm, ReLU6, residual."""

    def __init__(self, c, expand):
        super().__init__()
        h = c * expand
        self.body = nn.Sequential(
            nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.ReLU6(),
            nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h), nn.ReLU6(),
            nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.body(x)


class MobileFp16(ImageClassifier):
    """Depthwise-separable CNN (MobileNetV2 blocks) in fp16 autocast, channels_last, SGD."""

    name = "mobile_fp16"

    def __init__(self, quick):
        super().__init__(quick)
        width, batch, side = (8, 8, 32) if quick else (48, 128, 112)
        classes = 100
        self.model = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU6(),
            InvertedResidual(width, 6), InvertedResidual(width, 6), nn.Conv2d(width, 2 * width, 1, stride=2),
            InvertedResidual(2 * width, 6), InvertedResidual(2 * width, 6),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * width, classes)
        ).to(self.dev).to(memory_format=torch.channels_last)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-2, momentum=0.9)
        self.autocast = torch.float16
        self.scaler = torch.amp.GradScaler("cuda")
        self.data = self.image_batches(batch, side, classes)
        self.meta.update({
            "model": f"MobileNetV2-style: stem, 4 inverted residual blocks (expand 6, depthwise 3x3) of "
                     f"{width} and {2 * width} channels, linear head",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, 3, side, side], [batch]],
            "data": "on the GPU (no per-step H2D)",
            "precision": "fp16 autocast with GradScaler, channels_last",
            "optimizer": "SGD(lr=1e-2, momentum=0.9)",
        })


class EncoderBf16(App):
    """Transformer encoder (nn.TransformerEncoderLayer, pre-norm) on GPU-resident tokens, bf16 autocast, AdamW."""

    name = "encoder_bf16"

    def __init__(self, quick):
        super().__init__(quick)
        d, heads, layers, batch, seq = (64, 2, 1, 4, 32) if quick else (512, 8, 6, 16, 256)
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=4 * d, dropout=0.0, batch_first=True,
                                           norm_first=True)
        self.model = nn.Sequential(nn.TransformerEncoder(layer, layers, enable_nested_tensor=False),
                                   nn.Linear(d, d)).to(self.dev)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        self.data = [torch.randn(batch, seq, d, device=self.dev) for _ in range(2)]
        self.meta.update({
            "model": f"TransformerEncoder: {layers} pre-norm layers, d {d}, {heads} heads, feed-forward {4 * d}",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, seq, d]],
            "data": "on the GPU (no per-step H2D)",
            "precision": "bf16 autocast",
            "optimizer": "AdamW(lr=1e-4)",
        })

    def step(self, i):
        x = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = self.model(x).float().pow(2).mean()
        loss.backward()
        self.opt.step()


# Patterns none of the apps above has (2026-11-28, recorded on one H200 and scored once):
# kernels launched from CUDA graphs, branches on two streams joined by events, launch-bound
# steps of tiny kernels, inference results read back through pinned memory and an event, and
# Triton kernels of torch.compile.


class GraphedMlp(App):
    """MLP whose forward and backward are CUDA graphs (torch.cuda.make_graphed_callables); SGD
    eager; the loss read back with .item() every step (a logging loop's blocking D2H)."""

    name = "graphed_mlp"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 32) if quick else (2048, 6, 4096)
        model = mlp(width, layers, "gelu").to(self.dev)
        self.x = torch.randn(batch, width, device=self.dev)
        self.t = torch.randn(batch, width, device=self.dev)
        self.opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        self.model = torch.cuda.make_graphed_callables(model, (self.x,))
        self.loss = None
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), GELU), forward and backward "
                     "captured by torch.cuda.make_graphed_callables",
            "parameters": numel(model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D); loss.item() every step",
            "precision": "float32",
            "optimizer": "SGD(lr=1e-3, momentum=0.9), eager",
        })

    def step(self, i):
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.model(self.x), self.t)
        loss.backward()
        self.opt.step()
        self.loss = loss.item()


class TwoStreamBranches(App):
    """Two MLP towers, one on a side stream, joined by an event before a shared head; the
    backward follows each op's stream; bf16 autocast, AdamW."""

    name = "two_stream_branches"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 32) if quick else (2048, 4, 4096)
        self.a = mlp(width, layers, "ln_gelu").to(self.dev)
        self.b = mlp(width, layers, "gelu").to(self.dev)
        self.head = nn.Linear(2 * width, 1).to(self.dev)
        params = [*self.a.parameters(), *self.b.parameters(), *self.head.parameters()]
        self.opt = torch.optim.AdamW(params, lr=1e-4)
        self.side = torch.cuda.Stream()
        self.data = [torch.randn(batch, width, device=self.dev) for _ in range(2)]
        self.meta.update({
            "model": f"two towers of {layers} x Linear({width}, {width}) (LayerNorm+GELU; GELU), "
                     f"head Linear({2 * width}, 1)",
            "parameters": sum(p.numel() for p in params),
            "batch_shapes": [[batch, width]],
            "data": "on the GPU (no per-step H2D)",
            "streams": "tower b on a side stream (side.wait_stream(current) first); current stream "
                       "wait_event(side.record_event()) before the head",
            "precision": "bf16 autocast",
            "optimizer": "AdamW(lr=1e-4)",
        })

    def step(self, i):
        x = self.data[i % 2]
        cur = torch.cuda.current_stream()
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            self.side.wait_stream(cur)
            with torch.cuda.stream(self.side):
                hb = self.b(x)
            ha = self.a(x)
            cur.wait_event(self.side.record_event())
            hb.record_stream(cur)
            loss = self.head(torch.cat([ha, hb], dim=1)).float().pow(2).mean()
        loss.backward()
        self.opt.step()


class LaunchBound(MlpRegression):
    """A small MLP on a small batch with per-parameter Adam (foreach=False): hundreds of
    microsecond kernels a step, so the host's launches set the pace; loss.item() every step."""

    name = "launch_bound"
    read_loss = True

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (32, 2, 8) if quick else (256, 12, 64)
        self.model = mlp(width, layers, "ln_gelu").to(self.dev)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-4, foreach=False)
        self.data = self.gpu_pairs(batch, width)
        self.loss = None
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), LayerNorm, GELU)",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D); loss.item() every step",
            "precision": "float32",
            "optimizer": "Adam(lr=1e-4, foreach=False)",
        })


class InferPinnedOut(App):
    """Inference: a small GPT's forward in bf16 under inference_mode, the last 64 positions' logits
    copied into a pinned buffer (non_blocking) and waited for with an event, and the next tokens
    (argmax) read back with .tolist() (a small pageable D2H)."""

    name = "infer_pinned_out"

    def __init__(self, quick):
        super().__init__(quick)
        vocab, seq, d, heads, layers, batch = ((512, 32, 64, 2, 1, 2) if quick
                                               else (32768, 512, 768, 12, 6, 16))
        self.keep = min(64, seq)
        self.model = GPT(vocab, seq, d, heads, layers).to(self.dev).eval()
        gen = torch.Generator().manual_seed(SEED)
        self.tokens = [torch.randint(0, vocab, (batch, seq), generator=gen).to(self.dev) for _ in range(2)]
        self.out = torch.empty(batch, self.keep, vocab, dtype=torch.bfloat16).pin_memory()
        self.next_tokens = None
        self.meta.update({
            "model": f"GPT-style decoder, {layers} layers, d {d}, {heads} heads, vocabulary {vocab}",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, seq]],
            "data": "tokens on the GPU; logits of the last positions to a pinned buffer",
            "d2h_bytes_per_step": nbytes(self.out),
            "precision": "bf16 autocast, inference_mode",
            "optimizer": "none (inference)",
        })

    def step(self, i):
        with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
            logits = self.model(self.tokens[i % 2])
            tail = logits[:, -self.keep:, :].to(torch.bfloat16)
            self.out.copy_(tail, non_blocking=True)
            done = torch.cuda.Event()
            done.record()
            self.next_tokens = logits[:, -1, :].argmax(dim=-1).tolist()
            done.synchronize()


class CompiledMlp(MlpRegression):
    """torch.compile (default mode: Triton kernels) of an MLP with LayerNorm and GELU, trained
    with fused AdamW; compiled during the warm-up steps."""

    name = "compiled_mlp"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 32) if quick else (4096, 4, 4096)
        model = mlp(width, layers, "ln_gelu").to(self.dev)
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        self.model = torch.compile(model)
        self.data = self.gpu_pairs(batch, width)
        self.meta.update({
            "model": f"torch.compile(MLP {layers} x (Linear({width}, {width}), LayerNorm, GELU))",
            "parameters": numel(model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step H2D)",
            "precision": "float32",
            "optimizer": "AdamW(lr=1e-4, fused=True)",
        })


class LoaderWorkers(TrainCNN):
    """The train_pinned CNN fed by a torch DataLoader: 2 worker processes build each batch from a
    CPU dataset (a random crop and flip per sample), the loader's pin-memory thread pins it, and
    the step copies it with non_blocking=True. The main thread waits for the workers when they
    fall behind."""

    name = "loader_workers"

    def __init__(self, quick):
        super().__init__(quick)
        batch, side = (16, 32) if quick else (256, 160)
        samples = 4 * batch
        gen = torch.Generator().manual_seed(SEED)
        images = torch.rand(samples, 3, side + 8, side + 8, generator=gen)
        labels = torch.randint(0, 100, (samples,), generator=gen)
        self.loader = torch.utils.data.DataLoader(
            CroppedImages(images, labels, side), batch_size=batch, shuffle=False, num_workers=2,
            pin_memory=True, persistent_workers=True, prefetch_factor=2, drop_last=True,
            sampler=EndlessSampler(samples))
        self.batches = iter(self.loader)
        self.meta.update({
            "data": f"DataLoader(num_workers=2, pin_memory=True, prefetch_factor=2) over {samples} "
                    f"CPU samples of 3 x {side + 8} x {side + 8}, each randomly cropped to {side} and "
                    "flipped in the worker",
            "copy": "non_blocking=True from the loader's pinned batches",
        })

    def fetch(self, i):
        x, y = next(self.batches)
        return x.to(self.dev, non_blocking=True), y.to(self.dev, non_blocking=True)


class CroppedImages(torch.utils.data.Dataset):
    """CPU images randomly cropped to `side` and flipped, seeded by the sample's index."""

    def __init__(self, images, labels, side):
        self.images, self.labels, self.side = images, labels, side

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, k):
        gen = torch.Generator().manual_seed(SEED + k)
        margin = self.images.shape[-1] - self.side
        top, left = (int(v) for v in torch.randint(0, margin + 1, (2,), generator=gen))
        x = self.images[k, :, top:top + self.side, left:left + self.side]
        if torch.rand(1, generator=gen).item() < 0.5:
            x = x.flip(-1)
        return x.contiguous(), self.labels[k]


class EndlessSampler(torch.utils.data.Sampler):
    """0, 1, ..., n - 1 over and over: a loader iterator that never ends."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        k = 0
        while True:
            yield k % self.n
            k += 1


class KvDecode(App):
    """Greedy decoding with a growing KV cache: a small GPT generates `tokens` tokens a step for a
    batch of prompts, one forward of one position per token, the cache grown with torch.cat, and
    each token's end-of-sequence check read back with .item() (a small blocking D2H per token)."""

    name = "kv_decode"

    def __init__(self, quick):
        super().__init__(quick)
        vocab, d, heads, layers, batch, prompt, tokens = ((512, 64, 2, 1, 2, 8, 4) if quick
                                                          else (32768, 1024, 16, 8, 32, 128, 48))
        self.heads, self.tokens = heads, tokens
        self.model = GPT(vocab, prompt + tokens, d, heads, layers).to(self.dev).eval()
        gen = torch.Generator().manual_seed(SEED)
        self.prompts = [torch.randint(0, vocab, (batch, prompt), generator=gen).to(self.dev) for _ in range(2)]
        self.eos = vocab - 1
        self.generated = None
        self.meta.update({
            "model": f"GPT-style decoder, {layers} layers, d {d}, {heads} heads, vocabulary {vocab}",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, prompt]],
            "data": f"prompts on the GPU; {tokens} tokens generated a step, one position a forward, "
                    "KV cache grown by torch.cat; (next == eos).all().item() per token",
            "precision": "bf16 autocast, inference_mode",
            "optimizer": "none (inference)",
        })

    def attend(self, block, x, cache, start):
        """One block over the positions `x` holds (from `start`), extending `cache` [(k, v)]."""
        b, t, d = x.shape
        q, k, v = block.qkv(block.ln1(x)).split(d, dim=2)
        shape = (b, t, self.heads, d // self.heads)
        q, k, v = (z.view(shape).transpose(1, 2) for z in (q, k, v))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=start == 0)
        x = x + block.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + block.fc2(F.gelu(block.fc1(block.ln2(x)))), (k, v)

    def forward(self, idx, caches, start):
        m = self.model
        x = m.tok(idx) + m.pos(torch.arange(start, start + idx.shape[1], device=idx.device))
        new = []
        for block, cache in zip(m.blocks, caches):
            x, kv = self.attend(block, x, cache, start)
            new.append(kv)
        return m.head(m.ln_f(x[:, -1, :])), new

    def step(self, i):
        idx = self.prompts[i % 2]
        with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
            logits, caches = self.forward(idx, [None] * len(self.model.blocks), 0)
            pos = idx.shape[1]
            out = []
            for _ in range(self.tokens):
                nxt = logits.argmax(dim=-1, keepdim=True)
                out.append(nxt)
                if (nxt == self.eos).all().item():
                    break
                logits, caches = self.forward(nxt, caches, pos)
                pos += 1
            self.generated = torch.cat(out, dim=1)


class CpuAdamOffload(App):
    """ZeRO-offload style: the optimizer runs on the CPU. Each step's gradients go D2H into pinned
    buffers (non_blocking, one stream sync), Adam updates fp32 master weights on the CPU, and the
    weights go back H2D (non_blocking from pinned)."""

    name = "cpu_adam_offload"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (128, 2, 32) if quick else (2048, 6, 2048)
        self.model = mlp(width, layers, "gelu").to(self.dev)
        self.params = list(self.model.parameters())
        self.master = [p.detach().cpu().pin_memory().requires_grad_() for p in self.params]
        self.grads = [torch.empty_like(m).pin_memory() for m in self.master]
        for m, g in zip(self.master, self.grads):
            m.grad = g
        self.opt = torch.optim.Adam(self.master, lr=1e-4)
        self.data = [(torch.randn(batch, width, device=self.dev),
                      torch.randn(batch, width, device=self.dev)) for _ in range(2)]
        moved = sum(nbytes(m) for m in self.master)
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), GELU)",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width], [batch, width]],
            "data": "on the GPU (no per-step batch H2D)",
            "d2h_bytes_per_step": moved,
            "h2d_bytes_per_step": moved,
            "copy": "gradients D2H and weights H2D, non_blocking through pinned buffers",
            "precision": "float32",
            "optimizer": "Adam(lr=1e-4) on the CPU over pinned fp32 master weights",
        })

    def step(self, i):
        x, t = self.data[i % 2]
        for p in self.params:
            p.grad = None
        F.mse_loss(self.model(x), t).backward()
        for p, g in zip(self.params, self.grads):
            g.copy_(p.grad, non_blocking=True)
        torch.cuda.current_stream().synchronize()
        self.opt.step()
        for p, m in zip(self.params, self.master):
            p.data.copy_(m, non_blocking=True)


class SmallPageable(MlpRegression):
    """MLP training whose inputs arrive as many small pageable tensors: 64 feature blocks of
    128 KiB and 384 KiB copied H2D one by one (blocking .to(device)), concatenated on the GPU, and
    per-step metrics (loss and the gradient norm) read back with .tolist()."""

    name = "small_pageable"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 16) if quick else (2048, 4, 2048)
        self.model = mlp(width, layers, "relu").to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3, momentum=0.9)
        gen = torch.Generator().manual_seed(SEED)
        pieces = min(64, width // 4)
        # Column counts summing to `width`, alternately half and one and a half times the mean.
        mean = width // pieces
        cols = [mean // 2 if k % 2 == 0 else mean + mean // 2 for k in range(pieces)]
        cols[-1] += width - sum(cols)
        self.blocks = [[torch.rand(batch, c, generator=gen) for c in cols] for _ in range(2)]
        self.targets = [torch.randn(batch, width, device=self.dev) for _ in range(2)]
        self.metrics = None
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), ReLU)",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width]],
            "data": f"{pieces} pageable CPU blocks of {batch} rows x {min(cols)}-{max(cols)} columns, each .to(device) "
                    "(blocking), torch.cat on the GPU; [loss, grad norm] .tolist() every step",
            "h2d_bytes_per_step": sum(nbytes(b) for b in self.blocks[0]),
            "precision": "float32",
            "optimizer": "SGD(lr=1e-3, momentum=0.9)",
        })

    def step(self, i):
        x = torch.cat([b.to(self.dev) for b in self.blocks[i % 2]], dim=1)
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.model(x), self.targets[i % 2])
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.metrics = torch.stack([loss.detach(), norm]).tolist()


# ---------------------------------------------------------------------------------------------
# 2026-11-29 (second set): patterns and profiler settings no earlier recording has
# (tools/record/run_unseen_apps3.sh). Apps may set `profiler_options` (extra keyword arguments
# of torch.profiler.profile) and `profile_schedule = False` (no schedule: the whole 1 + K steps
# in one trace, without ProfilerStep markers).


class StackFlopsCnn(TrainCNN):
    """train_pinned profiled with Python stacks, FLOP counts and module names (with_stack,
    with_flops, with_modules): the trace carries python_function events around every op."""

    name = "stack_flops_cnn"
    profiler_options = {"with_stack": True, "with_flops": True, "with_modules": True}


class MoeRouter(App):
    """Mixture-of-experts layer: a router picks the top 2 of 8 expert MLPs per token; each expert
    gathers its tokens (nonzero: a blocking read of how many), runs, and scatters back with
    index_add_; the experts' loads are read back with .tolist() every step (load-balancing log).
    bf16 autocast, AdamW. Profiled with record_shapes=False (no tensor shapes in the trace)."""

    name = "moe_router"
    profiler_options = {"record_shapes": False}

    def __init__(self, quick):
        super().__init__(quick)
        d, hidden, experts, tokens = (64, 128, 4, 256) if quick else (1024, 2048, 8, 8192)
        self.experts = experts
        self.router = nn.Linear(d, experts).to(self.dev)
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d))
                                 for _ in range(experts)).to(self.dev)
        params = list(self.router.parameters()) + list(self.ffn.parameters())
        self.opt = torch.optim.AdamW(params, lr=1e-4)
        self.data = [(torch.randn(tokens, d, device=self.dev), torch.randn(tokens, d, device=self.dev))
                     for _ in range(2)]
        self.loads = None
        self.meta.update({
            "model": f"MoE: router Linear({d}, {experts}), top-2, {experts} x (Linear({d}, {hidden}), "
                     f"GELU, Linear({hidden}, {d}))",
            "parameters": sum(p.numel() for p in params),
            "batch_shapes": [[tokens, d]],
            "data": "GPU-resident; per expert a nonzero() (blocking), index_select, index_add_; "
                    "expert loads .tolist() every step",
            "precision": "bf16 autocast, float32 parameters",
            "optimizer": "AdamW(lr=1e-4)",
        })

    def step(self, i):
        x, t = self.data[i % 2]
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            gates = torch.softmax(self.router(x).float(), dim=-1)
            weight, choice = gates.topk(2, dim=-1)
            out = torch.zeros_like(x)
            for e in range(self.experts):
                rows, slot = (choice == e).nonzero(as_tuple=True)
                if rows.numel() == 0:
                    continue
                y = self.ffn[e](x.index_select(0, rows))
                out = out.index_add(0, rows, (y.float() * weight[rows, slot].unsqueeze(1)).to(out.dtype))
            loss = F.mse_loss(out.float(), t)
        loss.backward()
        self.opt.step()
        self.loads = torch.bincount(choice.flatten(), minlength=self.experts).tolist()


class AccumCheckpoint(App):
    """Gradient accumulation over 4 micro-batches from pageable CPU memory copied with
    non_blocking=True (which a pageable source makes a staged copy), activation checkpointing
    (torch.utils.checkpoint, use_reentrant=False), fp16 autocast with a GradScaler (its inf check
    reads back a flag each step). Profiled without a schedule: the whole 1 + K steps in one trace,
    no ProfilerStep markers."""

    name = "accum_checkpoint"
    profile_schedule = False
    micro = 4

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 16) if quick else (2048, 8, 1024)
        self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(width, width), nn.LayerNorm(width), nn.GELU())
                                    for _ in range(layers)).to(self.dev)
        self.opt = torch.optim.SGD(self.blocks.parameters(), lr=1e-3, momentum=0.9)
        self.scaler = torch.amp.GradScaler("cuda")
        gen = torch.Generator().manual_seed(SEED)
        self.batches = [[(torch.rand(batch, width, generator=gen), torch.rand(batch, width, generator=gen))
                         for _ in range(self.micro)] for _ in range(2)]
        self.meta.update({
            "model": f"{layers} x (Linear({width}, {width}), LayerNorm, GELU), each block checkpointed",
            "parameters": numel(self.blocks),
            "batch_shapes": [[batch, width]] * 2,
            "host_memory": "pageable",
            "copy": "non_blocking=True from pageable memory",
            "h2d_bytes_per_step": self.micro * 2 * batch * width * 4,
            "micro_batches": self.micro,
            "precision": "fp16 autocast, GradScaler",
            "optimizer": "SGD(lr=1e-3, momentum=0.9)",
        })

    def step(self, i):
        self.opt.zero_grad(set_to_none=True)
        for xh, th in self.batches[i % 2]:
            x = xh.to(self.dev, non_blocking=True)
            t = th.to(self.dev, non_blocking=True)
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                h = x
                for block in self.blocks:
                    h = torch.utils.checkpoint.checkpoint(block, h, use_reentrant=False)
                loss = F.mse_loss(h.float(), t) / self.micro
            self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()


class DynamicSeq(App):
    """Transformer encoder on sequences whose length changes every step (128, 256, 384, 512
    tokens), with the caching allocator's expandable segments; the token batch is built on the
    CPU each step, pinned with .pin_memory() (the caching host allocator) and copied
    non_blocking; the predictions (argmax per token) come back non_blocking into pinned memory,
    waited for with an event. bf16 autocast, AdamW."""

    name = "dynamic_seq"

    def __init__(self, quick):
        super().__init__(quick)
        try:
            torch.cuda.memory._set_allocator_settings("expandable_segments:True")
            self.allocator = "expandable_segments:True"
        except Exception as e:  # noqa: BLE001 (a release without the setting)
            self.allocator = f"default ({type(e).__name__}: {e})"
        vocab, d, heads, layers, batch = (256, 64, 4, 2, 4) if quick else (16384, 512, 8, 4, 32)
        self.vocab, self.batch = vocab, batch
        self.lengths = [32, 64] if quick else [128, 256, 384, 512]
        self.embed = nn.Embedding(vocab, d).to(self.dev)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False).to(self.dev)
        self.head = nn.Linear(d, vocab).to(self.dev)
        params = list(self.embed.parameters()) + list(self.encoder.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.AdamW(params, lr=3e-4)
        self.gen = torch.Generator().manual_seed(SEED)
        self.preds = torch.empty(batch, max(self.lengths), dtype=torch.int64).pin_memory()
        self.meta.update({
            "model": f"Embedding({vocab}, {d}) + TransformerEncoder({layers} pre-norm layers, d {d}, "
                     f"{heads} heads) + Linear({d}, {vocab})",
            "parameters": sum(p.numel() for p in params),
            "batch_shapes": [[batch, n + 1] for n in self.lengths],
            "allocator": self.allocator,
            "host_memory": "built each step, .pin_memory(), non_blocking H2D; predictions "
                           "non_blocking D2H into pinned memory, event.synchronize()",
            "precision": "bf16 autocast, float32 parameters",
            "optimizer": "AdamW(lr=3e-4)",
        })

    def step(self, i):
        n = self.lengths[i % len(self.lengths)]
        tok = torch.randint(0, self.vocab, (self.batch, n + 1), generator=self.gen).pin_memory()
        tok = tok.to(self.dev, non_blocking=True)
        x, y = tok[:, :-1], tok[:, 1:]
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            logits = self.head(self.encoder(self.embed(x)))
            loss = F.cross_entropy(logits.reshape(-1, self.vocab), y.reshape(-1))
        loss.backward()
        self.opt.step()
        out = self.preds[:, :n]
        out.copy_(logits.argmax(-1), non_blocking=True)
        done = torch.cuda.Event()
        done.record()
        done.synchronize()


# ---------------------------------------------------------------------------------------------
# 2026-11-29 (third set): profiler output users hold that no recording here has
# (tools/record/run_unseen_apps4.sh). Apps may set `profiler_activities` (the profiler's
# activities) and `profile_windows` = n (schedule(wait=1, warmup=1, active=2, repeat=n) with
# torch.profiler.tensorboard_trace_handler: n files in the folder app_<name>/).


class CudaOnlyCnn(TrainCNN):
    """train_pinned profiled with activities=[CUDA] alone: kernels, copies and CUDA runtime calls,
    no CPU operators and no ProfilerStep markers."""

    name = "cuda_only_cnn"
    profiler_activities = (ProfilerActivity.CUDA,)


class CpuOnlyCnn(TrainCNN):
    """train_pinned profiled with activities=[CPU] alone: CPU operators, no GPU activity."""

    name = "cpu_only_cnn"
    profiler_activities = (ProfilerActivity.CPU,)


class WindowsMlp(MlpRegression):
    """MLP training (loss read back every step) profiled in three windows of two steps by
    tensorboard_trace_handler: three trace files of one process, one after the other."""

    name = "windows_mlp"
    read_loss = True
    profile_windows = 3

    def __init__(self, quick):
        super().__init__(quick)
        self.build_mlp(quick, 4, "gelu", "sgd", "GPU-resident; loss.item() every step")


# ---------------------------------------------------------------------------------------------
# 2026-11-29 (fourth set): the same program with and without other processes loading the host's
# memory, for the projection of pageable copies onto a host whose copy rate differs
# (tools/record/run_pageable_hog.sh). Apps may set `cpu_hog_processes` = n: n processes copying
# 512 MiB buffers on the CPU run beside the whole app (both passes).


class AccumHog(AccumCheckpoint):
    """accum_checkpoint while six other processes copy 512 MiB host buffers in a loop: the same
    program on the same machine, its host's memory shared (pageable copies stage slower)."""

    name = "accum_hog"
    cpu_hog_processes = 6


# Each copier stops by itself after 180 s or once its parent (the app's process) is gone, so that a
# killed app leaves none behind.
HOG_CODE = ("import os, time, torch\n"
            "torch.set_num_threads(1)\n"
            "a = torch.ones(1 << 27)\n"
            "b = torch.empty_like(a)\n"
            "parent, end = os.getppid(), time.time() + 180\n"
            "while time.time() < end and os.getppid() == parent:\n"
            "    b.copy_(a)\n")


def start_hog(n):
    """n processes copying 512 MiB CPU tensors in a loop (stopped by stop_hog)."""
    return [subprocess.Popen([sys.executable, "-c", HOG_CODE], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for _ in range(n)]


def stop_hog(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


# ---------------------------------------------------------------------------------------------
# 2026-11-29 (fifth set): runtime patterns no recording here has (tools/record/run_unseen_apps5.sh).
# Apps may set `child_env` (variables set in the app's own process before torch loads).


class AsyncAllocMlp(MlpRegression):
    """MLP training whose tensors come from the stream-ordered allocator
    (PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync): cudaMallocAsync/cudaFreeAsync runtime calls
    on the stream; the batch size changes every step (1024, 2048, 3072 rows in turn) so blocks of
    new sizes are asked for; loss.item() every step."""

    name = "async_alloc_mlp"
    read_loss = True
    child_env = {"PYTORCH_CUDA_ALLOC_CONF": "backend:cudaMallocAsync"}

    def __init__(self, quick):
        super().__init__(quick)
        width, layers = (64, 2) if quick else (2048, 4)
        rows = (8, 16, 24) if quick else (1024, 2048, 3072)
        self.model = mlp(width, layers, "gelu").to(self.dev)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        self.data = [(torch.randn(r, width, device=self.dev), torch.randn(r, width, device=self.dev))
                     for r in rows]
        self.loss = None
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), GELU)",
            "parameters": numel(self.model),
            "batch_shapes": [[r, width] for r in rows],
            "data": "GPU-resident, one of three batch sizes in turn; loss.item() every step",
            "allocator": torch.cuda.get_allocator_backend(),
            "precision": "float32",
            "optimizer": "AdamW(lr=1e-4)",
        })

    def step(self, i):
        x, t = self.data[i % len(self.data)]
        self.opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(self.model(x), t)
        loss.backward()
        self.opt.step()
        self.loss = loss.item()


class EmptyCacheMlp(MlpRegression):
    """MLP training that returns the caching allocator's blocks after every step
    (torch.cuda.empty_cache(): cudaFree, which waits for the device) so that the next step's
    tensors come from cudaMalloc again."""

    name = "empty_cache_mlp"

    def __init__(self, quick):
        super().__init__(quick)
        self.build_mlp(quick, 4, "gelu", "sgd", "GPU-resident; torch.cuda.empty_cache() after every step")

    def step(self, i):
        super().step(i)
        torch.cuda.empty_cache()


class EventPollMlp(MlpRegression):
    """MLP training whose host does not block on the GPU: after each step it records an event
    and polls event.query() until it is done, 50 us of CPU work (a busy loop) between polls, as
    a progress loop does (cudaEventQuery calls, no synchronize)."""

    name = "event_poll_mlp"

    def __init__(self, quick):
        super().__init__(quick)
        self.build_mlp(quick, 6, "ln_gelu", "adamw",
                       "GPU-resident; event.query() polled with 50 us of CPU work between polls")
        self.polls = []

    def step(self, i):
        super().step(i)
        done = torch.cuda.Event()
        done.record()
        polls = 0
        while not done.query():
            polls += 1
            end = time.perf_counter_ns() + 50_000
            while time.perf_counter_ns() < end:
                pass
        self.polls.append(polls)
        self.meta["polls_per_step_last"] = self.polls[-8:]


class PriorityStreams(App):
    """A low-priority stream runs a large GEMM chain (a background job) while the default stream
    trains a small MLP; a high-priority stream copies each step's small batch in beforehand
    (pinned, non_blocking) and the training waits for it by an event; the background joins at
    the step's end."""

    name = "priority_streams"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch, big = (32, 2, 8, 64) if quick else (1024, 4, 512, 8192)
        self.model = mlp(width, layers, "gelu").to(self.dev)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-3)
        lo, hi = torch.cuda.Stream.priority_range()
        self.low = torch.cuda.Stream(priority=lo)
        self.high = torch.cuda.Stream(priority=hi)
        self.big = torch.randn(big, big, device=self.dev, dtype=torch.bfloat16)
        self.host = [torch.randn(batch, width).pin_memory() for _ in range(2)]
        self.target = torch.randn(batch, width, device=self.dev)
        self.meta.update({
            "model": f"MLP {layers} x (Linear({width}, {width}), GELU); background: 3 bf16 "
                     f"GEMMs {big} x {big} a step on a low-priority stream",
            "parameters": numel(self.model),
            "batch_shapes": [[batch, width]],
            "data": "pinned host batches copied non_blocking on a high-priority stream",
            "streams": f"priorities low={lo}, high={hi}; default stream for training",
            "precision": "float32 (training), bf16 (background)",
            "optimizer": "SGD(lr=1e-3)",
        })

    def step(self, i):
        cur = torch.cuda.current_stream()
        self.low.wait_stream(cur)
        with torch.cuda.stream(self.low):
            y = self.big
            for _ in range(3):
                y = y @ self.big
        with torch.cuda.stream(self.high):
            x = self.host[i % 2].to(self.dev, non_blocking=True)
        cur.wait_stream(self.high)
        x.record_stream(cur)
        for _ in range(4):
            self.opt.zero_grad(set_to_none=True)
            loss = F.mse_loss(self.model(x), self.target)
            loss.backward()
            self.opt.step()
        cur.wait_stream(self.low)
        y.record_stream(cur)


class ThreadsTwoModels(App):
    """Two Python threads, each training its own MLP on its own stream at once (the launches of
    two CPU threads interleave); the main thread joins both every step."""

    name = "threads_two_models"

    def __init__(self, quick):
        super().__init__(quick)
        width, layers, batch = (64, 2, 16) if quick else (2048, 4, 2048)
        self.models = [mlp(width, layers, k).to(self.dev) for k in ("gelu", "ln_gelu")]
        self.opts = [torch.optim.AdamW(m.parameters(), lr=1e-4) for m in self.models]
        self.streams = [torch.cuda.Stream() for _ in self.models]
        self.data = [self.pairs(batch, width) for _ in self.models]
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        self.meta.update({
            "model": f"two MLPs {layers} x Linear({width}, {width}) (GELU; LayerNorm+GELU)",
            "parameters": sum(numel(m) for m in self.models),
            "batch_shapes": [[batch, width]] * 2,
            "data": "GPU-resident; each model trained by its own thread on its own stream",
            "threads": "ThreadPoolExecutor(2), both joined each step; the default stream waits "
                       "for both streams",
            "precision": "float32",
            "optimizer": "AdamW(lr=1e-4) each",
        })

    def pairs(self, batch, width):
        return [(torch.randn(batch, width, device=self.dev),
                 torch.randn(batch, width, device=self.dev)) for _ in range(2)]

    def train(self, k, i):
        stream = self.streams[k]
        stream.wait_stream(self.cur)
        with torch.cuda.stream(stream):
            x, t = self.data[k][i % 2]
            self.opts[k].zero_grad(set_to_none=True)
            loss = F.mse_loss(self.models[k](x), t)
            loss.backward()
            self.opts[k].step()

    def step(self, i):
        self.cur = torch.cuda.current_stream()
        for f in [self.pool.submit(self.train, k, i) for k in range(2)]:
            f.result()
        for s in self.streams:
            self.cur.wait_stream(s)


# ---------------------------------------------------------------------------------------------
# 2026-11-29 (sixth set): the same program with one GPU kernel of two lengths, for a what-if test
# of the replay (tools/record/run_sleep_pairs.sh): each step starts with torch.cuda._sleep(cycles)
# on the current stream (a kernel that spins the GPU, nothing else), N cycles in the `_a` app and
# 3N in the `_b` app; replayed with its spin kernels at the `_b` app's recorded length, an `_a`
# trace should span what the `_b` one recorded. Three ways the host waits: polling an event
# (event_poll_mlp), a cudaFree after every step (empty_cache_mlp), a blocking read (loss.item()).


class SpinFirst:
    """Starts every step with torch.cuda._sleep(spin_cycles) on the current stream."""

    spin_cycles = 0

    def step(self, i):
        torch.cuda._sleep(self.spin_cycles // (1000 if self.quick else 1))
        super().step(i)


class ItemMlp(MlpRegression):
    """MLP training (4 x Linear(2048, 2048), GELU, AdamW, batch 4096) reading its loss back with
    .item() every step."""

    read_loss = True

    def __init__(self, quick):
        super().__init__(quick)
        self.build_mlp(quick, 4, "gelu", "adamw", "GPU-resident; loss.item() every step")


def spin_app(base, app_name, cycles):
    """`base` with every step started by a spin of `cycles` GPU cycles, named `app_name`."""
    def init(self, quick):
        base.__init__(self, quick)
        self.quick = quick
        self.meta["spin_cycles"] = cycles // (1000 if quick else 1)
    return type(app_name, (SpinFirst, base), {"name": app_name, "spin_cycles": cycles, "__init__": init})


SPIN_CYCLES = 4_000_000  # about 2 ms at the H200's 1.98 GHz
SPIN_APPS = [spin_app(base, f"spin_{kind}_{v}", SPIN_CYCLES * k)
             for base, kind in ((EventPollMlp, "poll"), (EmptyCacheMlp, "free"), (ItemMlp, "item"))
             for v, k in (("a", 1), ("b", 3))]

# Run order: a time limit cuts the last ones first.
APPS = {cls.name: cls for cls in (TrainPinned, TrainPageable, GptMixed, CkptFresh, CkptReuse,
                                  OffloadPinned, PrefetchOverlap, D2DBesideCompute, CkptFreshMem,
                                  VisionBf16, RecsysEmbed, D2DManyBeside, MobileFp16, EncoderBf16,
                                  GraphedMlp, TwoStreamBranches, LaunchBound, InferPinnedOut,
                                  CompiledMlp, LoaderWorkers, KvDecode, CpuAdamOffload,
                                  SmallPageable, StackFlopsCnn, MoeRouter, AccumCheckpoint,
                                  DynamicSeq, CudaOnlyCnn, CpuOnlyCnn, WindowsMlp, AccumHog,
                                  AsyncAllocMlp, EmptyCacheMlp, EventPollMlp, PriorityStreams,
                                  ThreadsTwoModels, *SPIN_APPS)}


# ---------------------------------------------------------------------------------------------
# Timing and tracing


def append_rows(out, rows):
    with open(os.path.join(out, STEPS_CSV), "a", newline="") as f:
        csv.writer(f).writerows(rows)


def median_ns(values):
    return int(statistics.median(values)) if values else None


def export_gz(prof, path_gz):
    """Exports the profiler's Chrome trace and gzips it to `path_gz`."""
    path_json = path_gz[: -len(".gz")]
    prof.export_chrome_trace(path_json)
    with open(path_json, "rb") as src, gzip.open(path_gz, "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    os.remove(path_json)


def run_unprofiled(app, args, out, info):
    """Warm-up, then the `loop` and `sync` variants; appends their rows."""
    sync = torch.cuda.synchronize
    t0 = time.perf_counter()
    for i in range(args.warmup):
        app.step(i)
    sync()
    info["warmup_s"] = round(time.perf_counter() - t0, 3)

    n = args.steps
    events = [torch.cuda.Event(enable_timing=True) for _ in range(n + 1)]
    sync()
    start = time.perf_counter_ns()
    events[0].record()
    for i in range(n):
        app.step(i)
        events[i + 1].record()
    sync()
    total = time.perf_counter_ns() - start
    loop = [round(events[i].elapsed_time(events[i + 1]) * 1e6) for i in range(n)]

    per_step = []
    for i in range(n):
        t = time.perf_counter_ns()
        app.step(i)
        sync()
        per_step.append(time.perf_counter_ns() - t)

    rows = [(app.name, "loop", i, v) for i, v in enumerate(loop)]
    rows.append((app.name, "loop_total", n, total))
    rows += [(app.name, "sync", i, v) for i, v in enumerate(per_step)]
    append_rows(out, rows)
    info.update({
        "loop_total_ns": total,
        "loop_mean_step_ns": total // n if n else None,
        "loop_median_step_ns": median_ns(loop),
        "sync_median_step_ns": median_ns(per_step),
    })
    log(f"{app.name}: loop {total / max(n, 1) / 1e6:.2f} ms/step (mean), "
        f"sync {info['sync_median_step_ns'] / 1e6:.2f} ms/step (median)")


def run_profiled(app, args, out, info):
    """1 + active steps under the profiler; exports app_<name>.json.gz; appends the rows."""
    k = args.active
    memory = getattr(app, "profile_memory", False)
    path = os.path.join(out, f"app_{app.name}.json.gz")
    exported = []

    def on_trace_ready(prof):
        t = time.perf_counter()
        export_gz(prof, path)
        exported.append(round(time.perf_counter() - t, 3))

    step_sync = args.profile_sync == "step"
    # A window that opens `wait` steps into a loop of `1 + k + extra` (torch_ddp_apps.py
    # --window-offset: each rank of a job its own, all running the same steps).
    wait = getattr(args, "profile_wait", 0)
    extra_steps = getattr(args, "profile_extra_steps", 0)
    torch.cuda.synchronize()
    per_step = []
    events = [torch.cuda.Event(enable_timing=True) for _ in range(k + 2 + extra_steps)]
    start = time.perf_counter_ns()
    extra = {}
    if args.sync_events:  # Kineto's "cuda_sync" events: each stream wait with what it waits on
        extra["experimental_config"] = torch._C._profiler._ExperimentalConfig(enable_cuda_sync_events=True)
    info["cuda_sync_events"] = bool(args.sync_events)
    options = {"record_shapes": True, "profile_memory": memory, "with_stack": False}
    options.update(getattr(app, "profiler_options", {}))
    scheduled = getattr(app, "profile_schedule", True)
    if scheduled:
        options.update(schedule=schedule(wait=wait, warmup=1, active=k, repeat=1),
                       on_trace_ready=on_trace_ready)
        info["profile_wait_steps"] = wait
    info["profiler_options"] = {key: v for key, v in options.items() if isinstance(v, bool)}
    info["profile_schedule"] = scheduled
    activities = list(getattr(app, "profiler_activities", ACTIVITIES))
    info["profiler_activities"] = [str(a) for a in activities]
    with profile(activities=activities, **options, **extra) as prof:
        if not step_sync:
            events[0].record()
        for i in range(1 + k + extra_steps):
            t = time.perf_counter_ns()
            app.step(i)
            if step_sync:
                torch.cuda.synchronize()
                per_step.append(time.perf_counter_ns() - t)
            else:
                events[i + 1].record()
                if i == k + extra_steps:  # the whole loop, before the last prof.step() stops and exports
                    torch.cuda.synchronize()
                    total = time.perf_counter_ns() - start
            if scheduled:
                prof.step()
    if not exported:  # no schedule, or it did not complete: export what the profiler holds
        if scheduled:
            log(f"{app.name}: on_trace_ready was not called; exporting after the profile")
        export_gz(prof, path)
    rows = []
    if step_sync:
        rows = [(app.name, "profiled", i, v) for i, v in enumerate(per_step)]
    else:
        per_step = [round(events[i].elapsed_time(events[i + 1]) * 1e6) for i in range(1 + k + extra_steps)]
        rows = [(app.name, "profiled", i, v) for i, v in enumerate(per_step)]
        rows.append((app.name, "profiled_total", 1 + k + extra_steps, total))
    append_rows(out, rows)
    size = os.path.getsize(path)
    try:  # which ProfilerStep#N markers the trace holds (N = 1..K in PyTorch 2.x)
        with gzip.open(path, "rt") as f:
            trace = json.load(f)
        events = trace.get("traceEvents", []) if isinstance(trace, dict) else trace
        info["trace_profiler_steps"] = sorted(
            {e.get("name") for e in events if str(e.get("name", "")).startswith("ProfilerStep#")},
            key=lambda n: int(n.split("#")[1]) if n.split("#")[1].isdigit() else -1)
        info["trace_events"] = len(events)
    except Exception as e:  # noqa: BLE001
        info["trace_profiler_steps"] = f"unreadable ({type(e).__name__}: {e})"
    info.update({
        "profiled_steps": 1 + k + extra_steps,
        "profiled_active_steps": k,
        "profiled_median_step_ns": median_ns(per_step[1:]),
        "profile_memory": memory,
        "trace": os.path.basename(path),
        "trace_bytes": size,
        "trace_export_s": exported[0] if exported else None,
    })
    log(f"{app.name}: profiled {info['profiled_median_step_ns'] / 1e6:.2f} ms/step (median of "
        f"active), trace {size / 1024:.0f} KiB")
    if size > 4 << 20:
        log(f"{app.name}: WARNING trace over 4 MiB; the archive may grow too large")


def run_profiled_windows(app, args, out, info):
    """app.profile_windows windows of 2 profiled steps (each after 1 step of wait and 1 of warm-up)
    written by tensorboard_trace_handler into app_<name>/ (gzip'd); every step synchronized and
    timed as `sync`, its rows `profiled` with the step's number in the run."""
    n = app.profile_windows
    folder = os.path.join(out, f"app_{app.name}")
    os.makedirs(folder, exist_ok=True)
    handler = torch.profiler.tensorboard_trace_handler(folder, worker_name=app.name, use_gzip=True)
    steps = n * 4
    per_step = []
    torch.cuda.synchronize()
    with profile(activities=ACTIVITIES, schedule=schedule(wait=1, warmup=1, active=2, repeat=n),
                 on_trace_ready=handler, record_shapes=True) as prof:
        for i in range(steps):
            t = time.perf_counter_ns()
            app.step(i)
            torch.cuda.synchronize()
            per_step.append(time.perf_counter_ns() - t)
            prof.step()
    append_rows(out, [(app.name, "profiled", i, v) for i, v in enumerate(per_step)])
    files = sorted(os.listdir(folder))
    info.update({
        "profiled_steps": steps,
        "profile_windows": n,
        "profiler": "schedule(wait=1, warmup=1, active=2, repeat=n), tensorboard_trace_handler(use_gzip=True)",
        "profiled_median_step_ns": median_ns(per_step),
        "trace": os.path.basename(folder) + "/",
        "trace_files": files,
        "trace_bytes": sum(os.path.getsize(os.path.join(folder, f)) for f in files),
    })
    log(f"{app.name}: {len(files)} window traces in {folder}")


def run_app(name, args):
    """Runs one app (both passes) in this process; returns its meta dict (status ok/failed)."""
    info = {"app": name, "status": "running", "pid": os.getpid()}
    t0 = time.perf_counter()
    hog = []
    try:
        seed_all()
        torch.cuda.init()
        torch.cuda.reset_peak_memory_stats()
        app = APPS[name](args.quick)
        info.update(app.meta)
        hog_n = getattr(app, "cpu_hog_processes", 0)
        if hog_n:
            hog = start_hog(hog_n)
            time.sleep(2)  # the copies running before the first step
            info["cpu_hog"] = f"{hog_n} processes copying 512 MiB CPU tensors in a loop (torch, 1 thread each)"
        info["build_s"] = round(time.perf_counter() - t0, 3)
        write_part(args.out, info)
        t = time.perf_counter()
        run_unprofiled(app, args, args.out, info)
        info["unprofiled_s"] = round(time.perf_counter() - t, 3)
        write_part(args.out, info)
        t = time.perf_counter()
        if getattr(app, "profile_windows", 0):
            run_profiled_windows(app, args, args.out, info)
        else:
            run_profiled(app, args, args.out, info)
        info["profiled_s"] = round(time.perf_counter() - t, 3)
        torch.cuda.synchronize()
        info["max_memory_allocated"] = torch.cuda.max_memory_allocated()
        info["status"] = "ok"
    except Exception:  # one failed app must not lose the others
        tb = traceback.format_exc()
        print(f"torch_apps: FAILED {name}:\n{tb}", file=sys.stderr, flush=True)
        info["status"] = "failed"
        info["error"] = tb
    finally:
        stop_hog(hog)
    info["wall_s"] = round(time.perf_counter() - t0, 3)
    write_part(args.out, info)
    return info


# ---------------------------------------------------------------------------------------------
# Metadata


def part_path(out, name):
    return os.path.join(out, f".apps_meta_{name}.part.json")


def write_part(out, info):
    tmp = part_path(out, info["app"]) + ".tmp"
    with open(tmp, "w") as f:
        json.dump(info, f, indent=1, default=str)
    os.replace(tmp, part_path(out, info["app"]))


def nccl_version():
    try:
        v = torch.cuda.nccl.version()  # a (major, minor, patch) tuple; an int in old releases
        return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
    except Exception as e:  # noqa: BLE001
        return f"unavailable ({type(e).__name__}: {e})"


def precision_settings():
    """The float32 matmul/convolution precision settings in force (torch defaults here)."""
    s = {"float32_matmul_precision": torch.get_float32_matmul_precision(),
         "cudnn_benchmark": torch.backends.cudnn.benchmark,
         "cudnn_deterministic": torch.backends.cudnn.deterministic}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, get in (("cuda_matmul_allow_tf32", lambda: torch.backends.cuda.matmul.allow_tf32),
                         ("cudnn_allow_tf32", lambda: torch.backends.cudnn.allow_tf32),
                         ("cuda_matmul_fp32_precision",
                          lambda: torch.backends.cuda.matmul.fp32_precision),
                         ("cudnn_conv_fp32_precision",
                          lambda: torch.backends.cudnn.conv.fp32_precision)):
            try:
                s[key] = get()
            except Exception:  # noqa: BLE001 (a setting this release does not have)
                pass
    return s


def versions():
    cudnn = None
    try:
        cudnn = torch.backends.cudnn.version()
    except Exception:  # noqa: BLE001
        pass
    return {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": cudnn,
            "nccl": nccl_version(), "python": sys.version.split()[0],
            "platform": platform.platform()}


def device_meta():
    """Device properties of cuda:0 (initializes CUDA: children only)."""
    p = torch.cuda.get_device_properties(0)
    return {"name": p.name, "total_memory": p.total_memory,
            "multi_processor_count": p.multi_processor_count,
            "capability": f"{p.major}.{p.minor}", "device_count": torch.cuda.device_count()}


def write_meta(args, apps_info, device, started):
    meta = {
        "script": "tools/record/torch_apps.py",
        "argv": sys.argv,
        "started_utc": started,
        "written_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "versions": versions(),
        "device": device,
        "precision_settings": precision_settings(),
        "env": {k: v for k, v in sorted(os.environ.items())
                if k.startswith(("NCCL_", "TORCH_", "NVSHMEM_", "CUDA_", "PYTORCH_"))},
        "settings": {
            "quick": args.quick, "warmup_steps": args.warmup, "steps": args.steps,
            "profiled_steps": 1 + args.active, "profiled_active_steps": args.active,
            "profile_sync": args.profile_sync, "isolation": "in-process" if args.in_process
            else "one process per app", "seed": SEED,
            "profiler": "profile(activities=[CPU, CUDA], schedule=schedule(wait=0, warmup=1, "
                        "active=K, repeat=1), record_shapes=True, with_stack=False, "
                        "profile_memory=(ckpt_fresh_mem only))",
        },
        "apps": apps_info,
    }
    tmp = os.path.join(args.out, META_JSON + ".tmp")
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1, default=str)
    os.replace(tmp, os.path.join(args.out, META_JSON))


# ---------------------------------------------------------------------------------------------
# Driver


def child_args(args, name):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--out", args.out,
           "--steps", str(args.steps), "--warmup", str(args.warmup), "--active", str(args.active),
           "--profile-sync", args.profile_sync] + (["--sync-events"] if args.sync_events else [])
    if args.quick:
        cmd.append("--quick")
    return cmd


def run_isolated(name, args, limit_s):
    """Runs one app in a child process limited to `limit_s`; returns its meta dict."""
    try:
        os.remove(part_path(args.out, name))
    except FileNotFoundError:
        pass
    status, rc = None, None
    try:
        env = dict(os.environ, **getattr(APPS[name], "child_env", {}))
        rc = subprocess.run(child_args(args, name), timeout=limit_s, env=env).returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
        log(f"{name}: TIMEOUT after {limit_s:.0f} s (child killed)")
    except Exception:  # noqa: BLE001
        status = "failed"
        traceback.print_exc()
    info = {"app": name}
    try:
        with open(part_path(args.out, name)) as f:
            info = json.load(f)
        os.remove(part_path(args.out, name))
    except (OSError, ValueError) as e:
        info["error"] = f"no metadata from the child ({type(e).__name__}: {e})"
    if status is not None:
        info["status"] = status
    elif rc != 0 and info.get("status") == "ok":
        info["status"] = f"failed (rc={rc})"
    elif info.get("status") in (None, "running"):
        info["status"] = f"failed (rc={rc})"
    info["child_returncode"] = rc
    return info


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--apps", default=",".join(APPS), help="comma-separated, from: " +
                    ",".join(APPS))
    ap.add_argument("--quick", action="store_true", help="tiny models and few steps (dry run)")
    ap.add_argument("--steps", type=int, default=None, help="timed steps per unprofiled variant "
                    "(default 30; 3 with --quick)")
    ap.add_argument("--warmup", type=int, default=None, help="warm-up steps (default 5; 1 quick)")
    ap.add_argument("--active", type=int, default=None,
                    help="profiled (active) steps after the profiler's warm-up step (default 8; "
                         "2 quick)")
    ap.add_argument("--profile-sync", choices=("step", "none"), default="step",
                    help="synchronize after every profiled step (default) or not")
    ap.add_argument("--sync-events", action="store_true",
                    help="profile with enable_cuda_sync_events (Kineto's cuda_sync events: every "
                         "stream wait with the stream and event record it waits on)")
    ap.add_argument("--budget-s", type=float, default=None,
                    help="stop starting apps when less than 20 s of this is left")
    ap.add_argument("--per-app-s", type=float, default=150.0, help="time limit of one app")
    ap.add_argument("--in-process", action="store_true", help="run every app in this process")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.steps is None:
        args.steps = 3 if args.quick else 30
    if args.warmup is None:
        args.warmup = 1 if args.quick else 5
    if args.active is None:
        args.active = 2 if args.quick else 8
    if args.steps < 1 or args.warmup < 0 or args.active < 1:
        ap.error("--steps and --active must be at least 1, --warmup at least 0")
    args.out = os.path.abspath(args.out)
    return ap, args


def main():
    ap, args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.child:  # one app in this (child) process
        if not torch.cuda.is_available():
            print("torch_apps: no CUDA device", file=sys.stderr)
            sys.exit(1)
        info = run_app(args.child, args)
        try:
            info["device"] = device_meta()
        except Exception as e:  # noqa: BLE001 (a broken CUDA context after a failure)
            info["device"] = f"unavailable ({type(e).__name__}: {e})"
        write_part(args.out, info)
        sys.exit(0 if info["status"] == "ok" else 1)

    names = chosen_apps(ap, args.apps, APPS)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t_start = time.monotonic()
    with open(os.path.join(args.out, STEPS_CSV), "w", newline="") as f:
        csv.writer(f).writerow(["app", "variant", "step", "step_ns"])
    log(f"apps {', '.join(names)}; torch {torch.__version__}, CUDA {torch.version.cuda}; "
        f"{'quick, ' if args.quick else ''}warm-up {args.warmup}, steps {args.steps}, "
        f"profiled 1 + {args.active}")

    apps_info, device = [], None
    for name in names:
        left = None if args.budget_s is None else args.budget_s - (time.monotonic() - t_start)
        if left is not None and left < 20:
            log(f"{name}: SKIPPED, {left:.0f} s of the budget left")
            apps_info.append({"app": name, "status": "skipped (no time)"})
            write_meta(args, apps_info, device, started)
            continue
        t = time.monotonic()
        log(f"{name}: start")
        if args.in_process:
            if not torch.cuda.is_available():
                sys.exit("torch_apps: no CUDA device")
            info = run_app(name, args)
            device = device or device_meta()
            try:
                os.remove(part_path(args.out, name))
            except FileNotFoundError:
                pass
            gc_cuda()
        else:
            limit = args.per_app_s if left is None else min(args.per_app_s, left - 5)
            info = run_isolated(name, args, limit)
            device = device or info.pop("device", None)
            info.pop("device", None)
        apps_info.append(info)
        log(f"{name}: {info.get('status')} in {time.monotonic() - t:.1f} s")
        write_meta(args, apps_info, device, started)

    bad = [i["app"] for i in apps_info if i.get("status") != "ok"]
    log(f"done in {time.monotonic() - t_start:.1f} s; "
        + (f"NOT ok: {', '.join(bad)}" if bad else "all ok"))
    sys.exit(1 if bad else 0)


def chosen_apps(ap, spec, apps):
    """The app names of a comma-separated --apps, each one of `apps` (else an argparse error)."""
    names = [n for n in spec.split(",") if n]
    unknown = [n for n in names if n not in apps]
    if unknown:
        ap.error(f"unknown app(s) {unknown}; known: {', '.join(apps)}")
    return names


def gc_cuda():
    import gc
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
