#!/usr/bin/env bash
# run_nccl_tiny.sh OUTDIR: what a tiny NCCL call's time is made of, by GPU count. Replayed 20 back
# to back from CUDA graphs (no host in the loop), 8 B-32 KiB: ring Simple, LL and LL128 and tree
# (NCCL's protocol) on all GPUs, on the first three and on the first two (CUDA_VISIBLE_DEVICES).
# On 2 x H200 a ring/Simple all-gather of 8 B took 17.8 us and a broadcast 13.2, where on 4 x H200
# they took 23.3 and 14.2 (h200-2gpu-nccl-issue, h200-4gpu-nccl-small): a fixed cost per call, per
# ring step and per primitive a block runs in turn are three unknowns, which three GPU counts
# separate and two do not.
# About 5 minutes on 4 x H200.
# Leaves record/nccl_bench.csv (all GPUs), nccl_bench_3gpu.csv, nccl_bench_2gpu.csv, and logs/.
# Run from anywhere: bash tools/record/run_nccl_tiny.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_tiny.sh 560 \
  "ring Simple, LL, LL128 and tree, 8 B-32 KiB, graph, on all GPUs, three and two" "$@"; then
  COMMON=(--out "$REC" --sizes default --max-bytes 32K --launch graph)
  for gpus in all three two; do
    csv="$REC/nccl_bench.csv"
    visible=()
    case "$gpus" in
      three) [[ "$NGPU" -gt 3 ]] || continue; csv="$REC/nccl_bench_3gpu.csv"; visible=(env CUDA_VISIBLE_DEVICES=0,1,2) ;;
      two) [[ "$NGPU" -gt 2 ]] || continue; csv="$REC/nccl_bench_2gpu.csv"; visible=(env CUDA_VISIBLE_DEVICES=0,1) ;;
    esac
    for variant in ring_simple ring_ll ring_ll128 tree; do
      run_step "nccl_${variant}_${gpus}" 45 "${visible[@]}" "$PY" "$HERE/nccl_bench.py" --variant "$variant" \
        --csv "$csv" "${COMMON[@]}"
    done
  done
fi

finish_record "linkcast recording: tiny calls by GPU count (run_nccl_tiny.sh)" "$PY" "$HERE/headline.py" "$REC"
