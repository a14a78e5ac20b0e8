#!/usr/bin/env bash
# run_pipeline_apps.sh OUTDIR: pp_mlp (tools/record/torch_ddp_apps.py), a two-stage GPipe pipeline
# whose only traffic is NCCL send/recv, on two GPUs, each rank timed without the profiler and traced
# with it (app_pp_mlp/rank<r>.json.gz): ground truth for the Kineto reader's sends and recvs named
# by their peer ("Dst Rank" / "Src Rank") and their replay across ranks. RECORD_APPS (comma-separated
# torch_ddp_apps.py names, default pp_mlp) records others beside it, each job's ranks in a folder of
# its own. A --quick dry run first. Needs at least 2 GPUs (nvidia-h200-x2); about a minute an app.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_pipeline_apps.sh "$@"
BUDGET=${RECORD_BUDGET_S:-150}
APPS=${RECORD_APPS:-pp_mlp}
LOG_TAG=run_pipeline_apps
write_command run_pipeline_apps.sh "budget:  ${BUDGET} s" "apps:    ${APPS}"
NGPU=$(gpu_count)
run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step pipeline_apps "$NGPU GPU"
else
  run_step pipeline_quick 90 "$PY" "$HERE/torch_ddp_apps.py" --out "$REC/quick" --apps "$APPS" --gpus 2 --quick
  run_step pipeline_apps $((BUDGET - 30)) "$PY" "$HERE/torch_ddp_apps.py" --out "$REC" --apps "$APPS" --gpus 2 \
    --budget-s $((BUDGET - 40))
  rm -rf "$REC/quick"
fi
finish_record "linkcast ground-truth recording (run_pipeline_apps.sh)" "$PY" "$HERE/headline.py" "$REC"
