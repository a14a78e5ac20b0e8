#!/usr/bin/env bash
# run_all.sh OUTDIR: record linkcast's ground truth on this GPU machine in one command.
#
# Records machine information, builds the CUDA benchmarks, runs copybench, concurrency,
# torch_traces and (with 2+ GPUs) nccl_bench, each step under its own time limit and all of them
# under one overall budget (RECORD_BUDGET_S; default 385 s with 2+ GPUs, 265 s with one), so the
# whole run stays under 7 min on a 2-GPU machine and 5 min on a 1-GPU one. A failed or timed-out
# step is logged and the next one runs. At the end OUTDIR holds only:
#   record.tar.gz  everything (record/: CSVs, traces, logs/, machine/, summary.txt)
#   summary.txt    what ran, what failed, wall time per step, headline numbers
# See README.md beside this script for the formats.

set -uo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash run_all.sh OUTDIR" >&2
  exit 2
fi
mkdir -p "$1" || exit 1
OUTDIR=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REC="$OUTDIR/record"   # staging folder: becomes record/ inside the archive
BIN=$(mktemp -d "${TMPDIR:-/tmp}/linkcast_record.XXXXXX")
trap 'rm -rf "$BIN"' EXIT
rm -rf "$REC" "$OUTDIR/record.tar.gz" "$OUTDIR/summary.txt"
mkdir -p "$REC/machine" "$REC/logs"

# NVLink multicast must stay off on shared multi-GPU hosts, in every process started from here.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# CUDA device indices in PCI bus order, as nvidia-smi and NCCL's topology number them.
export CUDA_DEVICE_ORDER=PCI_BUS_ID
export PYTHONUNBUFFERED=1
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
PY=${PYTHON:-python3}
export REC BIN HERE NVCC PY

T0=$SECONDS
log() { printf '[run_all %4ds] %s\n' $((SECONDS - T0)) "$*"; }

NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [[ "$NGPU" -eq 0 ]]; then
  NGPU=$("$PY" -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)
fi
if [[ "$NGPU" -ge 2 ]]; then BUDGET=${RECORD_BUDGET_S:-385}; else BUDGET=${RECORD_BUDGET_S:-265}; fi
PACK_RESERVE=15   # seconds kept back for the summary and the archive
KILL_AFTER=5      # grace between a step's SIGTERM and SIGKILL
log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"

STEP_LINES=()
FAILED=0

# run_step NAME CAP CMD [ARGS...]: runs CMD (a program or an exported function) with its output
# in logs/NAME.log, limited to CAP seconds and to what is left of the budget.
run_step() {
  local name=$1 cap=$2
  shift 2
  local left=$((BUDGET - (SECONDS - T0) - PACK_RESERVE - KILL_AFTER))
  if ((left < 10)); then
    log "skip  $name: budget spent"
    STEP_LINES+=("$(printf '%-20s %-22s %5s %6s' "$name" "skipped (no time)" - -)")
    return
  fi
  local limit=$((cap < left ? cap : left))
  log "start $name (limit ${limit}s)"
  local start=$SECONDS
  timeout --kill-after="$KILL_AFTER" "$limit" bash -c '"$@"' "$name" "$@" \
    >"$REC/logs/$name.log" 2>&1
  local rc=$?
  local took=$((SECONDS - start)) status
  case $rc in
    0) status=ok ;;
    124 | 137) status="timeout"; FAILED=$((FAILED + 1)) ;;
    *) status="failed (rc=$rc)"; FAILED=$((FAILED + 1)) ;;
  esac
  log "end   $name: $status in ${took}s"
  if [[ $status != ok ]]; then
    tail -n 5 "$REC/logs/$name.log" | sed 's/^/    | /'
  fi
  STEP_LINES+=("$(printf '%-20s %-22s %4ds %5ds' "$name" "$status" "$took" "$limit")")
}

skip_step() {
  log "skip  $1: $2"
  STEP_LINES+=("$(printf '%-20s %-22s %5s %6s' "$1" "skipped ($2)" - -)")
}

# capture FILE CMD [ARGS...]: one machine-information command, its output (and exit status if
# non-zero) in machine/FILE.
capture() {
  local file=$1
  shift
  timeout 20 "$@" >"$REC/machine/$file" 2>&1 || echo "(exit status $?)" >>"$REC/machine/$file"
}

machine_info() {
  capture nvidia-smi.txt nvidia-smi
  capture nvidia-smi-q.txt nvidia-smi -q
  capture nvidia-smi-L.txt nvidia-smi -L
  capture topo-m.txt nvidia-smi topo -m
  local cap
  for cap in r w n a; do capture "topo-p2p-$cap.txt" nvidia-smi topo -p2p "$cap"; done
  capture nvlink-s.txt nvidia-smi nvlink -s
  capture nvlink-c.txt nvidia-smi nvlink -c
  capture gpus.csv nvidia-smi --format=csv --query-gpu=index,name,pci.bus_id,\
pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,\
memory.total,clocks.max.sm,clocks.max.memory,power.limit,driver_version
  capture nvcc-version.txt "$NVCC" --version
  capture versions.txt "$PY" -c '
import sys, torch
print("python", sys.version.split()[0])
print("torch", torch.__version__, "cuda", torch.version.cuda)
try:
    v = torch.cuda.nccl.version()
    print("nccl", ".".join(map(str, v)) if isinstance(v, tuple) else v)
except Exception as e:
    print("nccl unavailable:", e)
for d in range(torch.cuda.device_count()):
    print("device", d, torch.cuda.get_device_properties(d))
try:
    import cupy
    print("cupy", cupy.__version__)
except ImportError:
    print("cupy not installed")'
  capture lscpu.txt lscpu
  capture numactl-H.txt numactl -H
  capture free-g.txt free -g
  capture df-dev-shm.txt df -h /dev/shm
  capture meminfo.txt cat /proc/meminfo
  capture date-u.txt date -u
  capture uname-a.txt uname -a
  capture nproc.txt nproc
  capture env.txt bash -c 'env | grep -E "^(NCCL|TORCH|NVSHMEM|CUDA)_" | sort'
}

# Builds both benchmarks in parallel; fails if either fails.
build() {
  "$NVCC" -O2 -arch=sm_90 -o "$BIN/copybench" "$HERE/copybench.cu" &
  local a=$!
  "$NVCC" -O2 -arch=sm_90 -o "$BIN/concurrency" "$HERE/concurrency.cu" &
  local b=$!
  local ra=0 rb=0
  wait "$a" || ra=$?
  wait "$b" || rb=$?
  local rh=0
  g++ -O2 -o "$BIN/hostcopy" "$HERE/hostcopy.cpp" || rh=$?
  echo "nvcc: copybench rc=$ra, concurrency rc=$rb; g++: hostcopy rc=$rh"
  ((ra == 0 && rb == 0))
}
export -f capture machine_info build

run_step machine 60 machine_info
if [[ "$NGPU" -eq 0 ]]; then
  skip_step build "no GPU"
else
  run_step build 120 build
  if [[ -x "$BIN/hostcopy" ]]; then
    # One thread on socket 0 with its local memory, as the driver's staging thread runs.
    if command -v numactl >/dev/null; then PIN=(numactl --cpunodebind=0 --membind=0); else PIN=(); fi
    run_step hostcopy 30 bash -c '"$@" > "$REC/hostcopy.csv"' hostcopy "${PIN[@]}" "$BIN/hostcopy" 1073741824 5
  else
    skip_step hostcopy "not built"
  fi
  if [[ -x "$BIN/copybench" ]]; then
    run_step copybench 150 "$BIN/copybench" --trace "$REC/copybench_trace.csv" \
      --summary "$REC/copybench_summary.csv" --reps-out "$REC/copybench_reps.csv"
  else
    skip_step copybench "not built"
  fi
  if [[ -x "$BIN/concurrency" ]]; then
    run_step concurrency 60 "$BIN/concurrency" --trace "$REC/concurrency_trace.csv" \
      --summary "$REC/concurrency_summary.csv"
  else
    skip_step concurrency "not built"
  fi
  # Ordered by value, so that a short budget loses the least useful steps.
  if [[ "$NGPU" -ge 2 ]]; then
    run_step nccl_default 75 "$PY" "$HERE/nccl_bench.py" --variant default --out "$REC" \
      --dump-topology
  else
    skip_step nccl_default "1 GPU"
  fi
  run_step torch_copy_train 100 "$PY" "$HERE/torch_traces.py" --out "$REC" --parts copy,train
  if [[ "$NGPU" -ge 2 ]]; then
    run_step torch_ddp 60 "$PY" "$HERE/torch_traces.py" --out "$REC" --parts ddp
    for variant in ring tree p2p_disable; do
      run_step "nccl_$variant" 60 "$PY" "$HERE/nccl_bench.py" --variant "$variant" --out "$REC"
    done
  else
    skip_step torch_ddp "1 GPU"
    for variant in ring tree p2p_disable; do skip_step "nccl_$variant" "1 GPU"; done
  fi
fi

# Summary: written into the archive and beside it.
GPU_NAMES=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
  sed 's/^ *//' | paste -sd ';')
{
  echo "linkcast ground-truth recording"
  echo "date:   $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "host:   $(uname -n), $NGPU GPU(s): $GPU_NAMES"
  echo "wall:   $((SECONDS - T0)) s of a ${BUDGET} s budget; $FAILED step(s) failed or timed out"
  echo
  printf '%-20s %-22s %5s %6s\n' step status wall limit
  printf '%s\n' "${STEP_LINES[@]}"
  echo
  timeout 10 "$PY" "$HERE/headline.py" "$REC" 2>&1 || echo "(headline numbers failed)"
} >"$REC/summary.txt"
cp "$REC/summary.txt" "$OUTDIR/summary.txt"

log "packing"
ARCHIVE="$OUTDIR/record.tar.gz"
if tar -C "$OUTDIR" -czf "$ARCHIVE" record && tar -tzf "$ARCHIVE" >/dev/null; then
  rm -rf "$REC"
  size=$(du -k "$ARCHIVE" | cut -f1)
  echo "archive: record.tar.gz, ${size} KiB" >>"$OUTDIR/summary.txt"
  if ((size > 15 * 1024)); then
    echo "WARNING: archive over 15 MiB; it may be too large to fetch" >>"$OUTDIR/summary.txt"
  fi
else
  echo "archive: FAILED; the files are left in $REC" >>"$OUTDIR/summary.txt"
fi
log "done"
cat "$OUTDIR/summary.txt"
