#!/usr/bin/env bash
# run_graph_queue.sh OUTDIR: how many NCCL calls one CUDA graph launch queues before it holds the
# host, and what each call then costs. The same call replayed from graphs of 8 to 160 calls
# (nccl_bench.py --launch graph --iters K): a ring/LL128 all-gather of 8 MiB (the size whose calls
# took 9-13 us more at 80 calls than at 20 in tests/data/real/h200-2gpu-nccl-issue*) and a
# ring/Simple allreduce of 8 B (the kernel's own cost, no data), with the host's time per call to
# launch the replay (issue_us). Where issue_us reaches the call's time, the launch returned only
# once the GPUs were nearly done: the host fed the graph's kernels as the GPUs freed room.
#
# OUTDIR ends with record.tar.gz (record/: graph_queue.csv, logs/, machine/, command.txt,
# summary.txt) and summary.txt. Budget RECORD_BUDGET_S (default 300 s).

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_graph_queue.sh "$@"
BUDGET=${RECORD_BUDGET_S:-300}
LOG_TAG=run_graph_queue

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_graph_queue.sh "budget:  ${BUDGET} s" "graphs of 8..160 calls: ring_ll128 allgather 8 MiB, ring_simple allreduce 8 B"

run_step machine 60 machine_info
if [[ "$NGPU" -lt 2 ]]; then
  skip_step nccl "$NGPU GPU"
else
  for iters in 8 16 24 32 40 48 56 64 80 120 160; do
    run_step "ll128_k$iters" 60 "$PY" "$HERE/nccl_bench.py" --variant ring_ll128 --out "$REC/ll128" \
      --csv "$REC/graph_queue.csv" --sizes pow2 --min-bytes 8M --max-bytes 8M --launch graph \
      --collectives allgather --iters "$iters"
    run_step "simple_k$iters" 60 "$PY" "$HERE/nccl_bench.py" --variant ring_simple --out "$REC/simple" \
      --csv "$REC/graph_queue.csv" --sizes default --max-bytes 8 --launch graph \
      --collectives allreduce --iters "$iters"
  done
fi

finish_record "linkcast ground-truth recording (run_graph_queue.sh)" "$PY" "$HERE/headline.py" "$REC"
