#!/usr/bin/env bash
# run_nccl_fifo.sh OUTDIR: does the time a ring call takes beyond its steady rate follow the
# connection buffer? On 2 x H200 at NCCL's channel count (24), ring all-gathers and reduce-scatters
# take 25-90 us more than their bytes at the large calls' rate from 32 MiB to 1 GiB (LL128 more than
# Simple), where one-channel to 16-channel calls take a near-constant 20 us more
# (tests/data/real/h200-2gpu-channels-large). A hypothesis: the excess grows while a channel's share
# of the call still fits its connection buffer (NCCL_STEPS slots: LL128 8 x 576000 data bytes, about
# 220 MB of a 2-GPU all-gather at 24 channels) and stays once it does not. If so, the knee moves
# with the buffer. Calls, all from CUDA graphs of 5 at NCCL's channel count:
#   ring/LL128 all-gather and reduce-scatter, 8 MiB-1 GiB, NCCL_LL128_BUFFSIZE 1228800 (a quarter of
#   the default), unset (4915200) and 19660800 (four times);
#   ring/Simple all-gather and reduce-scatter, 32 MiB-2 GiB, NCCL_BUFFSIZE 1 MiB, unset (4 MiB) and
#   16 MiB;
#   ring/LL128 all-gather and reduce-scatter, 8 MiB-1 GiB, default buffer, pinned to 12, 20 and 32
#   channels (does the excess need the link's saturation, which 16 channels do not reach?).
# Leaves record/fifo.csv: `env,env_bytes` (env the variable set, env_bytes its value, 0 where unset)
# and nccl_bench.csv's columns. Budget RECORD_BUDGET_S (default 300 s).
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl_fifo.sh "$OUT".

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_fifo.sh "$@"
BUDGET=${RECORD_BUDGET_S:-300}
LOG_TAG=run_nccl_fifo

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_fifo.sh "budget:  ${BUDGET} s" \
  "calls:   ring/LL128 AG+RS 8 MiB..1 GiB at NCCL_LL128_BUFFSIZE 1228800, default, 19660800; ring/Simple AG+RS 32 MiB..2 GiB at NCCL_BUFFSIZE 1 MiB, default, 16 MiB; ring/LL128 AG+RS 8 MiB..1 GiB at 12, 20, 32 channels; graph"

# run_case NAME VARIANT MIN MAX ENV_NAME ENV_BYTES [ARGS...]: one nccl_bench.py run (ARGS added to
# its command line) into $REC/fifo_NAME.csv.
run_case() {
  local name=$1 variant=$2 min=$3 max=$4 env_name=$5 env_bytes=$6
  shift 6
  local -a envs=()
  [[ "$env_bytes" != 0 ]] && envs=("$env_name=$env_bytes")
  run_step "nccl_fifo_$name" 90 env "${envs[@]}" "$PY" "$HERE/nccl_bench.py" \
    --variant "$variant" --out "$REC/tmp" --csv "$REC/fifo_${name}.csv" --sizes pow2 \
    --min-bytes "$min" --max-bytes "$max" --launch graph --collectives allgather,reducescatter "$@"
  [[ -f "$REC/fifo_${name}.csv" ]] && tail -n +2 "$REC/fifo_${name}.csv" | sed "s/^/$env_name,$env_bytes,/" >>"$REC/fifo_rows.tmp"
}

run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,ENV
  : >"$REC/fifo_rows.tmp"
  for bs in 0 1228800 19660800; do
    run_case "ll128_$bs" ring_ll128 8M 1G NCCL_LL128_BUFFSIZE "$bs"
  done
  for bs in 0 1048576 16777216; do
    run_case "simple_$bs" ring_simple 32M 2G NCCL_BUFFSIZE "$bs"
  done
  for ch in 12 20 32; do
    run_case "ll128_ch$ch" ring_ll128 8M 1G NCCL_LL128_BUFFSIZE 0 --channels "$ch"
  done
  {
    echo "env,env_bytes,variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,busbw_gbps,iters,launch"
    cat "$REC/fifo_rows.tmp"
  } >"$REC/fifo.csv"
  rm -rf "$REC"/tmp "$REC"/fifo_*.csv "$REC/fifo_rows.tmp"
fi

finish_record "linkcast recording: NCCL ring calls by connection-buffer size at NCCL's channel count (run_nccl_fifo.sh)" "$PY" "$HERE/headline.py" "$REC"
