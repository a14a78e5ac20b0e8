#!/usr/bin/env bash
# run_all.sh OUTDIR: record linkcast's ground truth on this GPU machine in one command.
#
# Records machine information, builds the CUDA benchmarks, runs copybench, concurrency,
# torch_traces and (with 2+ GPUs) nccl_bench, each step under its own time limit and all of them
# under one overall budget (RECORD_BUDGET_S; default 385 s with 2+ GPUs, 265 s with one), so the
# whole run stays under 7 min on a 2-GPU machine and 5 min on a 1-GPU one. A failed or timed-out
# step is logged and the next one runs. At the end OUTDIR holds only:
#   record.tar.gz  everything (record/: CSVs, traces, logs/, machine/, summary.txt)
#   summary.txt    what ran, what failed, wall time per step, headline numbers
# See README.md beside this script for the formats.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_all.sh "$@"
BIN=$(mktemp -d "${TMPDIR:-/tmp}/linkcast_record.XXXXXX")
trap 'rm -rf "$BIN"' EXIT
export BIN
LOG_TAG=run_all

NGPU=$(gpu_count)
if [[ "$NGPU" -ge 2 ]]; then BUDGET=${RECORD_BUDGET_S:-385}; else BUDGET=${RECORD_BUDGET_S:-265}; fi
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"

# Builds both benchmarks in parallel; fails if either fails.
build() {
  "$NVCC" -O2 -arch=sm_90 -o "$BIN/copybench" "$HERE/copybench.cu" &
  local a=$!
  "$NVCC" -O2 -arch=sm_90 -o "$BIN/concurrency" "$HERE/concurrency.cu" &
  local b=$!
  local ra=0 rb=0
  wait "$a" || ra=$?
  wait "$b" || rb=$?
  local rh=0
  g++ -O2 -o "$BIN/hostcopy" "$HERE/hostcopy.cpp" || rh=$?
  echo "nvcc: copybench rc=$ra, concurrency rc=$rb; g++: hostcopy rc=$rh"
  ((ra == 0 && rb == 0))
}
export -f build

run_step machine 60 machine_info
if [[ "$NGPU" -eq 0 ]]; then
  skip_step build "no GPU"
else
  run_step build 120 build
  if [[ -x "$BIN/hostcopy" ]]; then
    # One thread on socket 0 with its local memory, as the driver's staging thread runs.
    if command -v numactl >/dev/null; then PIN=(numactl --cpunodebind=0 --membind=0); else PIN=(); fi
    run_step hostcopy 30 bash -c '"$@" > "$REC/hostcopy.csv"' hostcopy "${PIN[@]}" "$BIN/hostcopy" 1073741824 5
  else
    skip_step hostcopy "not built"
  fi
  if [[ -x "$BIN/copybench" ]]; then
    run_step copybench 150 "$BIN/copybench" --trace "$REC/copybench_trace.csv" \
      --summary "$REC/copybench_summary.csv" --reps-out "$REC/copybench_reps.csv"
  else
    skip_step copybench "not built"
  fi
  if [[ -x "$BIN/concurrency" ]]; then
    run_step concurrency 60 "$BIN/concurrency" --trace "$REC/concurrency_trace.csv" \
      --summary "$REC/concurrency_summary.csv"
  else
    skip_step concurrency "not built"
  fi
  # Ordered by value, so that a short budget loses the least useful steps.
  if [[ "$NGPU" -ge 2 ]]; then
    run_step nccl_default 75 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
      --dump-topology
  else
    skip_step nccl_default "1 GPU"
  fi
  run_step torch_copy_train 100 "$PY" "$HERE/torch_traces.py" --out "$REC" --parts copy,train
  if [[ "$NGPU" -ge 2 ]]; then
    run_step torch_ddp 60 "$PY" "$HERE/torch_traces.py" --out "$REC" --parts ddp
    for variant in ring tree p2p_disable; do
      run_step "nccl_$variant" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC"
    done
  else
    skip_step torch_ddp "1 GPU"
    for variant in ring tree p2p_disable; do skip_step "nccl_$variant" "1 GPU"; done
  fi
fi

finish_record "linkcast ground-truth recording" "$PY" "$HERE/headline.py" "$REC"
