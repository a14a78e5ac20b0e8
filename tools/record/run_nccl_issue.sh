#!/usr/bin/env bash
# run_nccl_issue.sh OUTDIR: NCCL calls of 8 B to 64 MiB issued from Python (launch=eager) with the
# host's time to issue each call (nccl_bench.py's issue_us column), beside the same calls replayed
# from CUDA graphs, on a 2- to 8-GPU machine; and a ring/LL128 all-gather of 8 MiB to 1 GiB from
# CUDA graphs at 5, 20 and 80 calls per graph (ll128_iters.csv), with the GPUs' clocks, power and
# temperature sampled every 100 ms throughout (clocks.csv).
#
# Why: calls issued from Python time the host's issue, not NCCL, where the GPU work is shorter
# (collective_call_us); how long the host takes varies from one session to the next (about 18 us
# to 50 us per call in tests/data/real), so each loop records its own. The LL128 step asks
# whether the mid-size all-gathers' slowness (20-27% behind the simulator at 16-128 MiB on
# 2 x H200 at NCCL's 24 channels, none at 1-16 channels or from 1 GiB) depends on how long the
# GPUs have been busy (clock or power ramps) rather than on the call.
#
# OUTDIR ends with record.tar.gz (record/: nccl_bench.csv, ll128_iters.csv, clocks.csv,
# nccl_<variant>_meta.json, logs/, machine/, command.txt, summary.txt) and summary.txt.
# Budget RECORD_BUDGET_S (default 480 s).

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_issue.sh "$@"
BUDGET=${RECORD_BUDGET_S:-480}
LOG_TAG=run_nccl_issue

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_issue.sh "budget:  ${BUDGET} s" "sizes:   8 B .. 64 MiB (eager and graph); LL128 8 MiB .. 1 GiB"

run_step machine 60 machine_info
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
  --format=csv -lms 100 >"$REC/clocks.csv" 2>/dev/null &
CLOCKS=$!

VARIANTS=(default ring_ll ring_ll128 ring_simple tree)
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  for variant in "${VARIANTS[@]}"; do
    run_step "nccl_$variant" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC" \
      --sizes default --max-bytes 64M --repeats 3
  done
  for variant in "${VARIANTS[@]}"; do
    run_step "nccl_${variant}_graph" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC" \
      --sizes default --max-bytes 64M --launch graph
  done
  for iters in 5 20 80; do
    run_step "ll128_iters$iters" 60 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 --out "$REC/ll128" \
      --csv "$REC/ll128_iters.csv" --sizes pow2 --min-bytes 8M --max-bytes 1G --launch graph \
      --collectives allgather --iters "$iters"
  done
fi
kill "$CLOCKS" 2>/dev/null
wait "$CLOCKS" 2>/dev/null

finish_record "linkcast ground-truth recording (run_nccl_issue.sh)" "$PY" "$HERE/headline.py" "$REC"
