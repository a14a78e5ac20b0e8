#!/usr/bin/env bash
# run_unseen_apps5.sh OUTDIR: five apps with CUDA runtime patterns no earlier recording has (the
# stream-ordered allocator's cudaMallocAsync/cudaFreeAsync; empty_cache's cudaFree after every
# step; a host polling cudaEventQuery instead of synchronizing; stream priorities; two CPU threads
# launching on two streams; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh: run a
# to look into, run b held out and scored once. First a --quick dry run of the five (seconds),
# whose log goes with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=async_alloc_mlp,empty_cache_mlp,event_poll_mlp,priority_streams,threads_two_models \
  exec bash "$HERE/run_apps_twice.sh" "$@"
