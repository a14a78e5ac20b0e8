#!/usr/bin/env bash
# run_nccl_ll128phase.sh OUTDIR: tests of one explanation of why ring/LL128 all-gather,
# reduce-scatter and allreduce on 2 x H200 reach their steady rate only past 1 GiB at 16 and 24
# channels, where at 1-8 channels they do by 16-64 MiB and broadcast at 24 does from the start
# (tests/data/real/h200-2gpu-channels: at 24 channels the simulator is 9-25% fast from 16 to
# 256 MiB). The explanation (from NCCL 2.28.9's source, not yet measured): each channel's block
# alternates a send phase (stores over NVLink) and a receive phase (copies within the GPU) behind
# block-wide barriers, in step with the same channel on the peer; the channels start together, so
# their send phases coincide and queue for the NVLink stores once more than about 13 channels
# send at once, until they drift out of phase over many loops. What it predicts, each a run here:
#   - pinned to 12, 13, 14 and 16 channels: the slow ramp starts at about 13;
#   - NCCL_LL128_NTHREADS=320 at NCCL's count: half a block's threads, less send demand per
#     channel: the ramp mostly goes (perhaps at a lower steady rate);
#   - all-gather and reduce-scatter in place: a shorter send phase changes the penalty's size.
# Sizes 4 MiB to 1 GiB, CUDA graphs (NCCL and the GPUs alone), about 4 minutes on 2 x H200; needs
# at least 2 GPUs (nvidia-h200-x2). Variants are named ring_ll128_ch<N>, ring_ll128_ll128_nthreads320
# and ring_ll128_inplace in nccl_bench.csv; logs/ keeps NCCL's INFO output. At the end OUTDIR
# holds record.tar.gz; package it with package.py into tests/data/real/<machine>-ll128phase/.
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl_ll128phase.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_ll128phase.sh "$@"
BUDGET=${RECORD_BUDGET_S:-560}
LOG_TAG=run_nccl_ll128phase
write_command run_nccl_ll128phase.sh "budget:  ${BUDGET} s" "sizes:   pow2 4 MiB .. 1 GiB, graph"

NGPU=$(gpu_count)
run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl_ring_ll128 "$NGPU GPU"
else
  COMMON=(--out "$REC" --sizes pow2 --min-bytes 4M --max-bytes 1G --launch graph
    --collectives allreduce,allgather,reducescatter)
  run_step nccl_ring_ll128 90 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 "${COMMON[@]}"
  for ch in 12 13 14 16; do
    run_step "nccl_ring_ll128_ch${ch}" 90 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 --channels "$ch" "${COMMON[@]}"
  done
  run_step nccl_ring_ll128_nthreads320 90 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 \
    --env NCCL_LL128_NTHREADS=320 "${COMMON[@]}"
  run_step nccl_ring_ll128_inplace 90 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 --inplace \
    --out "$REC" --sizes pow2 --min-bytes 4M --max-bytes 1G --launch graph --collectives allgather,reducescatter
fi
finish_record "linkcast recording: ring/LL128 by channel count, threads and in place (run_nccl_ll128phase.sh)"
