#!/usr/bin/env bash
# Reproduces the README's H100 -> H200 projection tables: traces recorded on an H100 machine
# projected onto an H200 machine and scored against the same recordings made there
# (tests/data/real). WMAPE per model (`measured`: each operation keeps its source time), overall and
# per kind. Usage: tools/results/h100_to_h200.sh [TARGET]
#   TARGET h200-2gpu (default) or h200-1gpu: the 2026-11-21 sessions, from h100-1gpu;
#   TARGET apps: the 2026-11-23 sessions, h100-1gpu-apps onto h200-1gpu-apps (the last four apps
#   were held out of every decision of issue 13);
#   TARGET apps2: the 2026-11-26 sessions, h100-1gpu-apps2 onto h200-1gpu-apps2, with the nodes of
#   the 2026-11-23 sessions (testbed-*-apps.yaml): recordings held out of every decision, scored once.
#   TARGET apps3: the 2026-11-27 sessions (tools/record/run_sweeps_and_apps.sh), h100-1gpu-apps3 onto
#   h200-1gpu-apps3 with the same nodes: the copy sweep before and after the apps, the training
#   loops and the apps, held out of every decision, scored once.
#   TARGET apps3-2gpu: the same H100 session onto the 2 x H200 machine recorded 20 minutes later
#   (h200-2gpu-apps3, node testbed-h200-2gpu: the same host hardware), held out.
#   TARGET apps6: the 2026-11-28 sessions (run_sweeps_and_apps.sh), h100-1gpu-apps6 onto h200-1gpu-apps6
#   with the same nodes, held out and scored once (the traces that fit the repository).
#   TARGET sessions: the same machine kind in two sessions (h100-1gpu-apps onto h100-1gpu-apps2 and
#   h200-1gpu-apps onto h200-1gpu-apps2, each node onto itself): how far `measured` is off where no
#   hardware changes.
# LINKCAST=<binary> runs another build (default build/linkcast), to compare two.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
R=tests/data/real
TARGET=${1:-h200-2gpu}
APPS="app_ckpt_fresh.json.gz app_ckpt_reuse.json.gz app_train_pageable.json.gz app_train_pinned.json.gz app_gpt_mixed.json.gz app_offload_pinned.json.gz app_prefetch_overlap.json.gz app_d2d_beside_compute.json.gz"
# Each pair: source data folder, target data folder, source node, target node.
if [ "$TARGET" = apps ]; then
  PAIRS="h100-1gpu-apps:h200-1gpu-apps:h100-1gpu-apps:h200-1gpu-apps"
  TRACES="copybench_trace.csv.gz torch_copy_sweep.json.gz $APPS"
elif [ "$TARGET" = apps2 ]; then
  PAIRS="h100-1gpu-apps2:h200-1gpu-apps2:h100-1gpu-apps:h200-1gpu-apps"
  TRACES=$APPS
elif [ "$TARGET" = apps3 ]; then
  PAIRS="h100-1gpu-apps3:h200-1gpu-apps3:h100-1gpu-apps:h200-1gpu-apps"
  TRACES="torch_copy_sweep.json.gz torch_copy_sweep_after.json.gz torch_train_pinned.json.gz torch_train_pageable.json.gz $APPS"
elif [ "$TARGET" = apps3-2gpu ]; then
  PAIRS="h100-1gpu-apps3:h200-2gpu-apps3:h100-1gpu-apps:h200-2gpu"
  TRACES="torch_copy_sweep.json.gz torch_copy_sweep_after.json.gz torch_train_pinned.json.gz torch_train_pageable.json.gz $APPS"
elif [ "$TARGET" = apps6 ]; then
  PAIRS="h100-1gpu-apps6:h200-1gpu-apps6:h100-1gpu-apps:h200-1gpu-apps"
  TRACES="torch_copy_sweep.json.gz app_ckpt_fresh.json.gz app_ckpt_reuse.json.gz app_train_pageable.json.gz app_train_pinned.json.gz app_prefetch_overlap.json.gz app_d2d_beside_compute.json.gz app_d2d_many_beside.json.gz app_recsys_embed.json.gz"
elif [ "$TARGET" = sessions ]; then
  PAIRS="h100-1gpu-apps:h100-1gpu-apps2:h100-1gpu-apps:h100-1gpu-apps h200-1gpu-apps:h200-1gpu-apps2:h200-1gpu-apps:h200-1gpu-apps"
  TRACES=$APPS
else
  PAIRS="h100-1gpu:$TARGET:h100-1gpu:$TARGET"
  TRACES="copybench_trace.csv.gz torch_copy_sweep.json.gz torch_train_pinned.json.gz torch_train_pageable.json.gz"
fi
echo "| trace | kind | ops | measured | default | ahead | peak | envelope |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for pair in $PAIRS; do
IFS=: read -r SRC TGT SRC_NODE TGT_NODE <<<"$pair"
[ "$TARGET" = sessions ] && echo "| $SRC -> $TGT | | | | | | | |"
for t in $TRACES; do
  "${LINKCAST:-build/linkcast}" project --from "configs/testbed-$SRC_NODE.yaml" --to "configs/testbed-$TGT_NODE.yaml" \
    "$R/$SRC/$t" --actual "$R/$TGT/$t" --format json 2>/dev/null |
    python3 -c "
import json, sys
j = json.load(sys.stdin)
models = ['measured', 'default', 'ahead', 'peak', 'envelope']
print('| $t | **all** | %d | ' % j['matched_ops'] + ' | '.join('**%.1f%%**' % j['models'][m]['wmape_pct'] for m in models) + ' |')
for kind, v in j['by_kind'].items():
    if 'wmape_pct' in v['default']:
        print('| | %s | %d | ' % (kind, v['default']['matched_ops']) + ' | '.join('%.1f%%' % v[m]['wmape_pct'] for m in models) + ' |')"
done
done
