#!/usr/bin/env bash
# run_nccl_l2.sh OUTDIR: whether NCCL's ring collectives run faster when the user's buffers are
# in the GPU's L2 cache (linkcast's collective simulation, issue 19), on a 2- to 8-GPU machine in
# one command (about 6 min on 2 x H200). Replayed from CUDA graphs, allreduce (in place, as
# torch.distributed.all_reduce), all-gather and reduce-scatter of every power of two from 1 MiB to
# 128 MiB, each twice: with every call of a size on one set of buffers (`warm`, as every earlier
# recording: a set that fits the 50 MiB L2 stays there) and with each call on the next of as many
# sets as hold 512 MiB together (nccl_bench.py --cold 512M, variants named *_cold). For ring LL
# pinned to one channel, also all-gather and reduce-scatter in place (*_inplace: no separate copy
# into the own block of the output, or out of the input). For ring LL, LL128 and Simple at one
# channel and at NCCL's count. Then NCCL's default choice issued from Python at 8 B-64 KiB (the
# process's time per call in this VM session: the node's collective_call_us).
# Variants are named ring_<proto>[_ch1][_inplace][_cold] in nccl_bench.csv; logs/ keeps NCCL's
# INFO output. At the end OUTDIR holds record.tar.gz (record/: nccl_bench.csv, nccl_*_meta.json,
# logs/, machine/, command.txt, summary.txt) and summary.txt; package it with package.py into
# tests/data/real/<machine>-l2/. Run from anywhere: bash tools/record/run_nccl_l2.sh "$OUT".

set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_l2.sh "$@"
BUDGET=${RECORD_BUDGET_S:-560}
LOG_TAG=run_nccl_l2
write_command run_nccl_l2.sh "budget:  ${BUDGET} s" "sizes:   pow2 1 MiB .. 128 MiB, graph, warm and cold buffers"

NGPU=$(gpu_count)
run_step machine 60 machine_info
COMMON=(--out "$REC" --sizes pow2 --max-bytes 128M --launch graph --collectives allreduce,allgather,reducescatter)
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  for proto in ll simple ll128; do
    for ch in 1 0; do
      pin=()
      name="nccl_ring_${proto}"
      if [[ "$ch" -gt 0 ]]; then
        pin=(--channels "$ch")
        name="${name}_ch${ch}"
      fi
      run_warm_and_cold "$name" --variant "ring_${proto}" "${pin[@]}" "${COMMON[@]}"
    done
  done
  INPLACE=(--out "$REC" --sizes pow2 --max-bytes 128M --launch graph --collectives allgather,reducescatter --inplace)
  run_warm_and_cold nccl_ring_ll_ch1_inplace --variant ring_ll --channels 1 "${INPLACE[@]}"
  run_step nccl_default_small 60 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" --sizes default \
    --max-bytes 64K --launch eager --repeats 5
fi
finish_record "linkcast recording: NCCL ring collectives with warm and cold buffers (run_nccl_l2.sh)"
