#!/usr/bin/env bash
# The ring/LL128 all-gathers of 8 MiB-1 GiB from CUDA graphs of 5, 20 and 80 calls
# (tests/data/real/h200-2gpu-nccl-issue*/ll128_iters.csv, tools/record/run_nccl_issue.sh): each
# session's time per call by calls per graph, the simulator's error on each, on the 2 x H200
# testbed node, and the host's time per call to launch the replay (issue_us): where that reaches
# the call's own time, the launch held the host until the GPUs were done (80 calls a graph), so
# the graph's kernels were fed as the GPUs freed room rather than queued at once.
# Usage: tools/results/ll128_iters.sh [FOLDER...] (default every h200-2gpu-nccl-issue* session).
# LINKCAST_VALIDATE=<binary> runs another build (default build/linkcast_validate_real).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
VALIDATE=${LINKCAST_VALIDATE:-build/linkcast_validate_real}
[ $# -gt 0 ] || set -- tests/data/real/h200-2gpu-nccl-issue*
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for folder in "$@"; do
  # The validator reads a folder's nccl_bench.csv; ll128_iters.csv has its columns.
  cp "$folder/ll128_iters.csv" "$work/nccl_bench.csv"
  "$VALIDATE" "$work" configs/testbed-h200-2gpu.yaml --min-bytes 0 --csv "$work/cases.csv" >/dev/null
  echo "$folder"
  python3 - "$folder/ll128_iters.csv" "$work/cases.csv" <<'PY'
import csv, sys
recorded = list(csv.DictReader(open(sys.argv[1])))
simulated = list(csv.DictReader(open(sys.argv[2])))  # the same rows, in order
table = {}
for rec, sim in zip(recorded, simulated):
    measured, model = float(sim["measured_ns"]), float(sim["simulated_ns"])
    table.setdefault(int(rec["bytes"]), {})[int(rec["iters"])] = (measured / 1e3, 100 * (model - measured) / measured,
                                                                  float(rec["issue_us"] or "nan"))
counts = sorted({c for row in table.values() for c in row})
print("| size | " + " | ".join(f"{c} calls: us a call (simulated; host's launch)" for c in counts) + " |")
print("|---|" + "---:|" * len(counts))
for nbytes, row in sorted(table.items()):
    cells = [f"{row[c][0]:.1f} ({row[c][1]:+.0f}%; {row[c][2]:.1f})" if c in row else "-" for c in counts]
    print(f"| {nbytes >> 20} MiB | " + " | ".join(cells) + " |")
PY
done
