#!/usr/bin/env bash
# run_nccl_bcast_alt.sh OUTDIR: does a rank that waits for its peer pay the hop a fixed broadcast
# root does not? On 2 x H200 a ring/Simple all-gather or reduce-scatter of 8 B-2 KiB replayed from
# CUDA graphs takes 17-18 us a call and a broadcast 13 us (h200-2gpu-nccl-issue); on 4 x H200 23
# and 14 us. A broadcast's fixed root never waits for another rank; with its root each rank in turn
# (nccl_bench.py's broadcast_alt) every rank waits for the one before it, as in an all-gather. Ring
# Simple and LL, 8 B-32 KiB, broadcast, broadcast_alt, all-gather and reduce-scatter, CUDA graphs,
# into nccl_bcast_alt.csv (not nccl_bench.csv: the validator does not simulate broadcast_alt).
# About 2 minutes on 2 x H200.
# Run from anywhere: bash tools/record/run_nccl_bcast_alt.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_bcast_alt.sh 300 \
  "ring Simple and LL, 8 B-32 KiB, broadcast with a fixed root and with roots in turn, all-gather, reduce-scatter, graph" "$@"; then
  for variant in ring_simple ring_ll; do
    run_step "nccl_${variant}_bcast_alt" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC" \
      --csv "$REC/nccl_bcast_alt.csv" --sizes default --max-bytes 32K --launch graph \
      --collectives broadcast,broadcast_alt,allgather,reducescatter
  done
fi

finish_record "linkcast recording: broadcast roots in turn (run_nccl_bcast_alt.sh)" "$PY" "$HERE/headline.py" "$REC"
