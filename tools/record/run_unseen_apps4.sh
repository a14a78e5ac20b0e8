#!/usr/bin/env bash
# run_unseen_apps4.sh OUTDIR: three apps profiled as users often profile and no earlier recording
# was (activities=[CUDA] alone; activities=[CPU] alone; three windows of tensorboard_trace_handler,
# three files of one process; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh: run
# a to look into, run b held out and scored once. First a --quick dry run of the three (seconds),
# whose log goes with the recordings.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=cuda_only_cnn,cpu_only_cnn,windows_mlp exec bash "$HERE/run_apps_twice.sh" "$@"
