#!/usr/bin/env bash
# run_sleep_pairs.sh OUTDIR: three apps whose hosts wait for the GPU in three ways (polling an
# event, a cudaFree after every step, a blocking loss.item()), each recorded with every step
# started by a GPU spin of 4e6 cycles (spin_*_a) and of 12e6 (spin_*_b) (tools/record/torch_apps.py),
# twice by run_apps_twice.sh: run a to look into, run b held out and scored once. The replay's
# what-if test: an _a trace replayed with its spin kernels at the _b recording's length should
# span what the _b trace recorded. First a --quick dry run (seconds), whose log goes with them.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=spin_poll_a,spin_poll_b,spin_free_a,spin_free_b,spin_item_a,spin_item_b \
  exec bash "$HERE/run_apps_twice.sh" "$@"
