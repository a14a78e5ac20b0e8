#!/usr/bin/env bash
# run_apps.sh OUTDIR: record the ground truth for linkcast's anchored copy projection and its
# whole-application replay on this (single-GPU) machine, in one command.
#
# Steps, each under its own time limit and all within one budget (RECORD_BUDGET_S, default
# 480 s, of which 15 s are kept for the summary and the archive):
#   machine       machine information (as run_all.sh, plus huge-page settings)
#   build         nvcc interference.cu; g++ hostrates (hostprobe/host_rates.cpp)
#   hostrates     host memory rates: DRAM/warm memcpy, copies into fresh memory, page faults
#                 (pinned to NUMA node 0 with numactl when it exists)
#   interference  copies beside compute- and memory-bound kernels; kernel rates
#   torch_apps    PyTorch training apps, unprofiled step times and Kineto traces (all apps, or
#                 those RECORD_APPS names)
# A failed or timed-out step is logged and the next one runs. At the end OUTDIR holds only:
#   record.tar.gz  everything (record/: CSVs, traces, logs/, machine/, summary.txt, command.txt)
#   summary.txt    what ran, what failed, wall time per step, headline numbers, archive size
# Run from anywhere, e.g. from the repository root: bash tools/record/run_apps.sh "$OUT".
# See README.md beside this script for the formats.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_apps.sh "$@"
BIN=$(mktemp -d "${TMPDIR:-/tmp}/linkcast_apps.XXXXXX")
trap 'rm -rf "$BIN"' EXIT
export BIN
BUDGET=${RECORD_BUDGET_S:-480}
LOG_TAG=run_apps

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_apps.sh "budget:  ${BUDGET} s"

# nvcc and g++ in parallel; fails if either fails.
build() {
  "$NVCC" -O2 -arch=sm_90 -o "$BIN/interference" "$HERE/interference.cu" &
  local a=$!
  g++ -O2 -std=c++20 -I"$REPO" -o "$BIN/hostrates" "$HERE/hostrates_main.cpp" \
    "$REPO/hostprobe/host_rates.cpp" &
  local b=$!
  local ra=0 rb=0
  wait "$a" || ra=$?
  wait "$b" || rb=$?
  echo "nvcc: interference rc=$ra; g++: hostrates rc=$rb"
  ((ra == 0 && rb == 0))
}

# torch_apps gets what is left of the budget and stops starting apps 10 s before its limit.
# RECORD_APPS (comma-separated torch_apps.py names) picks the apps; default all. RECORD_SYNC_EVENTS=1
# profiles them with Kineto's cuda_sync events (torch_apps.py --sync-events).
torch_apps() {
  "$PY" "$HERE/torch_apps.py" --out "$REC" --budget-s "$1" ${RECORD_APPS:+--apps "$RECORD_APPS"} \
    ${RECORD_SYNC_EVENTS:+--sync-events}
}
export -f build torch_apps

run_step machine 60 machine_info
if [[ "$NGPU" -eq 0 ]]; then
  log "no GPU seen by nvidia-smi; the GPU steps will fail and be logged"
fi
run_step build 150 build
run_hostrates_step "$BIN/hostrates"
if [[ -x "$BIN/interference" ]]; then
  run_step interference 120 "$BIN/interference" --out "$REC"
else
  skip_step interference "not built"
fi
LEFT=$(time_left)
run_step torch_apps "$LEFT" torch_apps $((LEFT - 10))

finish_record "linkcast ground-truth recording (run_apps.sh)" "$PY" "$HERE/headline.py" "$REC"
