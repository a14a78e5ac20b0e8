#!/usr/bin/env bash
# run_apps_twice.sh OUTDIR: a --quick dry run of the apps RECORD_APPS names (seconds; its log and
# output come back as OUTDIR/quick.log and quick.tar.gz), then run_apps.sh twice on this
# single-GPU machine, into OUTDIR/a and OUTDIR/b (each a record.tar.gz and summary.txt), with those
# apps (and, as run_apps.sh, RECORD_SYNC_EVENTS and RECORD_BUDGET_S, default 270 s a run). Run a
# is for looking into what the replay misses; run b is held out and scored once, last. The
# run_unseen_apps*.sh, run_sync_apps.sh and run_pageable_hog.sh scripts call it with their apps.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_apps_twice.sh OUTDIR}
: "${RECORD_APPS:?RECORD_APPS names the torch_apps.py apps to record}"
export RECORD_APPS
export RECORD_BUDGET_S=${RECORD_BUDGET_S:-270}
mkdir -p "$OUT"
python3 "$HERE/torch_apps.py" --out "$OUT/quick" --apps "$RECORD_APPS" --quick >"$OUT/quick.log" 2>&1
echo "quick dry run: rc=$?" >>"$OUT/quick.log"
tar -czf "$OUT/quick.tar.gz" -C "$OUT" quick quick.log && rm -rf "$OUT/quick"
rc=0
for run in a b; do
  bash "$HERE/run_apps.sh" "$OUT/$run" || rc=1
done
exit $rc
