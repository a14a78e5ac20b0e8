#!/usr/bin/env bash
# run_apps_twice.sh OUTDIR: run_apps.sh twice on this single-GPU machine, into OUTDIR/a and
# OUTDIR/b (each a record.tar.gz and summary.txt), with the apps RECORD_APPS names (and, as
# run_apps.sh, RECORD_SYNC_EVENTS and RECORD_BUDGET_S, default 270 s a run). Run a is for looking
# into what the replay misses; run b is held out and scored once, last. run_unseen_apps.sh and
# run_sync_apps.sh call it with their apps.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_apps_twice.sh OUTDIR}
: "${RECORD_APPS:?RECORD_APPS names the torch_apps.py apps to record}"
export RECORD_APPS
export RECORD_BUDGET_S=${RECORD_BUDGET_S:-270}
rc=0
for run in a b; do
  bash "$HERE/run_apps.sh" "$OUT/$run" || rc=1
done
exit $rc
