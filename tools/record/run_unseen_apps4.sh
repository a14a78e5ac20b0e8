#!/usr/bin/env bash
# run_unseen_apps4.sh OUTDIR: three apps profiled as users often profile and no earlier recording
# was (activities=[CUDA] alone; activities=[CPU] alone; three windows of tensorboard_trace_handler,
# three files of one process; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh: run
# a to look into, run b held out and scored once. First a --quick dry run of the three (seconds),
# whose log goes with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_unseen_apps4.sh OUTDIR}
APPS=cuda_only_cnn,cpu_only_cnn,windows_mlp
mkdir -p "$OUT"
python3 "$HERE/torch_apps.py" --out "$OUT/quick" --apps "$APPS" --quick >"$OUT/quick.log" 2>&1
echo "quick dry run: rc=$?" >>"$OUT/quick.log"
tar -czf "$OUT/quick.tar.gz" -C "$OUT" quick quick.log && rm -rf "$OUT/quick"
RECORD_APPS=$APPS exec bash "$HERE/run_apps_twice.sh" "$OUT"
