#!/usr/bin/env bash
# run_sync_apps.sh OUTDIR: PyTorch apps whose streams wait on each other, profiled with Kineto's
# cuda_sync events (torch_apps.py --sync-events: every cudaStreamWaitEvent with the stream and the
# event record it waits on), recorded twice by run_apps_twice.sh (budget 240 s a run).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=${RECORD_APPS:-two_stream_branches,prefetch_overlap,d2d_beside_compute,graphed_mlp,offload_pinned} \
  RECORD_SYNC_EVENTS=1 RECORD_BUDGET_S=${RECORD_BUDGET_S:-240} exec bash "$HERE/run_apps_twice.sh" "$@"
