# record_lib.sh: shared by the run_*.sh recording scripts
# (source it; not a program): the preamble, step runner, machine capture and packing of every recording.
#
# The caller sets HERE (this folder), sources this file and calls start_record (OUTDIR, REC,
# REPO, NVCC, PY and the environment of every recording), or sets OUTDIR (absolute), REC (staging
# folder, becomes record/ in the archive), NVCC and PY itself; then BUDGET (seconds) and
# optionally LOG_TAG (prefix of progress lines). It then calls run_step / skip_step for its
# steps and finish_record at the end.

T0=$SECONDS
PACK_RESERVE=${PACK_RESERVE:-15}  # seconds kept back for the summary and the archive
KILL_AFTER=5                      # grace between a step's SIGTERM and SIGKILL
STEP_LINES=()
FAILED=0

log() { printf '[%s %4ds] %s\n' "${LOG_TAG:-record}" $((SECONDS - T0)) "$*"; }

# start_record SCRIPT ARGS...: checks that ARGS is one OUTDIR, makes it (OUTDIR: its absolute
# path) with an empty staging folder REC (machine/, logs/), and exports what every recording runs
# under: NVLink multicast off (shared multi-GPU hosts), CUDA devices in PCI bus order (as
# nvidia-smi and NCCL's topology number them), unbuffered Python, NVCC and PY.
start_record() {
  local script=$1
  shift
  if [[ $# -ne 1 ]]; then
    echo "usage: bash $script OUTDIR" >&2
    exit 2
  fi
  mkdir -p "$1" || exit 1
  OUTDIR=$(cd "$1" && pwd)
  REPO=$(cd "$HERE/../.." && pwd)
  REC="$OUTDIR/record"
  rm -rf "$REC" "$OUTDIR/record.tar.gz" "$OUTDIR/summary.txt"
  mkdir -p "$REC/machine" "$REC/logs"
  export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
  export CUDA_DEVICE_ORDER=PCI_BUS_ID
  export PYTHONUNBUFFERED=1
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  PY=${PYTHON:-python3}
  export OUTDIR REC HERE REPO NVCC PY
}

# write_command SCRIPT [LINE...]: record/command.txt, what package.py reads back: the command, the
# script, the commit, each LINE as given (e.g. "budget:  540 s"), and the start time.
write_command() {
  local script=$1
  shift
  {
    echo "command: bash tools/record/$script OUTDIR"
    echo "script:  $script"
    echo "commit:  $(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)"
    local line
    for line in "$@"; do echo "$line"; done
    echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  } >"$REC/command.txt"
}

# The GPUs this machine has: nvidia-smi's list, else what PyTorch sees, else 0.
gpu_count() {
  local n
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  if [[ "$n" -eq 0 ]]; then n=$("$PY" -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0); fi
  echo "$n"
}

# Seconds a step started now may run: what is left of the budget after the reserve.
time_left() { echo $((BUDGET - (SECONDS - T0) - PACK_RESERVE - KILL_AFTER)); }

# run_step NAME CAP CMD [ARGS...]: runs CMD (a program or an exported function) with its output
# in logs/NAME.log, limited to CAP seconds and to what is left of the budget.
run_step() {
  local name=$1 cap=$2
  shift 2
  local left
  left=$(time_left)
  if ((left < 10)); then
    log "skip  $name: budget spent"
    STEP_LINES+=("$(printf '%-20s %-22s %5s %6s' "$name" "skipped (no time)" - -)")
    FAILED=$((FAILED + 1))
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
    tail -n 8 "$REC/logs/$name.log" | sed 's/^/    | /'
  fi
  STEP_LINES+=("$(printf '%-20s %-22s %4ds %5ds' "$name" "$status" "$took" "$limit")")
}

# begin_nccl_record SCRIPT DEFAULT_BUDGET CALLS OUTDIR: the start every NCCL recording shares:
# start_record, BUDGET (RECORD_BUDGET_S or DEFAULT_BUDGET), LOG_TAG, command.txt with CALLS, NGPU,
# and the machine step. Returns 1 (with the nccl step skipped) on fewer than two GPUs; else exports
# NCCL's debug subsystems for the steps that follow.
begin_nccl_record() {
  local script=$1 budget=$2 calls=$3
  shift 3
  start_record "$script" "$@"
  BUDGET=${RECORD_BUDGET_S:-$budget}
  LOG_TAG=${script%.sh}
  write_command "$script" "budget:  ${BUDGET} s" "calls:   $calls"
  NGPU=$(gpu_count)
  log "output $OUTDIR, $NGPU GPU(s), budget ${BUDGET}s"
  run_step machine 60 machine_info
  if [[ "$NGPU" -lt 2 ]]; then
    skip_step nccl "$NGPU GPU"
    return 1
  fi
  export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,ENV
}

# run_warm_and_cold NAME ARGS...: one nccl_bench.py run with ARGS as step NAME (every call of a
# size on one set of buffers, which stays in the L2 where it fits) and again as NAME_cold with a
# new set each call (--cold 512M), 60 s each.
run_warm_and_cold() {
  local name=$1
  shift
  run_step "$name" 60 "$PY" "$HERE/nccl_bench.py" "$@"
  run_step "${name}_cold" 60 "$PY" "$HERE/nccl_bench.py" "$@" --cold 512M
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

# The same list as run_all.sh, plus the kernel's huge-page and overcommit settings (they decide
# the cost of page faults in fresh host memory).
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
  capture thp.txt bash -c 'for f in /sys/kernel/mm/transparent_hugepage/enabled \
/sys/kernel/mm/transparent_hugepage/defrag /proc/sys/vm/overcommit_memory \
/proc/sys/vm/max_map_count; do echo "$f: $(cat "$f" 2>&1)"; done'
}
export -f capture machine_info

# block_copy_runs CSV "ARGS" [CSV "ARGS" ...]: builds tools/record/block_copy.cu (per-block copy
# rates within a GPU and into its peer) into $REC, runs it once per pair with ARGS (split as
# words) into $REC/CSV, and removes the binary; the first failure's status. For run_step.
block_copy_runs() {
  "$NVCC" -O3 -arch=sm_90 -o "$REC/block_copy" "$HERE/block_copy.cu" || return $?
  local rc=0
  while (($# >= 2)); do
    # shellcheck disable=SC2086
    "$REC/block_copy" $2 >"$REC/$1" || { rc=$?; break; }
    shift 2
  done
  rm -f "$REC/block_copy"
  return $rc
}
export -f block_copy_runs

# run_hostrates_step BINARY: the host-rate probe (tools/record/hostrates_main.cpp, built by the
# caller) as step `hostrates`, into hostrates.csv and hostrates_info.csv: one thread on NUMA node 0
# with its local memory, as the driver's staging thread runs, where numactl can pin it.
run_hostrates_step() {
  local bin=$1
  if [[ ! -x "$bin" ]]; then
    skip_step hostrates "not built"
    return
  fi
  local pin=()
  if command -v numactl >/dev/null && numactl --cpunodebind=0 --membind=0 true 2>/dev/null; then
    pin=(numactl --cpunodebind=0 --membind=0)
  fi
  run_step hostrates 60 bash -c '"$@" > "$REC/hostrates.csv"' hostrates "${pin[@]}" \
    "$bin" --info "$REC/hostrates_info.csv"
}

# finish_record TITLE HEADLINE_CMD...: writes summary.txt (into the archive and beside it), packs
# REC into OUTDIR/record.tar.gz and removes REC when the archive reads back.
finish_record() {
  local title=$1
  shift
  local ngpu gpu_names
  ngpu=$(gpu_count)
  gpu_names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
    sed 's/^ *//' | paste -sd ';')
  {
    echo "$title"
    echo "date:   $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:   $(uname -n), $ngpu GPU(s): $gpu_names"
    echo "wall:   $((SECONDS - T0)) s of a ${BUDGET} s budget; $FAILED step(s) failed, timed out or skipped for time"
    echo
    printf '%-20s %-22s %5s %6s\n' step status wall limit
    printf '%s\n' "${STEP_LINES[@]}"
    echo
    if (($# > 0)); then timeout 20 "$@" 2>&1 || echo "(headline numbers failed)"; fi
  } >"$REC/summary.txt"
  cp "$REC/summary.txt" "$OUTDIR/summary.txt"

  log "packing"
  local archive="$OUTDIR/record.tar.gz" size
  if tar -C "$OUTDIR" -czf "$archive" record && tar -tzf "$archive" >/dev/null; then
    rm -rf "$REC"
    size=$(du -k "$archive" | cut -f1)
    echo "archive: record.tar.gz, ${size} KiB" >>"$OUTDIR/summary.txt"
    if ((size > 15 * 1024)); then
      echo "WARNING: archive over 15 MiB; it may be too large to fetch" >>"$OUTDIR/summary.txt"
    fi
  else
    echo "archive: FAILED; the files are left in $REC" >>"$OUTDIR/summary.txt"
  fi
  log "done"
  cat "$OUTDIR/summary.txt"
}
