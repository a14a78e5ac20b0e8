#!/usr/bin/env bash
# run_nccl_buffsize.sh OUTDIR: what a Simple loop costs beside its bytes, on a 2+ GPU machine.
# NCCL_BUFFSIZE sets the Simple connection buffer (default 4 MiB: 8 slots of 512 KiB), and with it
# the chunk a ring loop moves per rank (4 slots) and the slices its primitives run (2 per chunk):
# ring allreduce, all-gather and reduce-scatter pinned to one channel, 1-32 MiB from CUDA graphs,
# with buffers of 1, 4 and 16 MiB (a loop of 1, 4 and 16 MiB of a 2-GPU call), and all-gather and
# reduce-scatter at NCCL's channel count with 1 and 16 MiB. tools/results/nccl_slices.py reads
# OUTDIR/buffsize.csv. Recorded on nvidia-h200-x2 on 2026-11-28 by the same commands typed at
# the device's prompt (tests/data/real/h200-2gpu-buffsize); this script repeats them.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -ne 1 ]]; then echo "usage: bash run_nccl_buffsize.sh OUTDIR" >&2; exit 2; fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 CUDA_DEVICE_ORDER=PCI_BUS_ID
PY=${PYTHON:-python3}
mkdir -p "$OUT/logs"
COMMON=(--sizes pow2 --max-bytes 32M --launch graph)
for bs in 1048576 4194304 16777216; do
  NCCL_BUFFSIZE=$bs "$PY" "$HERE/nccl_bench.py" --variant ring_simple --channels 1 --out "$OUT/tmp$bs" \
    --csv "$OUT/buffsize_$bs.csv" "${COMMON[@]}" --collectives allreduce,allgather,reducescatter \
    >"$OUT/logs/log_$bs.txt" 2>&1
  echo "$bs rc=$?"
done
for bs in 1048576 16777216; do
  NCCL_BUFFSIZE=$bs "$PY" "$HERE/nccl_bench.py" --variant ring_simple --out "$OUT/tmp24$bs" \
    --csv "$OUT/buffsize24_$bs.csv" "${COMMON[@]}" --collectives allgather,reducescatter \
    >"$OUT/logs/log24_$bs.txt" 2>&1
  echo "24ch $bs rc=$?"
done
# One table: the buffer size as its first column.
{
  echo "buffsize_bytes,variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,busbw_gbps,iters,launch"
  for f in "$OUT"/buffsize*_*.csv; do
    bs=${f##*_}; bs=${bs%.csv}
    tail -n +2 "$f" | sed "s/^/$bs,/"
  done
} >"$OUT/buffsize.csv"
rm -rf "$OUT"/tmp* "$OUT"/buffsize_*.csv "$OUT"/buffsize24_*.csv
