#!/usr/bin/env bash
# run_nccl_channels.sh OUTDIR: NCCL's ring collectives with the communicator pinned to 1, 2, 4, 8
# and 16 channels (nccl_bench.py --channels: NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS) and at
# NCCL's own count, for each protocol (Simple, LL128, LL), allreduce, all-gather and
# reduce-scatter of every power of two from 1 MiB to 256 MiB, and tree/Simple allreduce likewise,
# replayed from CUDA graphs (NCCL and the GPUs alone), on a 2- to 8-GPU machine in one command
# (about 5 min on 2 x H200; the first recordings of 2026-11-27 ran before the tree steps, on
# 2 x H200, and before the block_copy step, on both machines). What one
# channel costs by protocol and size: the per-step and per-chunk costs and the pipeline ramp that
# the simulator's block model prices. Variants are named ring_<proto>_ch<N> in nccl_bench.csv;
# logs/nccl_<variant>.log keeps NCCL's INFO output (INIT,GRAPH,TUNING,ENV). At the end OUTDIR
# holds record.tar.gz (record/: nccl_bench.csv, nccl_*_meta.json, logs/, machine/, command.txt,
# summary.txt) and summary.txt; package it with package.py into tests/data/real/<machine>-channels/.
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl_channels.sh "$OUT".
# With --large (RECORD_LARGE=1) it records instead ring Simple and LL128 at 4, 8 and 16 channels
# and NCCL's count from 64 MiB to 4 GiB (no tree, no block_copy; about 2 min on 2 x H200): how the
# channels share a GPU once the calls are long (tests/data/real/h200-2gpu-channels-large).

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
LARGE=${RECORD_LARGE:-0}
if [[ "${1:-}" == "--large" ]]; then
  LARGE=1
  shift
fi
start_record run_nccl_channels.sh "$@"
BUDGET=${RECORD_BUDGET_S:-560}
LOG_TAG=run_nccl_channels
if [[ "$LARGE" == 1 ]]; then
  write_command "run_nccl_channels.sh --large" "budget:  ${BUDGET} s" "sizes:   pow2 64 MiB .. 4 GiB, graph"
else
  write_command run_nccl_channels.sh "budget:  ${BUDGET} s" "sizes:   pow2 1 MiB .. 256 MiB, graph"
fi

NGPU=$(gpu_count)
# block_copy.cu with 1-132 blocks on GPUs 0 and 1: copies within a GPU out of a re-read 4 MiB
# buffer, writes into the peer from both GPUs at once, and a ring channel's step (a send into
# the peer's buffer, then a recv out of its own) on both GPUs at once (block_copy.csv).
run_step machine 60 machine_info
if [[ "$LARGE" == 1 ]]; then
  LARGE_SIZES=(--out "$REC" --sizes pow2 --min-bytes 64M --max-bytes 4G --launch graph
    --collectives allreduce,allgather,reducescatter)
  for proto in simple ll128; do
    if [[ "$NGPU" -lt 2 ]]; then
      skip_step "nccl_ring_${proto}" "$NGPU GPU"
      continue
    fi
    run_step "nccl_ring_${proto}" 120 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" "${LARGE_SIZES[@]}"
    for ch in 4 8 16; do
      run_step "nccl_ring_${proto}_ch${ch}" 120 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" \
        --channels "$ch" "${LARGE_SIZES[@]}"
    done
  done
  finish_record "linkcast recording: NCCL ring collectives by channel count, 64 MiB-4 GiB (run_nccl_channels.sh --large)"
  exit 0
fi
if [[ "$NGPU" -ge 2 ]]; then run_step block_copy 120 block_copy_runs block_copy.csv "--reps 5 --patterns fifo,peer_write_both,ring_step"; else skip_step block_copy "$NGPU GPU"; fi
COMMON=(--out "$REC" --sizes pow2 --max-bytes 256M --launch graph --collectives allreduce,allgather,reducescatter)
for proto in simple ll128 ll; do
  if [[ "$NGPU" -lt 2 ]]; then
    skip_step "nccl_ring_${proto}" "$NGPU GPU"
    continue
  fi
  run_step "nccl_ring_${proto}" 60 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" "${COMMON[@]}"
  for ch in 1 2 4 8 16; do
    run_step "nccl_ring_${proto}_ch${ch}" 60 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" \
      --channels "$ch" "${COMMON[@]}"
  done
done
# Tree allreduce with Simple (the chain inside a node), likewise.
if [[ "$NGPU" -ge 2 ]]; then
  TREE=(--out "$REC" --sizes pow2 --max-bytes 256M --launch graph --collectives allreduce)
  run_step nccl_tree_simple 60 "$PY" "$HERE/nccl_bench.py" --variant tree_simple "${TREE[@]}"
  for ch in 1 2 4 8 16; do
    run_step "nccl_tree_simple_ch${ch}" 60 "$PY" "$HERE/nccl_bench.py" --variant tree_simple --channels "$ch" "${TREE[@]}"
  done
fi
finish_record "linkcast recording: NCCL ring collectives by channel count (run_nccl_channels.sh)"
