#!/usr/bin/env bash
# run_unseen_apps.sh OUTDIR: the five apps of patterns the earlier recordings lack (CUDA graphs,
# two streams joined by events, launch-bound steps, inference read back through pinned memory,
# torch.compile; tools/record/torch_apps.py), recorded twice by run_apps_twice.sh.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RECORD_APPS=graphed_mlp,two_stream_branches,launch_bound,infer_pinned_out,compiled_mlp \
  exec bash "$HERE/run_apps_twice.sh" "$@"
