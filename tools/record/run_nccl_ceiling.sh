#!/usr/bin/env bash
# run_nccl_ceiling.sh OUTDIR: the ceiling on what a GPU's thread blocks together store into a peer
# over NVLink, and the large NCCL calls it bounds, on a 2+ GPU machine, in one short command:
#   block_copy.cu's peer_write (one GPU stores into the other) and peer_write_both (each into the
#   other at once), 1-132 blocks of 512 and of 640 threads (NCCL_MAX_NTHREADS): block_copy.csv,
#   block_copy_640.csv;
#   NCCL's default choice from CUDA graphs, every collective, 1 MiB-4 GiB (a sweep held out of any
#   tuning, as h200-2gpu-nccl-graph recorded it on other machines);
#   ring/Simple and ring/LL128 broadcast, allreduce, all-gather and reduce-scatter of 256 MiB-4 GiB
#   from CUDA graphs at NCCL's channel count (a broadcast's root only stores: the one-way ceiling).
# Why: the simulator's block model capped a rank's NCCL channels at NCCL's own bus-bandwidth
# figure (360 GB/s on H200 NVLink), where calls recorded on 4 H200s and published on 8 ran at
# 361-367 GB/s; block_copy's peer writes saturated at 366.6 (both ways) and 371.0 GB/s (one way) in
# tests/data/real/h200-2gpu-nccl.
# Budget RECORD_BUDGET_S (default 270 s). Package with package.py.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_ceiling.sh "$@"
BUDGET=${RECORD_BUDGET_S:-270}
LOG_TAG=run_nccl_ceiling

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_ceiling.sh "budget:  ${BUDGET} s" "sizes:   block_copy 64 MiB a block; NCCL 1 MiB .. 4 GiB (default), 256 MiB .. 4 GiB (ring)"

run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step block_copy "$NGPU GPU"
  skip_step nccl "$NGPU GPU"
else
  run_step block_copy 60 block_copy_runs block_copy.csv "--reps 7 --patterns peer_write,peer_write_both" \
    block_copy_640.csv "--reps 7 --threads 640 --patterns peer_write,peer_write_both"
  run_step nccl_default_graph 120 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
    --sizes pow2 --launch graph
  for proto in simple ll128; do
    run_step "nccl_ring_${proto}_graph" 60 "$PY" "$HERE/nccl_bench.py" --variant "ring_${proto}" --out "$REC" \
      --sizes pow2 --min-bytes 256M --max-bytes 4G --launch graph \
      --collectives broadcast,allreduce,allgather,reducescatter
  done
fi

finish_record "linkcast recording: the NVLink peer-store ceiling and the NCCL calls it bounds (run_nccl_ceiling.sh)" "$PY" "$HERE/headline.py" "$REC"
