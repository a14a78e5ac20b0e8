#!/usr/bin/env bash
# Reproduces the README's "Titan → Summit: beating AHEAD on its own data" table: each Titan bandwidthTest trace projected onto
# Summit and scored against the Summit trace of the same test, WMAPE per model for the pair's
# transfer kind. Needs build/linkcast and ../shared/data/ahead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
D=../shared/data/ahead
echo "| pair | kind | default | ahead | peak | envelope |"
echo "|---|---|---:|---:|---:|---:|"
for pair in htod-pinned:h2d_pinned dtoh-pinned:d2h_pinned htod-pageable:h2d_pageable dtoh-pageable:d2h_pageable dtod:d2d; do
  test=${pair%%:*}
  kind=${pair##*:}
  build/linkcast project --from configs/titan.yaml --to configs/summit.yaml \
    "$D/Titan_Data/Bandwidth_Benchmarking/profiler-bandwidth-output-$test.nvvp" \
    --actual "$D/Summit_Data/Bandwidth_Benchmarking/sqlite/profiler-bandwidth-output-$test.nvvp" --format json |
    python3 -c "
import json, sys
j = json.load(sys.stdin)['by_kind']['$kind']
print('| $test | $kind | ' + ' | '.join('%.2f%%' % j[m]['wmape_pct'] for m in ['default', 'ahead', 'peak', 'envelope']) + ' |')"
done
