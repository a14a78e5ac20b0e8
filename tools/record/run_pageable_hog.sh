#!/usr/bin/env bash
# run_pageable_hog.sh OUTDIR: accum_checkpoint (pageable non_blocking micro-batches whose calls stage
# the copies) recorded alone and while six other processes copy 512 MiB host buffers
# (accum_hog; tools/record/torch_apps.py), in one run_apps.sh run, twice (run a, run b held out):
# the same program on the same machine with its host's memory shared, for the projection of
# pageable copies onto a host whose staging rate differs. First a --quick dry run (seconds).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=accum_checkpoint,accum_hog exec bash "$HERE/run_apps_twice.sh" "$@"
