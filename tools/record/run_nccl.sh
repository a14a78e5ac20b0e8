#!/usr/bin/env bash
# run_nccl.sh OUTDIR: the NCCL sweep for linkcast's collective models on a 2- to 8-GPU machine,
# in one command: every power of two from 1 MiB to 4 GiB (nccl_bench.py --sizes pow2), for the
# default variant (with NCCL's topology and graph dumps), then NCCL_ALGO=Ring and Tree, then the
# forced algorithm/protocol pairs (Ring and Tree with NCCL_PROTO=LL, LL128, Simple), each in a
# fresh set of processes with NCCL_DEBUG=INFO (INIT,GRAPH,TUNING,ENV) kept in
# logs/nccl_<variant>.log. Every variant is timed twice: issued from Python (launch=eager, the
# median of 3 timed loops) and replayed from a CUDA graph (launch=graph: NCCL and the GPUs alone,
# logs/nccl_<variant>_graph.log). block_copy.cu measures the GPUs' per-block copy rates
# (block_copy.csv), which the simulator's NCCL block model uses.
#
# Each step runs under its own time limit and all within one budget (RECORD_BUDGET_S, default
# 540 s, of which 15 s are kept for the summary and the archive); steps run most important
# first, so that a short budget loses the protocol variants. At the end OUTDIR holds only:
#   record.tar.gz  everything (record/: nccl_bench.csv, nccl_<variant>_meta.json, nccl_topo.xml,
#                  nccl_graph.xml, logs/, machine/, command.txt, summary.txt)
#   summary.txt    what ran, what failed, wall time per step, headline numbers, archive size
# Buffers reach 4 GiB (alltoall: 4 GiB in and out per GPU), fine on 80 GB and 141 GB GPUs.
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl.sh "$OUT".

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl.sh "$@"
BUDGET=${RECORD_BUDGET_S:-540}
LOG_TAG=run_nccl

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl.sh "budget:  ${BUDGET} s" "sizes:   pow2 (1 MiB .. 4 GiB)"


run_step machine 60 machine_info
# Most important first.
VARIANTS=(default ring tree ring_ll ring_ll128 ring_simple tree_ll tree_ll128 tree_simple)
if [[ "$NGPU" -lt 2 ]]; then
  for variant in "${VARIANTS[@]}"; do skip_step "nccl_$variant" "$NGPU GPU"; done
else
  run_step nccl_default 120 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
    --sizes pow2 --dump-topology --repeats 3
  run_step nccl_default_graph 120 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
    --sizes pow2 --launch graph
  run_step block_copy 120 block_copy_runs block_copy.csv "--reps 7"
  for variant in "${VARIANTS[@]:1}"; do
    run_step "nccl_$variant" 90 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC" \
      --sizes pow2 --repeats 3
  done
  for variant in "${VARIANTS[@]:1}"; do
    run_step "nccl_${variant}_graph" 90 "$PY" "$HERE/nccl_bench.py" --variant "$variant" \
      --out "$REC" --sizes pow2 --launch graph
  done
fi

finish_record "linkcast ground-truth recording (run_nccl.sh)" "$PY" "$HERE/headline.py" "$REC"
