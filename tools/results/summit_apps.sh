#!/usr/bin/env bash
# Reproduces the README's "Summit applications onto HGX H100 and GB200 NVL72" table: the AHEAD
# LAMMPS and MiniFE traces recorded on Summit, projected onto Summit itself (a self-check), onto
# hgx-h100 and onto gb200-nvl72 under `default` and `ahead`. Needs build/linkcast and
# ../shared/data/ahead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
D=../shared/data/ahead/Summit_Data/Applications_Traces
total() {  # total TO MODEL TRACE: projected seconds
  build/linkcast project --from configs/summit.yaml --to "configs/$1.yaml" "$3" --model "$2" --format json |
    python3 -c "import json, sys; print(json.load(sys.stdin)['models']['$2']['projected_total_s'])"
}
fmt() { python3 -c "import sys; v = float(sys.argv[1]); print('%.3f s' % v if v >= 0.1 else '%.1f ms' % (v * 1e3))" "$1"; }
echo "| trace | measured on Summit | → Summit (self-check) default | → hgx-h100 default / ahead | → gb200-nvl72 default / ahead |"
echo "|---|---:|---:|---:|---:|"
for app in lammps minife; do
  trace=$(ls "$D/$app"/*.nvvp)
  measured=$(build/linkcast project --from configs/summit.yaml --to configs/summit.yaml "$trace" --model default \
    --format json | python3 -c "import json, sys; print(json.load(sys.stdin)['source_total_s'])")
  row="| $app | $(fmt "$measured") | $(fmt "$(total summit default "$trace")")"
  for node in hgx-h100 gb200-nvl72; do
    row+=" | $(fmt "$(total $node default "$trace")") / $(fmt "$(total $node ahead "$trace")")"
  done
  echo "$row |"
done
