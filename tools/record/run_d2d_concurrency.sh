#!/usr/bin/env bash
# run_d2d_concurrency.sh OUTDIR: what a device-to-device copy shares, on GPU 0 of any machine, in
# one short command (about 10 s of copies): concurrency.cu's D2D patterns (two and four D2D copies
# at once, a D2D copy beside an H2D and beside a D2H copy of the same GPU) and the H2D + D2H pair,
# each also alone, at 16 MiB, 64 MiB, 256 MiB and 1 GiB, 7 timed repetitions
# (concurrency_trace.csv, concurrency_summary.csv: formats in tools/record/README.md).
# At the end OUTDIR holds record.tar.gz (record/: the CSVs, logs/, machine/, command.txt,
# summary.txt) and summary.txt; package it with package.py into tests/data/real/<machine>-d2d/.
# Run from anywhere: bash tools/record/run_d2d_concurrency.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_d2d_concurrency.sh "$@"
BUDGET=${RECORD_BUDGET_S:-180}
LOG_TAG=run_d2d_concurrency
write_command run_d2d_concurrency.sh

d2d_concurrency_step() {
  "$NVCC" -O2 -arch=sm_90 -o "$REC/concurrency" "$HERE/concurrency.cu" &&
    "$REC/concurrency" --gpus 1 --reps 7 --sizes-mib 16,64,256,1024 \
      --patterns d2d_pair,d2d_quad,d2d_h2d_same_gpu,d2d_d2h_same_gpu,h2d_d2h_same_gpu \
      --trace "$REC/concurrency_trace.csv" --summary "$REC/concurrency_summary.csv"
  local rc=$?
  rm -f "$REC/concurrency"
  return $rc
}
export -f d2d_concurrency_step

run_step machine 60 machine_info
run_step d2d_concurrency 90 d2d_concurrency_step
finish_record "linkcast recording: D2D copies at the same time (run_d2d_concurrency.sh)"
