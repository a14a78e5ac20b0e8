#!/usr/bin/env bash
# The honest replay of every real trace with kernels and runtime calls in tests/data/real: each
# replayed on the node of the machine that recorded it with its GPU work at its recorded durations
# (`linkcast simulate NODE TRACE --as-recorded`), a DDP job's ranks together. Prints folder, trace
# and the replayed span's error against the recorded span (issue 14: within 2% on every real
# trace, single- and multi-rank), then the largest |error|.
# LINKCAST=<binary> runs another build (default build/linkcast). MODEL_PRICES=1 replays with every
# copy and collective priced by the model instead (`simulate NODE TRACE`, no --as-recorded): the
# replay's figures for the transfer model rather than for the replay itself.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LINKCAST=${LINKCAST:-build/linkcast}
node_of() {
  case $1 in
    h100-1gpu-apps* | h100-1gpu-matrix) echo configs/testbed-h100-1gpu-apps.yaml ;;
    h200-1gpu-apps* | h200-1gpu-matrix) echo configs/testbed-h200-1gpu-apps.yaml ;;
    h100-1gpu*) echo configs/testbed-h100-1gpu.yaml ;;
    h200-1gpu*) echo configs/testbed-h200-1gpu.yaml ;;
    h200-2gpu*) echo configs/testbed-h200-2gpu.yaml ;;
    h200-4gpu*) echo configs/testbed-h200-4gpu.yaml ;;
  esac
}
for dir in tests/data/real/*/; do
  folder=$(basename "$dir")
  node=$(node_of "$folder")
  [ -n "$node" ] || continue
  # Traces named ..rank<r>.. in the folder, and run_ddp_apps.sh's job folders (app_<name>/rank<r>).
  # A job folder without rank files (tensorboard_trace_handler's windows of one process) is passed whole.
  for trace in "$dir"*.json.gz "$dir"*/rank0.json.gz "$dir"*/; do
    if [ -d "$trace" ]; then
      [ -f "${trace}rank0.json.gz" ] && continue
      compgen -G "${trace}*.json.gz" >/dev/null || continue
      trace=${trace%/}
    fi
    [ -e "$trace" ] || continue
    case $trace in *rank[1-9]*) continue ;; esac  # read with its rank 0
    files=("$trace")
    if [[ $trace == *rank0* ]]; then
      for other in "${trace%%rank0*}"rank[1-9]"${trace##*rank0}"; do
        [ -f "$other" ] && files+=("$other")
      done
    fi
    as_recorded=(--as-recorded)
    [[ ${MODEL_PRICES:-0} == 1 ]] && as_recorded=()
    line=$("$LINKCAST" simulate "$node" "${files[@]}" "${as_recorded[@]}" 2>/dev/null | grep -m1 "^Application replay" || true)
    [ -n "$line" ] || continue  # no kernels or runtime calls: nothing to replay
    error=$(sed 's/.*replayed (\([-+0-9.]*\)%).*/\1/' <<<"$line")
    echo "$folder ${trace#"$dir"} ${error}%"
  done
done | awk '{ print; e = $3 + 0; if (e < 0) e = -e; if (e > worst) worst = e; sum += e; if (e > 2) ++past; ++n }
            END { printf "%d traces, largest |error| %g%%, mean |error| %.2f%%, %d past 2%%\n", n, worst, sum / n, past }'
