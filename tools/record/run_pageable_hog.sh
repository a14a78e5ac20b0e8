#!/usr/bin/env bash
# run_pageable_hog.sh OUTDIR: accum_checkpoint (pageable non_blocking micro-batches whose calls stage
# the copies) recorded alone and while six other processes copy 512 MiB host buffers
# (accum_hog; tools/record/torch_apps.py), in one run_apps.sh run, twice (run a, run b held out):
# the same program on the same machine with its host's memory shared, for the projection of
# pageable copies onto a host whose staging rate differs. First a --quick dry run (seconds).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_pageable_hog.sh OUTDIR}
APPS=accum_checkpoint,accum_hog
mkdir -p "$OUT"
python3 "$HERE/torch_apps.py" --out "$OUT/quick" --apps "$APPS" --quick >"$OUT/quick.log" 2>&1
echo "quick dry run: rc=$?" >>"$OUT/quick.log"
tar -czf "$OUT/quick.tar.gz" -C "$OUT" quick quick.log && rm -rf "$OUT/quick"
RECORD_APPS=$APPS exec bash "$HERE/run_apps_twice.sh" "$OUT"
