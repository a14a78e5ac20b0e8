#!/usr/bin/env bash
# run_ddp_window.sh OUTDIR: PyTorch DDP apps on RECORD_GPUS GPUs (default 2) whose ranks' profiling
# windows open a step apart (torch_ddp_apps.py --window-offset 1: rank r's window opens r steps
# after rank 0's; all run the same steps), as a job's ranks profiled by hand often are. The ranks then each record a
# step the other did not: NCCL calls one rank's trace lacks at its start and the other's at its
# end. What linkcast must read right: each call paired with its own step's on the other rank
# (ddp_train_pinned's communicator also broadcasts the model's buffers every step), and the job's
# honest replay (`linkcast simulate NODE app_<name>/ --as-recorded`) within 2% of its span.
# A --quick pass first (a dry run of the apps), then RECORD_APPS (default
# ddp_train_pinned,ddp_mlp). Budget RECORD_BUDGET_S (default 180 s). Package with package.py.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_ddp_window.sh "$@"
BUDGET=${RECORD_BUDGET_S:-180}
APPS=${RECORD_APPS:-ddp_train_pinned,ddp_mlp}
GPUS=${RECORD_GPUS:-2}
LOG_TAG=run_ddp_window

write_command run_ddp_window.sh "budget:  ${BUDGET} s" "apps:    ${APPS} on ${GPUS} GPUs, windows a step apart"
NGPU=$(gpu_count)
run_step machine 60 machine_info
if [[ "$NGPU" -lt "$GPUS" || "$GPUS" -lt 2 ]]; then
  skip_step ddp_window "$NGPU GPU"
else
  run_step ddp_window_quick 90 "$PY" "$HERE/torch_ddp_apps.py" --out "$REC/quick" --apps "$APPS" --gpus "$GPUS" \
    --window-offset 1 --quick
  run_step ddp_window $((BUDGET - 30)) "$PY" "$HERE/torch_ddp_apps.py" --out "$REC" --apps "$APPS" --gpus "$GPUS" \
    --window-offset 1 --budget-s $((BUDGET - 40))
  rm -rf "$REC/quick"
fi

finish_record "linkcast ground-truth recording (run_ddp_window.sh)" "$PY" "$HERE/headline.py" "$REC"
