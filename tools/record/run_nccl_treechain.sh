#!/usr/bin/env bash
# run_nccl_treechain.sh OUTDIR: how NCCL's tree allreduce moves along its chain inside a node, on
# 4 GPUs (a chain of three hops up and three down). On 4 x H200 the tree/LL allreduces of 1-2 MiB
# ran 19-58% faster than simulated while those of 16-64 MiB ran 9-14% slower
# (tests/data/real/h200-4gpu-nccl-graph, -graph2): the call's fill along the chain and its steady
# rate both differ from the model. Here, replayed from CUDA graphs:
#   - tree/LL, tree/LL128 and tree/Simple allreduce pinned to 1 and 4 channels, 32 KiB-32 MiB in
#     powers of 4 (few chunks a channel: the fill along the chain; many: the steady rate), and
#     ring/LL at 1 channel beside them;
#   - the calls of run_nccl_treel2.sh (tree LL/LL128/Simple and ring LL at NCCL's channel count,
#     1-128 MiB, on one set of buffers and on a new set each call).
# About 4 minutes on 4 x H200.
# Leaves record/nccl_bench.csv and logs/. Run from anywhere: bash tools/record/run_nccl_treechain.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
if begin_nccl_record run_nccl_treechain.sh 540 \
  "allreduce tree LL/LL128/Simple at 1 and 4 channels 32 KiB..32 MiB, ring LL at 1; tree and ring LL at NCCL's count 1..128 MiB warm and cold; graph" "$@"; then
  PINNED=(--out "$REC" --sizes default --min-bytes 32K --max-bytes 32M --launch graph --collectives allreduce)
  for variant in tree_ll tree_ll128 tree_simple; do
    for ch in 1 4; do
      run_step "nccl_${variant}_ch${ch}" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --channels "$ch" "${PINNED[@]}"
    done
  done
  run_step nccl_ring_ll_ch1 60 "$PY" "$HERE/nccl_bench.py" --variant ring_ll --channels 1 "${PINNED[@]}"
  COMMON=(--out "$REC" --sizes pow2 --max-bytes 128M --launch graph --collectives allreduce)
  for variant in tree_ll tree_ll128 tree_simple ring_ll; do
    run_warm_and_cold "nccl_${variant}" --variant "$variant" "${COMMON[@]}"
  done
fi

finish_record "linkcast recording: tree allreduce along its chain (run_nccl_treechain.sh)" "$PY" "$HERE/headline.py" "$REC"
