#!/usr/bin/env bash
# run_d2d_concurrency.sh OUTDIR: what a device-to-device copy shares, on one GPU (any machine kind),
# in one short command (about 10 s): concurrency.cu's D2D patterns (two and four D2D copies of GPU
# 0 at once, a D2D copy beside an H2D and beside a D2H copy of the same GPU) and the H2D + D2H pair,
# each also alone, at 16 MiB, 64 MiB, 256 MiB and 1 GiB, 7 timed repetitions. OUTDIR then holds
# concurrency_trace.csv.gz, concurrency_summary.csv (formats: tools/record/README.md) and
# machine.txt (nvidia-smi, nvcc, the GPU's name, driver, memory and clocks, lscpu).
# This is the command line that recorded tests/data/real/h200-1gpu-d2d, kept as a script.
set -euo pipefail
OUT=${1:?usage: run_d2d_concurrency.sh OUTDIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
mkdir -p "$OUT"
nvidia-smi -L
"$NVCC" -O2 -arch=sm_90 -o "$BIN/concurrency" "$HERE/concurrency.cu"
"$BIN/concurrency" --gpus 1 --reps 7 --sizes-mib 16,64,256,1024 \
  --patterns d2d_pair,d2d_quad,d2d_h2d_same_gpu,d2d_d2h_same_gpu,h2d_d2h_same_gpu \
  --trace "$OUT/concurrency_trace.csv" --summary "$OUT/concurrency_summary.csv"
gzip -f "$OUT/concurrency_trace.csv"
{
  date -u
  nvidia-smi
  "$NVCC" --version
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv
  lscpu | head -20
} >"$OUT/machine.txt" 2>&1
