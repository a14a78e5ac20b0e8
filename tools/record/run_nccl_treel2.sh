#!/usr/bin/env bash
# run_nccl_treel2.sh OUTDIR: do NCCL's tree allreduces run faster on buffers the L2 holds, as ring
# LL calls do? On 2 x H200 the tree/LL allreduces of 4-32 MiB ran 18-31% slower than the simulator,
# which frees their user-buffer loads where the L2 holds the buffers as it does a ring's; with the
# loads charged they come within 3-11% (tests/data/real/h200-2gpu-nccl-graph). Here: allreduce of
# 1-128 MiB, replayed from CUDA graphs, tree/LL, tree/LL128 and tree/Simple at NCCL's channel
# count, each on one set of buffers (warm) and on a new set each call (--cold 512M), and ring/LL
# the same way beside them. About 2 minutes on 2 x H200.
# Leaves record/nccl_bench.csv (variants tree_<proto>, tree_<proto>_cold, ring_ll, ring_ll_cold)
# and logs/. Run from anywhere: bash tools/record/run_nccl_treel2.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_treel2.sh 400 \
  "allreduce 1..128 MiB, tree LL/LL128/Simple and ring LL, warm and cold, graph" "$@"; then
  COMMON=(--out "$REC" --sizes pow2 --max-bytes 128M --launch graph --collectives allreduce)
  for variant in tree_ll tree_ll128 tree_simple ring_ll; do
    run_warm_and_cold "nccl_${variant}" --variant "$variant" "${COMMON[@]}"
  done
fi

finish_record "linkcast recording: tree allreduces on warm and cold buffers (run_nccl_treel2.sh)" "$PY" "$HERE/headline.py" "$REC"
