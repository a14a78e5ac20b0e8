#!/usr/bin/env bash
# run_matrix.sh OUTDIR: matrix kernels across arithmetic intensity (matrix_roofline.py: skinny to
# square GEMMs in bf16 and FP32, 3x3 convolutions forward and backward, a streaming add; CUDA-event
# medians and a Kineto trace with shapes), then the PyTorch apps named in APPS (default
# mobile_fp16,encoder_bf16: held out of the matrix kernels' scaling) with torch_apps.py, on GPU 0
# of any machine, in one command (about 2 min). A `--quick` dry run of both goes first (a few
# seconds), so that a broken script fails before the real run. At the end OUTDIR holds
# record.tar.gz (record/: matrix_roofline.csv, matrix_roofline.json.gz, apps_steps.csv,
# app_<name>.json.gz, apps_meta.json, logs/, machine/, command.txt, summary.txt) and summary.txt;
# package it with package.py into tests/data/real/<machine>-matrix/.
# Run from anywhere: bash tools/record/run_matrix.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_matrix.sh "$@"
BUDGET=${RECORD_BUDGET_S:-300}
LOG_TAG=run_matrix
APPS=${APPS:-mobile_fp16,encoder_bf16}
write_command run_matrix.sh "apps:    $APPS"

quick_step() {
  local dry
  dry=$(mktemp -d) &&
    "$PY" "$HERE/matrix_roofline.py" --out "$dry" --quick &&
    "$PY" "$HERE/torch_apps.py" --out "$dry" --apps "$APPS" --quick
  local rc=$?
  rm -rf "$dry"
  return $rc
}
export -f quick_step
export APPS

run_step machine 60 machine_info
run_step quick 90 quick_step
run_step matrix_roofline 120 "$PY" "$HERE/matrix_roofline.py" --out "$REC"
run_step torch_apps 150 "$PY" "$HERE/torch_apps.py" --out "$REC" --apps "$APPS" --budget-s 140
finish_record "linkcast recording: matrix kernels by arithmetic intensity and held-out apps (run_matrix.sh)"
