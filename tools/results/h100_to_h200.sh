#!/usr/bin/env bash
# Reproduces the README's H100 -> H200 projection table: traces recorded on the 1 x H100 machine
# projected onto an H200 machine (TARGET: h200-2gpu, the default, or h200-1gpu) and scored
# against the same recordings made there (tests/data/real). WMAPE per model, overall and per kind.
# Usage: tools/results/h100_to_h200.sh [TARGET]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
R=tests/data/real
TARGET=${1:-h200-2gpu}
echo "| trace | kind | ops | default | ahead | peak | envelope |"
echo "|---|---|---:|---:|---:|---:|---:|"
for t in copybench_trace.csv.gz torch_copy_sweep.json.gz torch_train_pinned.json.gz torch_train_pageable.json.gz; do
  build/linkcast project --from configs/testbed-h100-1gpu.yaml --to "configs/testbed-$TARGET.yaml" \
    "$R/h100-1gpu/$t" --actual "$R/$TARGET/$t" --format json |
    python3 -c "
import json, sys
j = json.load(sys.stdin)
models = ['default', 'ahead', 'peak', 'envelope']
print('| $t | **all** | %d | ' % j['matched_ops'] + ' | '.join('**%.1f%%**' % j['models'][m]['wmape_pct'] for m in models) + ' |')
for kind, v in j['by_kind'].items():
    if 'wmape_pct' in v['default']:
        print('| | %s | %d | ' % (kind, v['default']['matched_ops']) + ' | '.join('%.1f%%' % v[m]['wmape_pct'] for m in models) + ' |')"
done
