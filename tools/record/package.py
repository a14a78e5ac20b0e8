#!/usr/bin/env python3
"""package.py ARCHIVE DEST KIND [SKIP_GLOB...]: turn one run_all.sh, run_apps.sh, run_nccl.sh,
run_pipeline.sh, run_d2d_concurrency.sh, run_l2_copy.sh, run_matrix.sh, run_nccl_channels.sh,
run_ddp_apps.sh, run_nccl_blocks.sh, run_nccl_buffsize.sh, run_nccl_issue.sh, run_nccl_burst.sh or run_graph_queue.sh archive (record.tar.gz) into a committed ground-truth
folder: tests/data/real/<machine>/ for run_all.sh, and (suggested) tests/data/real/<machine>-apps/,
-nccl/, -pipeline/, -d2d/, -l2/, -matrix/ and -channels/ for the others, so that
no file of one recording overwrites another's (each has its own summary.txt and README.md).

Keeps what the validation tests and the README read, gzip'd: the copybench and concurrency
traces (linkcast CSV) and summaries, the host memcpy rates, the NCCL benchmark table, NCCL's
topology and graph dumps and logs, the PyTorch profiler (Kineto) traces, and the machine
description; from run_apps.sh also the host rates, the interference and kernel-rate tables
(interference_reps.csv gzip'd), the PyTorch apps' step times, metadata and Kineto traces
(app_<name>.json.gz), and command.txt. Drops copybench_reps.csv (the CPU-side timings duplicate
the traces' GPU times).
Files matching a SKIP_GLOB (e.g. 'torch_train_*') are left out, to keep the committed data small
where another machine's folder already has the same recording. Writes DEST/README.md with the machine, driver, CUDA, NCCL versions, the date and the command.
"""
import gzip
import io
import json
import os
import re
import shutil
import sys
import fnmatch
import tarfile

KEEP_PLAIN = ["copybench_summary.csv", "concurrency_summary.csv", "hostcopy.csv", "nccl_bench.csv",
              # run_nccl_treescale.sh: the same calls on the first two GPUs
              "nccl_bench_2gpu.csv", "nccl_bench_3gpu.csv",
              "torch_copy_sweep.csv", "torch_meta.json", "summary.txt",
              # run_apps.sh
              "hostrates.csv", "hostrates_info.csv", "interference.csv", "interference_meta.txt",
              "kernel_rates.csv", "apps_steps.csv", "apps_meta.json", "command.txt",
              # run_nccl.sh
              "block_copy.csv",
              # run_nccl_ceiling.sh
              "block_copy_640.csv",
              # run_peer_ramp.sh
              "ramp.csv", "progress.csv", "nccl_iters1.csv", "nccl_iters10.csv",
              # run_pipeline.sh
              "block_share.csv", "nccl_pipeline.csv",
              # run_l2_copy.sh
              "l2_copy_summary.csv",
              # run_matrix.sh
              "matrix_roofline.csv", "matrix_roofline_meta.json",
              # run_ddp_apps.sh (and rank<r>/apps_steps.csv, app_<name>/rank<r>.json.gz)
              "ddp_apps_meta.json",
              # run_nccl_buffsize.sh
              "buffsize.csv",
              # run_nccl_issue.sh
              "ll128_iters.csv",
              # run_nccl_burst.sh
              "graph_iters.csv",
              # run_graph_queue.sh
              "graph_queue.csv",
              # run_nccl_bcast_alt.sh
              "nccl_bcast_alt.csv",
              # run_nccl_fifo.sh
              "fifo.csv"]
KEEP_GZIP = ["copybench_trace.csv", "concurrency_trace.csv", "nccl_topo.xml", "nccl_graph.xml",
             "interference_reps.csv", "l2_copy.csv",
             # run_nccl_issue.sh (and run_nccl_burst.sh)
             "clocks.csv",
             # run_nccl_burst.sh
             "burst.csv"]
MACHINE = ["topo-m.txt", "gpus.csv", "versions.txt", "lscpu.txt", "nvidia-smi.txt", "nvlink-s.txt",
           "nvcc-version.txt", "date-u.txt", "numactl-H.txt", "topo-p2p-r.txt", "topo-p2p-w.txt",
           "meminfo.txt", "free-g.txt", "thp.txt"]
LOG_PREFIXES = ("logs/nccl", "logs/block_copy", "logs/block_share", "logs/torch", "logs/interference", "logs/hostrates", "logs/build", "logs/l2_copy", "logs/matrix", "logs/quick", "logs/burst", "logs/graph_iters")
# What each kept file is, for the README (only the files that were written are listed).
DESCRIBE = {
    "hostrates.csv": "single-thread host memory rates (`measure,bytes,reps,median_gbps,min_gbps,"
                     "max_gbps`: dram_copy, warm_copy, first_touch into fresh mappings, "
                     "fault_only)",
    "hostrates_info.csv": "page size, last-level cache, transparent huge pages, headline rates",
    "interference.csv": "copies (D2D, H2D/D2H pinned and pageable, 64/256 MiB) alone and beside "
                        "compute- and memory-bound kernels: medians per case",
    "interference_reps.csv.gz": "every repetition of interference.csv",
    "interference_meta.txt": "device properties, kernel shapes and work of interference.cu",
    "kernel_rates.csv": "achieved HBM bandwidth and FP32 rate of the fill, copy and triad kernels "
                        "and of cudaMemcpy D2D",
    "apps_steps.csv": "PyTorch apps' step times (`app,variant,step,step_ns`: loop, loop_total, "
                      "sync, profiled)",
    "block_copy.csv": "per-block copy rates within a GPU and into its peer (tools/record/block_copy.cu: "
                      "`pattern,blocks,bytes_per_block,ns,per_block_gbps,total_gbps`)",
    "block_copy_640.csv": "block_copy.csv's peer patterns with 640 copying threads a block (NCCL_MAX_NTHREADS)",
    "ramp.csv": "two GPUs' blocks storing into each other, 1 and 10 kernels back to back (tools/record/peer_ramp.cu: "
                "`blocks,bytes_per_block,launches,ns_per_launch,total_gbps,block_ns_min,block_ns_median,"
                "block_ns_max,start_skew_ns`)",
    "progress.csv": "when each block of ramp.csv's single kernels had stored each sixteenth of its bytes "
                    "(`blocks,bytes_per_block,block,sixteenth,ns`, from the kernel's first block start)",
    "nccl_iters1.csv": "nccl_bench.csv's columns: ring calls replayed from CUDA graphs of one call",
    "nccl_iters10.csv": "the same from CUDA graphs of ten calls",
    "block_share.csv": "per-block start and end of blocks writing into a peer GPU at once "
                       "(tools/record/block_share.cu: `blocks,bytes_per_block,rep,block,sm,start_ns,end_ns`)",
    "nccl_pipeline.csv": "K back-to-back calls per CUDA graph, and a broadcast with one rank late, every "
                         "rank's time (tools/record/nccl_pipeline.py: `test,collective,nranks,bytes,calls,"
                         "delayed_rank,rank,replay,time_us,slept_us`)",
    "apps_meta.json": "versions, device, settings and per-app details of torch_apps.py",
    "matrix_roofline.csv": "GEMMs and convolutions across arithmetic intensity and a streaming add "
                           "(tools/record/matrix_roofline.py: `case,kind,dtype,flops,min_bytes,median_ns,reps`)",
    "matrix_roofline_meta.json": "versions, device and settings of matrix_roofline.py",
    "matrix_roofline.json.gz": "Kineto trace (with shapes) of matrix_roofline.py's traced calls",
    "app_*.json.gz": "Kineto traces of the apps' profiled steps (ProfilerStep#N markers)",
    "rank*": "run_ddp_apps.sh: each rank's `apps_steps.csv` (as torch_apps.py writes it for one GPU)",
    "app_*": "run_ddp_apps.sh: a folder per DDP app, each rank's Kineto trace (`rank<r>.json.gz`)",
    "buffsize.csv": "run_nccl_buffsize.sh: ring/Simple calls with NCCL_BUFFSIZE 1, 4 and 16 MiB "
                    "(`buffsize_bytes` and nccl_bench.csv's columns; tools/results/nccl_slices.py)",
    "graph_queue.csv": "run_graph_queue.sh: a ring/LL128 all-gather of 8 MiB and a ring/Simple allreduce of "
                       "8 B from CUDA graphs of 8-160 calls, with the host's time to launch each replay "
                       "(nccl_bench.csv's columns)",
    "nccl_bcast_alt.csv": "run_nccl_bcast_alt.sh: ring Simple and LL calls of 8 B-32 KiB from CUDA graphs: "
                          "broadcast with root 0 and with each rank the root in turn (`broadcast_alt`), "
                          "all-gather, reduce-scatter (nccl_bench.csv's columns)",
    "ll128_iters.csv": "run_nccl_issue.sh: ring/LL128 all-gathers of 8 MiB-1 GiB from CUDA graphs of 5, 20 "
                       "and 80 calls (nccl_bench.csv's columns)",
    "clocks.csv.gz": "run_nccl_issue.sh (every 100 ms) and run_nccl_burst.sh (every 20 ms, with the "
                     "clock event reasons): nvidia-smi through the recording (SM and memory clocks, power, "
                     "temperature, utilisation per GPU)",
    "burst.csv.gz": "run_nccl_burst.sh: each call of 3 bursts of 40 back-to-back calls after 300 ms idle, "
                    "timed on its own per rank (`variant,collective,nranks,bytes,burst,call,rank,us`)",
    "graph_iters.csv": "run_nccl_burst.sh: ring/Simple all-gathers and reduce-scatters of 64 MiB-1 GiB "
                       "from CUDA graphs of 1, 2, 5 and 20 calls (nccl_bench.csv's columns)",
    "fifo.csv": "run_nccl_fifo.sh: ring/LL128 and ring/Simple all-gathers and reduce-scatters at NCCL's "
                "channel count by connection-buffer size (`env,env_bytes` and nccl_bench.csv's columns)",
    "ddp_apps_meta.json": "versions, settings, and per DDP app and rank its model, step medians and status",
    "command.txt": "the recording command, commit and budget",
}


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: package.py record.tar.gz tests/data/real/<machine> <device kind> [SKIP_GLOB...]")
    archive, dest, kind = sys.argv[1:4]
    skip = sys.argv[4:]
    os.makedirs(os.path.join(dest, "machine"), exist_ok=True)
    os.makedirs(os.path.join(dest, "logs"), exist_ok=True)
    with tarfile.open(archive) as tar:
        members = {m.name.split("record/", 1)[-1]: m for m in tar.getmembers() if m.isfile()}
        members = {n: m for n, m in members.items() if not any(fnmatch.fnmatch(os.path.basename(n), g) for g in skip)}

        def read(name):
            return tar.extractfile(members[name]).read()

        def trace(name):
            # The profiler's traces, recompressed at gzip's best level without a time stamp: the
            # same JSON in about 9% fewer bytes (the device machines take at most 64 MiB of tree).
            return gzip.compress(gzip.decompress(read(name)), compresslevel=9, mtime=0)

        for name in KEEP_PLAIN:
            if name in members:
                open(os.path.join(dest, name), "wb").write(read(name))
        for name in KEEP_GZIP:
            if name in members:
                with gzip.open(os.path.join(dest, name + ".gz"), "wb", compresslevel=9) as out:
                    out.write(read(name))
        for name, member in members.items():
            # run_ddp_apps.sh: rank<r>/apps_steps.csv and app_<name>/rank<r>.json.gz
            sub = re.match(r"(rank\d+)/apps_steps\.csv$|(app_[^/]+)/rank\d+\.json\.gz$", name)
            if sub:
                os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
                open(os.path.join(dest, name), "wb").write(trace(name) if name.endswith(".gz") else read(name))
            elif name.endswith(".json.gz"):
                open(os.path.join(dest, os.path.basename(name)), "wb").write(trace(name))
            elif name.startswith(LOG_PREFIXES):
                with gzip.open(os.path.join(dest, name + ".gz"), "wb", compresslevel=9) as out:
                    out.write(read(name))
            elif name.startswith("machine/") and os.path.basename(name) in MACHINE:
                open(os.path.join(dest, name), "wb").write(read(name))

        def text(name):
            return read(name).decode(errors="replace") if name in members else ""

        versions = text("machine/versions.txt")
        gpus = text("machine/gpus.csv").strip().splitlines()
        date = text("machine/date-u.txt").strip() or "?"
        nvcc = text("machine/nvcc-version.txt")
        command = text("command.txt")
    invoked = re.search(r"^script:\s*(.+?)\s*$", command, re.M)
    invoked = invoked.group(1) if invoked else "run_all.sh"  # the script and its options
    script = invoked.split()[0]
    written = sorted(os.listdir(dest))
    rows = [r.split(", ") for r in gpus[1:]]
    lscpu = os.path.join(dest, "machine/lscpu.txt")
    cpu_model = re.search(r"Model:\s+(\d+)", open(lscpu).read() if os.path.exists(lscpu) else "")
    driver = rows[0][-1] if rows else "?"
    cuda = re.search(r"release ([0-9.]+)", nvcc)
    nccl = re.search(r"^nccl (.*)$", versions, re.M)
    torch = re.search(r"^torch (.*)$", versions, re.M)
    with open(os.path.join(dest, "README.md"), "w") as f:
        what = {"run_apps.sh": "copy interference, host rates and PyTorch apps",
                "run_nccl.sh": "NCCL sweep",
                "run_pipeline.sh": "NCCL channel and call overlap",
                "run_d2d_concurrency.sh": "D2D copies at the same time",
                "run_matrix.sh": "matrix kernels by arithmetic intensity, held-out apps",
                "run_nccl_channels.sh": "NCCL ring collectives by channel count",
                "run_ddp_apps.sh": "PyTorch DDP apps on every GPU, host rates, NCCL default sweep",
                "run_nccl_blocks.sh": "NCCL calls for the channel blocks' rates",
                "run_nccl_buffsize.sh": "NCCL ring/Simple loops by connection-buffer size"}.get(script)
        f.write(f"# Ground truth{' (' + what + ')' if what else ''}: {len(rows)} x "
                f"{rows[0][1] if rows else '?'} ({kind})\n\n")
        f.write(f"- machine: device kind `{kind}` of this workplace: {len(rows)} GPU(s), "
                f"{rows[0][1] if rows else '?'}, PCIe Gen{rows[0][3] if rows else '?'} to the host; "
                "a Firecracker VM with one visible Intel Xeon socket (lscpu: family 6 model "
                f"{cpu_model.group(1) if cpu_model else '?'})\n")
        f.write(f"- driver {driver}, CUDA {cuda.group(1) if cuda else '?'}, "
                f"NCCL {nccl.group(1) if nccl else '?'}, PyTorch {torch.group(1) if torch else '?'}\n")
        f.write(f"- recorded {date}\n")
        f.write(f"- command: `bash tools/record/{invoked} $OUT` (on the device machine), then "
                f"`python3 tools/record/package.py record.tar.gz {dest} {kind}"
                + "".join(f" '{g}'" for g in skip) + "` here\n\n")
        f.write("Files: see tools/record/README.md for the formats. `*_trace.csv.gz` are linkcast CSV "
                "traces (one row per timed operation, GPU time from CUDA events); `*.json.gz` are "
                "PyTorch profiler (Kineto) traces; `nccl_bench.csv` is the NCCL sweep; "
                "`hostcopy.csv` the single-thread host memcpy rate; `machine/` what nvidia-smi, "
                "lscpu and the versions said; `logs/` NCCL and PyTorch output.\n")
        extra = [(n, d) for n, d in DESCRIBE.items()
                 if any(fnmatch.fnmatch(w, n) for w in written)]
        if extra:
            f.write("\n| file | content |\n|---|---|\n")
            for n, d in extra:
                f.write(f"| `{n}` | {d} |\n")


if __name__ == "__main__":
    main()
