#!/usr/bin/env bash
# run_unseen_apps3.sh OUTDIR: four apps of patterns and profiler settings no earlier recording
# has (Python stacks, FLOPs and module names in the trace; a mixture of experts with blocking
# nonzero() gathers, profiled without tensor shapes; gradient accumulation over pageable
# non_blocking micro-batches with activation checkpointing and a GradScaler, profiled without a
# schedule; sequence lengths changing every step with expandable segments; tools/record/
# torch_apps.py), recorded twice by run_apps_twice.sh: run a to look into, run b held out and
# scored once. First a --quick dry run of the four (seconds), whose log goes with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=stack_flops_cnn,moe_router,accum_checkpoint,dynamic_seq exec bash "$HERE/run_apps_twice.sh" "$@"
