#!/usr/bin/env bash
# run_nccl_alltoall.sh OUTDIR: NCCL's alltoall (its send/receive kernel over the p2p channels) from
# CUDA graphs, 1 MiB-1 GiB, on a 4-GPU machine: at NCCL's defaults, with NCCL_P2P_NVL_CHUNKSIZE a
# quarter and four times its 512 KiB, with NCCL_MAX_P2P_NCHANNELS 8 and 16 (of 32), and at NCCL's
# defaults on the first three and the first two GPUs (nccl_bench_3gpu.csv, nccl_bench_2gpu.csv).
# Why (issue 19): on 4 x H200 the alltoalls of 4-512 MiB ran 9-23% longer than simulated in three
# sessions (h200-4gpu-nccl-graph, -graph2, h200-4gpu-ceiling) while those of 1-4 GiB and those on
# 2 GPUs came within a few percent: how the call's time depends on the chunk, the channels and the
# number of peers says which part of NCCL's p2p schedule the simulator misses.
# Budget RECORD_BUDGET_S (default 300 s). Package with package.py.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
# The closing step, with or without GPUs (PY is set by start_record, inside begin_nccl_record).
finish() { finish_record "linkcast recording: NCCL alltoall by chunk, channels and peers (run_nccl_alltoall.sh)" "$PY" "$HERE/headline.py" "$REC"; }
begin_nccl_record run_nccl_alltoall.sh 300 "1 MiB .. 1 GiB alltoall, graph" "$@" || {
  finish
  exit 0
}

A2A=(--variant default --out "$REC" --sizes pow2 --min-bytes 1M --max-bytes 1G --launch graph --collectives alltoall)
if [[ "$NGPU" -lt 4 ]]; then
  skip_step alltoall "$NGPU GPU"
else
  run_step nccl_a2a_default 60 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}"
  run_step nccl_a2a_chunk128k 60 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" --env NCCL_P2P_NVL_CHUNKSIZE=131072
  run_step nccl_a2a_chunk2m 60 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" --env NCCL_P2P_NVL_CHUNKSIZE=2097152
  run_step nccl_a2a_p2pch8 60 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" --env NCCL_MAX_P2P_NCHANNELS=8
  run_step nccl_a2a_p2pch16 60 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" --env NCCL_MAX_P2P_NCHANNELS=16
  run_step nccl_a2a_3gpu 60 env CUDA_VISIBLE_DEVICES=0,1,2 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" \
    --csv "$REC/nccl_bench_3gpu.csv"
  run_step nccl_a2a_2gpu 60 env CUDA_VISIBLE_DEVICES=0,1 "$PY" "$HERE/nccl_bench.py" "${A2A[@]}" \
    --csv "$REC/nccl_bench_2gpu.csv"
fi

finish
