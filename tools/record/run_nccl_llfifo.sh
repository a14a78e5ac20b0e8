#!/usr/bin/env bash
# run_nccl_llfifo.sh OUTDIR: does an LL call's L2 footprint include its connections' lines? On
# 2 x H200 a ring/LL allreduce of 32 MiB on buffers the L2 holds ran 5% under its cold time at
# NCCL's 24 channels and 16% under on one channel (tests/data/real/h200-2gpu-nccl-l2); the
# simulator now counts up to 512 KiB of LL lines a channel's receive connection holds
# (nccl::ll_connection_bytes), so the L2's share falls with the channel count. Held-out check:
# ring/LL allreduce and reduce-scatter of 16-64 MiB in steps of 8 MiB (nccl_bench.py --sizes l2),
# replayed from CUDA graphs, pinned to 4, 8, 16 and 24 channels, each on one set of buffers (warm)
# and on a new set each call (--cold 512M). About 3 minutes on 2 x H200.
# Leaves record/nccl_bench.csv (variants ring_ll_ch<N> and ring_ll_ch<N>_cold) and logs/.
# Run from anywhere: bash tools/record/run_nccl_llfifo.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_llfifo.sh 400 \
  "ring/LL allreduce + reduce-scatter 16..64 MiB (8 MiB steps), 4/8/16/24 channels, warm and cold, graph" "$@"; then
  COMMON=(--out "$REC" --sizes l2 --launch graph --collectives allreduce,reducescatter)
  for ch in 4 8 16 24; do
    run_warm_and_cold "nccl_ring_ll_ch${ch}" --variant ring_ll --channels "$ch" "${COMMON[@]}"
  done
fi

finish_record "linkcast recording: ring/LL calls across the L2's capacity by channel count (run_nccl_llfifo.sh)" "$PY" "$HERE/headline.py" "$REC"
