#!/usr/bin/env bash
# run_nccl_burst.sh OUTDIR: why the bus bandwidth of large ring calls keeps rising with size on
# 2 x H200. Each call of a burst timed on its own after the GPUs idled (nccl_burst.py: burst.csv),
# the same CUDA-graph replays at 1, 2, 5 and 20 calls per graph (nccl_bench.py --iters:
# graph_iters.csv), ring/Simple all-gathers and reduce-scatters in place and out of place from
# 8 B to 16 MiB from CUDA graphs (nccl_bench.csv), and the GPUs' clocks, power and throttle
# reasons sampled every 20 ms throughout (clocks.csv).
#
# What it separates: a slow start of each burst (the first calls slower: clocks or links waking),
# a slowdown the longer the GPUs stay busy (the last calls slower), and a steady rate that depends
# on the size (every call of a size alike). The in-place all-gather runs send where the
# out-of-place one runs copySend (a store into its own output beside the peer's buffer).
#
# OUTDIR ends with record.tar.gz (record/: burst.csv, graph_iters.csv, nccl_bench.csv, clocks.csv,
# logs/, machine/, command.txt, summary.txt) and summary.txt. Budget RECORD_BUDGET_S (default 420 s).

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_nccl_burst.sh "$@"
BUDGET=${RECORD_BUDGET_S:-420}
LOG_TAG=run_nccl_burst

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_nccl_burst.sh "budget:  ${BUDGET} s" \
  "bursts:  40 calls after 300 ms idle, 3 per size; graphs of 1, 2, 5, 20 calls; in place 8 B .. 16 MiB"

run_step machine 60 machine_info
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 20 >"$REC/clocks.csv" 2>/dev/null &
CLOCKS=$!

if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  run_step burst_ring_simple 90 "$PY" "$HERE/nccl_burst.py" --variant ring_simple --csv "$REC/burst.csv" \
    --plan 'allgather:64M,256M,1G;reducescatter:64M,256M;allreduce:256M;broadcast:256M;alltoall:64M,256M'
  run_step burst_ring_ll128 60 "$PY" "$HERE/nccl_burst.py" --variant ring_ll128 --csv "$REC/burst.csv" \
    --plan 'allgather:32M,128M;reducescatter:32M'
  for iters in 1 2 5 20; do
    run_step "graph_iters$iters" 60 "$PY" "$HERE/nccl_bench.py" --variant ring_simple --out "$REC/iters" \
      --csv "$REC/graph_iters.csv" --sizes pow2 --min-bytes 64M --max-bytes 1G --launch graph \
      --collectives allgather,reducescatter --iters "$iters"
  done
  run_step nccl_ring_simple_graph 60 "$PY" "$HERE/nccl_bench.py" --variant ring_simple --out "$REC" \
    --sizes default --max-bytes 16M --launch graph --collectives allgather,reducescatter,broadcast
  run_step nccl_ring_simple_inplace_graph 60 "$PY" "$HERE/nccl_bench.py" --variant ring_simple --inplace \
    --out "$REC" --sizes default --max-bytes 16M --launch graph --collectives allgather,reducescatter
fi
kill "$CLOCKS" 2>/dev/null
wait "$CLOCKS" 2>/dev/null

finish_record "linkcast ground-truth recording (run_nccl_burst.sh)" "$PY" "$HERE/headline.py" "$REC"
