#!/usr/bin/env bash
# Reproduces the README's "every NCCL collective recorded on 2 and 4 x H200 from 1 MiB" rows:
# linkcast_validate_real on every NCCL sweep folder of tests/data/real, each on its testbed node,
# with calls from 1 MiB in the summary (about 15 minutes on 2 cores, 2026-11-30). Usage:
#   tools/results/collectives_all.sh [CSV]   (CSV default /tmp/collectives_all.csv)
# The summary's "every NCCL call" and "the host's pace recorded or none" lines are the rows; the
# CSV holds every case (all sizes) for tools/results/validation_diff.py BEFORE.csv AFTER.csv.
# VALIDATE=<binary> runs another build (default build/linkcast_validate_real), to compare two.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
VALIDATE=${VALIDATE:-build/linkcast_validate_real}
CSV=${1:-/tmp/collectives_all.csv}
R=tests/data/real
args=()
for d in h200-2gpu h200-4gpu h200-2gpu-nccl h200-2gpu-nccl-graph h200-2gpu-nccl-graph2 h200-2gpu-nccl-issue \
  h200-2gpu-nccl-issue2 h200-4gpu-nccl-graph h200-4gpu-nccl-graph2 h200-4gpu-nccl-small h200-4gpu-nccl-small2 \
  h200-2gpu-channels h200-4gpu-channels h200-2gpu-channels2 h200-2gpu-channels-large h200-4gpu-channels-large \
  h200-4gpu-treechain h200-4gpu-treescale h200-2gpu-ceiling h200-4gpu-ceiling h200-2gpu-nccl-eager \
  h200-2gpu-nccl-eager2; do
  case $d in
    h200-2gpu*) node=configs/testbed-h200-2gpu.yaml ;;
    *) node=configs/testbed-h200-4gpu.yaml ;;
  esac
  args+=("$R/$d" "$node")
done
"$VALIDATE" "${args[@]}" --min-bytes 1MiB --csv "$CSV" | sed -n '/^geometric mean/,$p' | grep -E "all machines|GPUs: NCCL (graph )?>="
echo "every case: $CSV"
