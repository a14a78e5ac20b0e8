#!/usr/bin/env bash
# run_unseen_apps2.sh OUTDIR: four apps of patterns no earlier recording has (a DataLoader with
# worker processes and a pin-memory thread, greedy decoding with a KV cache and a blocking read
# per token, a CPU optimizer with gradients and weights through pinned memory, many small pageable
# copies; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh: run a to look into,
# run b held out and scored once. First a --quick dry run of the four (seconds), whose log goes
# with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_unseen_apps2.sh OUTDIR}
APPS=loader_workers,kv_decode,cpu_adam_offload,small_pageable
mkdir -p "$OUT"
python3 "$HERE/torch_apps.py" --out "$OUT/quick" --apps "$APPS" --quick >"$OUT/quick.log" 2>&1
echo "quick dry run: rc=$?" >>"$OUT/quick.log"
tar -czf "$OUT/quick.tar.gz" -C "$OUT" quick quick.log && rm -rf "$OUT/quick"
RECORD_APPS=$APPS exec bash "$HERE/run_apps_twice.sh" "$OUT"
