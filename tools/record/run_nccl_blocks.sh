#!/usr/bin/env bash
# run_nccl_blocks.sh OUTDIR: the few NCCL calls from which tools/results/nccl_blocks.py solves a
# GPU's channel-block rates (nccl_simple_* and nccl_ll128_* load, store and peer-store rates, and
# nccl_block_memory_gbps), in one short command on a 2+ GPU machine; the same calls as
# run_nccl_channels.sh and run_nccl.sh make, kept to the sizes the solver reads:
#   ring allreduce, all-gather and reduce-scatter pinned to one channel, Simple and LL128, 256 MiB;
#   ring LL on one channel at 8 MiB and 256 MiB (what nccl_blocks.py prints of LL);
#   ring/Simple at NCCL's own channel count, 256 MiB and 4 GiB (the ceiling, logs/nccl_ring_simple.log
#   giving NCCL's channel count).
# All replayed from CUDA graphs (nccl_bench.py --launch graph). Budget RECORD_BUDGET_S (default 240 s).
# Package with package.py into tests/data/real/<machine>-blocks/, then
#   python3 tools/results/nccl_blocks.py --alone DIR --ceiling DIR
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl_blocks.sh "$OUT".

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_blocks.sh "$@"
BUDGET=${RECORD_BUDGET_S:-240}
LOG_TAG=run_nccl_blocks

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_blocks.sh "budget:  ${BUDGET} s" "sizes:   256 MiB on one channel, 8 MiB LL, 256 MiB and 4 GiB at NCCL's count, graph"

run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  RING=(--out "$REC" --sizes pow2 --launch graph --collectives allreduce,allgather,reducescatter)
  for proto in simple ll128; do
    run_step "nccl_ring_${proto}_ch1" 60 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" \
      --channels 1 --min-bytes 256M --max-bytes 256M "${RING[@]}"
  done
  run_step nccl_ring_simple 60 "$PY" "$HERE/nccl_bench.py" --variant ring_simple \
    --min-bytes 256M --max-bytes 4G "${RING[@]}"
  run_step nccl_ring_ll_ch1 90 "$PY" "$HERE/nccl_bench.py" --variant ring_ll --channels 1 \
    --min-bytes 8M --max-bytes 256M "${RING[@]}"
fi

finish_record "linkcast recording: NCCL calls for the channel-block rates (run_nccl_blocks.sh)" "$PY" "$HERE/headline.py" "$REC"
