#!/usr/bin/env bash
# run_unseen_apps2.sh OUTDIR: four apps of patterns no earlier recording has (a DataLoader with
# worker processes and a pin-memory thread, greedy decoding with a KV cache and a blocking read
# per token, a CPU optimizer with gradients and weights through pinned memory, many small pageable
# copies; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh: run a to look into,
# run b held out and scored once. First a --quick dry run of the four (seconds), whose log goes
# with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=loader_workers,kv_decode,cpu_adam_offload,small_pageable exec bash "$HERE/run_apps_twice.sh" "$@"
