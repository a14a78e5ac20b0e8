#!/usr/bin/env bash
# run_l2_copy.sh OUTDIR: what copies within one GPU and memsets take by size with their data in
# the L2 cache or not, on GPU 0 of any machine, in one short command (about 15 s): l2_copy.cu's
# modes (the same copy again and again; after the L2 was filled with other data's clean lines, or
# with its dirty lines; after a kernel wrote the source; memsets the same ways) at 1 B .. 1 GiB,
# 30 timed repetitions each
# (l2_copy.csv, l2_copy_summary.csv: formats in l2_copy.cu). At the end OUTDIR holds
# record.tar.gz (record/: the CSVs, logs/, machine/, command.txt, summary.txt) and summary.txt;
# package it with package.py into tests/data/real/<machine>-l2/.
# Run from anywhere: bash tools/record/run_l2_copy.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_l2_copy.sh "$@"
BUDGET=${RECORD_BUDGET_S:-150}
LOG_TAG=run_l2_copy
write_command run_l2_copy.sh

l2_copy_step() {
  "$NVCC" -O2 -arch=sm_90 -o "$REC/l2_copy" "$HERE/l2_copy.cu" &&
    "$REC/l2_copy" --reps 30 --out "$REC/l2_copy.csv" --summary "$REC/l2_copy_summary.csv"
  local rc=$?
  rm -f "$REC/l2_copy"
  return $rc
}
export -f l2_copy_step

run_step machine 60 machine_info
run_step l2_copy 60 l2_copy_step
finish_record "linkcast recording: copies within one GPU by L2 residence (run_l2_copy.sh)"
