#!/usr/bin/env bash
# run_unseen_apps.sh OUTDIR: the five apps of patterns the earlier recordings lack (CUDA graphs,
# two streams joined by events, launch-bound steps, inference read back through pinned memory,
# torch.compile; tools/record/torch_apps.py), recorded twice on this single-GPU machine by
# run_apps.sh, into OUTDIR/a and OUTDIR/b (each a record.tar.gz and summary.txt). Run a is for
# looking into what the replay misses; run b is held out and scored once, last.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: run_unseen_apps.sh OUTDIR}
export RECORD_APPS=graphed_mlp,two_stream_branches,launch_bound,infer_pinned_out,compiled_mlp
export RECORD_BUDGET_S=${RECORD_BUDGET_S:-270}
rc=0
for run in a b; do
  bash "$HERE/run_apps.sh" "$OUT/$run" || rc=1
done
exit $rc
