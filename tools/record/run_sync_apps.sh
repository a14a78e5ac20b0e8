#!/usr/bin/env bash
# run_sync_apps.sh OUTDIR: PyTorch apps whose streams wait on each other, profiled with Kineto's
# cuda_sync events (torch_apps.py --sync-events: every cudaStreamWaitEvent with the stream and the
# event record it waits on), recorded twice on this single-GPU machine by run_apps.sh into
# OUTDIR/a and OUTDIR/b (each a record.tar.gz and summary.txt). Run a is for building the reading
# of those events; run b is held out and scored once, last.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_sync_apps.sh OUTDIR}
export RECORD_APPS=${RECORD_APPS:-two_stream_branches,prefetch_overlap,d2d_beside_compute,graphed_mlp,offload_pinned}
export RECORD_SYNC_EVENTS=1
export RECORD_BUDGET_S=${RECORD_BUDGET_S:-240}
rc=0
for run in a b; do
  bash "$HERE/run_apps.sh" "$OUT/$run" || rc=1
done
exit $rc
