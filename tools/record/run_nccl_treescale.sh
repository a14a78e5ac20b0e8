#!/usr/bin/env bash
# run_nccl_treescale.sh OUTDIR: how a tree/LL allreduce's rate per channel falls with its channels,
# beside an LL broadcast's (a chain too, one primitive a rank). On 4 x H200 one tree/LL channel
# moved 3.8 GB/s of the buffer and each of NCCL's 24 moved 3.0 (tests/data/real/h200-4gpu-treechain,
# h200-4gpu-nccl-graph), where ring/LL channels keep 96% of one channel's rate at 24. Here, from
# CUDA graphs, 64-256 MiB (past the L2): tree/LL allreduce and ring/LL broadcast pinned to 1, 4, 8,
# 16 and 24 channels, on all GPUs and on the first two (CUDA_VISIBLE_DEVICES=0,1).
# About 5 minutes on 4 x H200.
# Leaves record/nccl_bench.csv (all GPUs) and record/nccl_bench_2gpu.csv, and logs/.
# Run from anywhere: bash tools/record/run_nccl_treescale.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_treescale.sh 560 \
  "tree/LL allreduce and ring/LL broadcast at 1, 4, 8, 16, 24 channels, 64-256 MiB, graph, all GPUs and two" "$@"; then
  COMMON=(--out "$REC" --sizes pow2 --min-bytes 64M --max-bytes 256M --launch graph)
  for gpus in all two; do
    csv="$REC/nccl_bench.csv"
    visible=()
    if [[ "$gpus" == two ]]; then
      [[ "$NGPU" -gt 2 ]] || continue
      csv="$REC/nccl_bench_2gpu.csv"
      visible=(env CUDA_VISIBLE_DEVICES=0,1)
    fi
    for ch in 1 4 8 16 24; do
      run_step "nccl_tree_ll_ch${ch}_${gpus}" 45 "${visible[@]}" "$PY" "$HERE/nccl_bench.py" --variant tree_ll --channels "$ch" \
        --collectives allreduce --csv "$csv" "${COMMON[@]}"
      run_step "nccl_bcast_ll_ch${ch}_${gpus}" 45 "${visible[@]}" "$PY" "$HERE/nccl_bench.py" --variant ring_ll --channels "$ch" \
        --collectives broadcast --csv "$csv" "${COMMON[@]}"
    done
  done
fi

finish_record "linkcast recording: tree/LL and LL broadcast by channel count (run_nccl_treescale.sh)" "$PY" "$HERE/headline.py" "$REC"
