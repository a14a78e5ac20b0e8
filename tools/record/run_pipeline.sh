#!/usr/bin/env bash
# run_pipeline.sh OUTDIR: how NCCL's channels and consecutive calls overlap, on a machine with 3+
# GPUs (linkcast's collective simulation, issue 19), in one command:
#   block_share.cu      how blocks writing into a peer GPU share its NVLink (block_share.csv)
#   nccl_pipeline.py    K back-to-back calls per CUDA graph, and a broadcast with one rank late
#                       (nccl_pipeline.csv, NCCL's log in logs/nccl_pipeline.log)
# At the end OUTDIR holds record.tar.gz (record/: the CSVs, logs/, machine/, command.txt,
# summary.txt) and summary.txt. Run from anywhere: bash tools/record/run_pipeline.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_pipeline.sh "$@"
BUDGET=${RECORD_BUDGET_S:-420}
LOG_TAG=run_pipeline
write_command run_pipeline.sh

block_share_step() {
  "$NVCC" -O3 -arch=sm_90 -o "$REC/block_share" "$HERE/block_share.cu" &&
    "$REC/block_share" --reps 5 >"$REC/block_share.csv"
  local rc=$?
  rm -f "$REC/block_share"
  return $rc
}
export -f block_share_step

run_step machine 60 machine_info
run_step block_share 90 block_share_step
run_step nccl_pipeline 240 "$PY" "$HERE/nccl_pipeline.py" --csv "$REC/nccl_pipeline.csv"
finish_record "linkcast recording: NCCL channel and call overlap (run_pipeline.sh)"
