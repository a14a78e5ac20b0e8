#!/usr/bin/env bash
# run_sweeps_and_apps.sh OUTDIR: on one single-GPU machine, the PyTorch copy sweep and training
# loops (torch_traces.py --parts copy,train), then the apps (run_apps.sh), then the copy sweep
# again. Made to tell whether the pageable copies of the copy sweep and of the apps differ between
# two machine kinds in one pair of sessions, and whether the order in which they run matters
# (README "One host, two node files"). At the end OUTDIR holds:
#   sweeps.tar.gz   sweep_before/ (torch_copy_sweep, torch_train_*) and sweep_after/ (torch_copy_sweep)
#   record.tar.gz   run_apps.sh's archive (apps, hostrates, interference, machine/)
#   summary.txt     run_apps.sh's summary
#   timing.txt      wall time of each part
# Run from the repository root: bash tools/record/run_sweeps_and_apps.sh "$OUT".
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
PY=${PYTHON:-python3}
part() {  # part NAME CMD...: run, timed, into timing.txt; a failure is logged and the next part runs
  local name=$1 t0 rc
  shift
  t0=$(date +%s)
  "$@" >"$OUT/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc $(($(date +%s) - t0)) s" >>"$OUT/timing.txt"
}
part sweep_before "$PY" "$HERE/torch_traces.py" --out "$OUT/sweep_before" --parts copy,train
part apps env RECORD_BUDGET_S="${RECORD_BUDGET_S:-300}" bash "$HERE/run_apps.sh" "$OUT/apps"
part sweep_after "$PY" "$HERE/torch_traces.py" --out "$OUT/sweep_after" --parts copy
mv "$OUT/sweep_before.log" "$OUT/sweep_before/" 2>/dev/null
mv "$OUT/sweep_after.log" "$OUT/sweep_after/" 2>/dev/null
tar czf "$OUT/sweeps.tar.gz" -C "$OUT" sweep_before sweep_after
mv "$OUT/apps/record.tar.gz" "$OUT/apps/summary.txt" "$OUT/" 2>/dev/null
rm -rf "$OUT/sweep_before" "$OUT/sweep_after" "$OUT/apps"
cat "$OUT/timing.txt"
