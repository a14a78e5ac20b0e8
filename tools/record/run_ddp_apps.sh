#!/usr/bin/env bash
# run_ddp_apps.sh OUTDIR: the multi-rank ground truth on a 2+ GPU machine, in one command: the
# host's copy rates, PyTorch DDP training apps on every GPU (torch_ddp_apps.py: each rank's step
# times without the profiler and its Kineto trace), then NCCL's default collectives at every
# power of two from 1 MiB to 4 GiB replayed from CUDA graphs and issued from Python
# (nccl_bench.py, with NCCL's topology and graph dumps), so that one machine's recording serves
# both the application projection and the collective simulation.
#
# Steps, each under its own time limit and all within one budget (RECORD_BUDGET_S, default
# 560 s, of which 15 s are kept for the summary and the archive):
#   machine            machine information (record_lib.sh)
#   build              g++ hostrates (hostprobe/host_rates.cpp)
#   hostrates          host memory rates, one thread on NUMA node 0 (as run_apps.sh)
#   ddp_apps           torch_ddp_apps.py (what is left of 240 s)
#   nccl_default_graph nccl_bench.py --variant default --sizes pow2 --launch graph
#   nccl_default       the same issued from Python, --repeats 3, --dump-topology
# At the end OUTDIR holds record.tar.gz and summary.txt (record_lib.sh).
# Run from anywhere, e.g. from the repository root: bash tools/record/run_ddp_apps.sh "$OUT".

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=record_lib.sh
source "$HERE/record_lib.sh"
start_record run_ddp_apps.sh "$@"
BIN=$(mktemp -d "${TMPDIR:-/tmp}/linkcast_ddp.XXXXXX")
trap 'rm -rf "$BIN"' EXIT
export BIN
BUDGET=${RECORD_BUDGET_S:-560}
LOG_TAG=run_ddp_apps

NGPU=$(gpu_count)
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
write_command run_ddp_apps.sh "budget:  ${BUDGET} s" "sizes:   pow2 (1 MiB .. 4 GiB)"

build() {
  g++ -O2 -std=c++20 -I"$REPO" -o "$BIN/hostrates" "$HERE/hostrates_main.cpp" \
    "$REPO/hostprobe/host_rates.cpp"
}
ddp_apps() {
  "$PY" "$HERE/torch_ddp_apps.py" --out "$REC" --budget-s "$1"
}
export -f build ddp_apps

run_step machine 60 machine_info
run_step build 60 build
run_hostrates_step "$BIN/hostrates"
if [[ "$NGPU" -lt 2 ]]; then
  for s in ddp_apps nccl_default_graph nccl_default; do skip_step "$s" "$NGPU GPU"; done
else
  run_step ddp_apps 240 ddp_apps 230
  run_step nccl_default_graph 120 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
    --sizes pow2 --launch graph --dump-topology
  run_step nccl_default 120 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
    --sizes pow2 --repeats 3
fi

finish_record "linkcast ground-truth recording (run_ddp_apps.sh)" "$PY" "$HERE/headline.py" "$REC"
