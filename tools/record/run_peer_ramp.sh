#!/usr/bin/env bash
# run_peer_ramp.sh OUTDIR: whether the rate at which a GPU's thread blocks store into their peer
# depends on how long they run, and whether the blocks keep pace with each other (issue 19), on a
# 2+ GPU machine, in one short command:
#   peer_ramp.cu: 8, 24 and 132 blocks on each of two GPUs storing into each other, 256 KiB-64 MiB
#   a block, one kernel and ten back to back: ramp.csv (time per kernel, each block's own time,
#   the blocks' start skew) and progress.csv (when each block had stored each sixteenth);
#   NCCL ring/Simple all-gather and reduce-scatter and ring/LL128 all-gather of 64 MiB-4 GiB at
#   NCCL's channel count from CUDA graphs of 1 call and of 10 calls (nccl_iters1.csv,
#   nccl_iters10.csv): whether a call's fixed extra recurs when calls run back to back.
# Why: at NCCL's 24 channels ring calls of 256 MiB-4 GiB on 2 x H200 gain 15-29% of bus bandwidth
# with the size where 8 channels gain none (tools/results/nccl_blocks.py), as if each call paid
# 100-150 us the simulator does not charge; on the public 8 x H100 tables the simulator's
# reduce-scatter is 4-18% long.
# Budget RECORD_BUDGET_S (default 240 s). Package with package.py.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
begin_nccl_record run_peer_ramp.sh 240 "peer_ramp.cu; ring Simple/LL128 64 MiB-4 GiB, graphs of 1 and 10 calls" "$@" || {
  finish_record "linkcast recording: peer-store ramp (run_peer_ramp.sh)" "$PY" "$HERE/headline.py" "$REC"
  exit 0
}

peer_ramp_run() {
  "$NVCC" -O3 -arch=sm_90 -o "$REC/peer_ramp" "$HERE/peer_ramp.cu" || return $?
  (cd "$REC" && ./peer_ramp --reps 5)
  local rc=$?
  rm -f "$REC/peer_ramp"
  return $rc
}
export -f peer_ramp_run

run_step peer_ramp 90 peer_ramp_run
for iters in 1 10; do
  run_step "nccl_simple_iters$iters" 50 "$PY" "$HERE/nccl_bench.py" --variant ring_simple --out "$REC" \
    --csv "$REC/nccl_iters$iters.csv" --sizes pow2 --min-bytes 64M --max-bytes 4G --launch graph --iters "$iters" \
    --collectives allgather,reducescatter
  run_step "nccl_ll128_iters$iters" 30 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 --out "$REC" \
    --csv "$REC/nccl_iters$iters.csv" --sizes pow2 --min-bytes 64M --max-bytes 4G --launch graph --iters "$iters" \
    --collectives allgather
done

finish_record "linkcast recording: peer-store ramp (run_peer_ramp.sh)" "$PY" "$HERE/headline.py" "$REC"
