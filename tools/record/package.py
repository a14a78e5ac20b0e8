#!/usr/bin/env python3
"""package.py ARCHIVE DEST KIND [SKIP_GLOB...]: turn one run_all.sh archive (record.tar.gz) into the committed
ground-truth folder tests/data/real/<machine>/.

Keeps what the validation tests and the README read, gzip'd: the copybench and concurrency
traces (linkcast CSV) and summaries, the host memcpy rates, the NCCL benchmark table, NCCL's
topology and graph dumps and logs, the PyTorch profiler (Kineto) traces, and the machine
description. Drops copybench_reps.csv (the CPU-side timings duplicate the traces' GPU times).
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
              "torch_copy_sweep.csv", "torch_meta.json", "summary.txt"]
KEEP_GZIP = ["copybench_trace.csv", "concurrency_trace.csv", "nccl_topo.xml", "nccl_graph.xml"]
MACHINE = ["topo-m.txt", "gpus.csv", "versions.txt", "lscpu.txt", "nvidia-smi.txt", "nvlink-s.txt",
           "nvcc-version.txt", "date-u.txt", "numactl-H.txt", "topo-p2p-r.txt", "topo-p2p-w.txt",
           "meminfo.txt", "free-g.txt"]


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

        for name in KEEP_PLAIN:
            if name in members:
                open(os.path.join(dest, name), "wb").write(read(name))
        for name in KEEP_GZIP:
            if name in members:
                with gzip.open(os.path.join(dest, name + ".gz"), "wb", compresslevel=9) as out:
                    out.write(read(name))
        for name, member in members.items():
            if name.endswith(".json.gz"):
                open(os.path.join(dest, os.path.basename(name)), "wb").write(read(name))
            elif name.startswith("logs/") and (name.startswith("logs/nccl") or name.startswith("logs/torch")):
                with gzip.open(os.path.join(dest, name + ".gz"), "wb", compresslevel=9) as out:
                    out.write(read(name))
            elif name.startswith("machine/") and os.path.basename(name) in MACHINE:
                open(os.path.join(dest, name), "wb").write(read(name))
        versions = read("machine/versions.txt").decode()
        gpus = read("machine/gpus.csv").decode().strip().splitlines()
        date = read("machine/date-u.txt").decode().strip()
        nvcc = read("machine/nvcc-version.txt").decode()
    rows = [r.split(", ") for r in gpus[1:]]
    cpu_model = re.search(r"Model:\s+(\d+)", read_text(dest, "machine/lscpu.txt"))
    driver = rows[0][-1] if rows else "?"
    cuda = re.search(r"release ([0-9.]+)", nvcc)
    nccl = re.search(r"^nccl (.*)$", versions, re.M)
    torch = re.search(r"^torch (.*)$", versions, re.M)
    with open(os.path.join(dest, "README.md"), "w") as f:
        f.write(f"# Ground truth: {len(rows)} x {rows[0][1] if rows else '?'} ({kind})\n\n")
        f.write(f"- machine: device kind `{kind}` of this workplace: {len(rows)} GPU(s), "
                f"{rows[0][1] if rows else '?'}, PCIe Gen{rows[0][3] if rows else '?'} to the host; "
                "a Firecracker VM with one visible Intel Xeon socket (lscpu: family 6 model "
                f"{cpu_model.group(1) if cpu_model else '?'})\n")
        f.write(f"- driver {driver}, CUDA {cuda.group(1) if cuda else '?'}, "
                f"NCCL {nccl.group(1) if nccl else '?'}, PyTorch {torch.group(1) if torch else '?'}\n")
        f.write(f"- recorded {date}\n")
        f.write("- command: `bash tools/record/run_all.sh $OUT` (on the device machine), then "
                f"`python3 tools/record/package.py record.tar.gz {dest} {kind}"
                + "".join(f" '{g}'" for g in skip) + "` here\n\n")
        f.write("Files: see tools/record/README.md for the formats. `*_trace.csv.gz` are linkcast CSV "
                "traces (one row per timed operation, GPU time from CUDA events); `*.json.gz` are "
                "PyTorch profiler (Kineto) traces; `nccl_bench.csv` is the NCCL sweep; "
                "`hostcopy.csv` the single-thread host memcpy rate; `machine/` what nvidia-smi, "
                "lscpu and the versions said; `logs/` NCCL and PyTorch output.\n")


def read_text(dest, name):
    return open(os.path.join(dest, name)).read()


if __name__ == "__main__":
    main()
