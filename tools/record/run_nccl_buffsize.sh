#!/usr/bin/env bash
# run_nccl_buffsize.sh OUTDIR: what a Simple loop costs beside its bytes, on a 2+ GPU machine.
# NCCL_BUFFSIZE sets the Simple connection buffer (default 4 MiB: 8 slots of 512 KiB), and with it
# the chunk a ring loop moves per rank (4 slots) and the slices its primitives run (2 per chunk):
# ring allreduce, all-gather and reduce-scatter pinned to one channel, 1-32 MiB from CUDA graphs,
# with buffers of 1, 4 and 16 MiB (a loop of 1, 4 and 16 MiB of a 2-GPU call), and all-gather and
# reduce-scatter at NCCL's channel count with 1 and 16 MiB. Leaves record/buffsize.csv
# (nccl_bench.py's columns after a buffsize_bytes one), which tools/results/nccl_slices.py reads.
# Budget RECORD_BUDGET_S (default 240 s). tests/data/real/h200-2gpu-buffsize holds the same calls,
# recorded on nvidia-h200-x2 on 2026-11-28 by these nccl_bench.py commands typed at the device's
# prompt before this script had record_lib.sh's steps (so that folder has no machine/ record).
# Run from anywhere, e.g. from the repository root: bash tools/record/run_nccl_buffsize.sh "$OUT".

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_buffsize.sh "$@"
BUDGET=${RECORD_BUDGET_S:-240}
LOG_TAG=run_nccl_buffsize

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_buffsize.sh "budget:  ${BUDGET} s" "sizes:   pow2 1 MiB .. 32 MiB, graph, NCCL_BUFFSIZE 1, 4, 16 MiB"

run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  COMMON=(--sizes pow2 --max-bytes 32M --launch graph)
  for bs in 1048576 4194304 16777216; do
    run_step "nccl_buffsize_${bs}_ch1" 60 env NCCL_BUFFSIZE=$bs "$PY" "$HERE/nccl_bench.py" \
      --variant ring_simple --channels 1 --out "$REC/tmp" --csv "$REC/buffsize_${bs}_ch1.csv" \
      "${COMMON[@]}" --collectives allreduce,allgather,reducescatter
  done
  for bs in 1048576 16777216; do
    run_step "nccl_buffsize_${bs}" 60 env NCCL_BUFFSIZE=$bs "$PY" "$HERE/nccl_bench.py" \
      --variant ring_simple --out "$REC/tmp" --csv "$REC/buffsize_${bs}.csv" "${COMMON[@]}" \
      --collectives allgather,reducescatter
  done
  # One table, the buffer size as its first column.
  {
    echo "buffsize_bytes,variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,busbw_gbps,iters,launch"
    for f in "$REC"/buffsize_*.csv; do
      [[ -f "$f" ]] || continue
      bs=${f##*/buffsize_}
      bs=${bs%%[_.]*}
      tail -n +2 "$f" | sed "s/^/$bs,/"
    done
  } >"$REC/buffsize.csv"
  rm -rf "$REC"/tmp "$REC"/buffsize_*.csv
fi

finish_record "linkcast recording: NCCL ring/Simple loops by connection-buffer size (run_nccl_buffsize.sh)" "$PY" "$HERE/headline.py" "$REC"
