#!/usr/bin/env bash
# large_report.sh [N] [OUT_DIR]: the report's large-input figures (docs/report.md).
#
# Writes a linkcast CSV trace of N operations (default 10,000,000) on the 8 GPUs of a DGX-1:
# device-initiated peer loads (80%) spread over 100,000 data objects and 50,000 source lines,
# pinned and pageable host copies with measured durations (18%), memsets (2%), and an 8-rank
# NCCL allreduce every 100,000 operations. Then it times `linkcast report` on it (with --to), and
# opens the page in headless Chromium: --dump-dom reads the render time the page's script writes
# (performance.now() after a forced layout), and a screenshot is saved. Needs awk, GNU time is
# optional. Not part of `ctest` (a few minutes on 2 cores); the browser test checks 1 M ops.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
N=${1:-10000000}
OUT=${2:-build/report-large}
LINKCAST=${LINKCAST:-build/linkcast}
CHROMIUM=${LINKCAST_CHROMIUM:-chromium}
mkdir -p "$OUT"
TRACE="$OUT/mixed-$N.csv"
PAGE="$OUT/mixed-$N.html"

if [[ ! -s "$TRACE" ]]; then
  echo "writing $TRACE ($N operations)"
  awk -v n="$N" 'BEGIN {
    srand(1)
    print "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,object,line,comm,issuer"
    i = 0
    while (i < n) {
      if (i % 100000 == 99992 && i + 8 <= n) {           # one allreduce call: a record per rank
        for (r = 0; r < 8; r++)
          printf "allreduce,gpu%d,gpu%d,67108864,,,,,%d,0-7,grads (train.py:88),train.py:90,world,\n", r, r, 100 + r
        i += 8
        continue
      }
      u = rand()
      g = int(rand() * 8)
      if (u < 0.80) {                                     # peer load by gpu g from another GPU
        h = (g + 1 + int(rand() * 7)) % 8
        o = int(rand() * 100000)
        printf "access,gpu%d,gpu%d,%d,,,,,%d,,buf%d (app.cu:%d),app.cu:%d,,gpu%d\n", h, g, 128 * (1 + int(rand() * 8)), g, o, 100 + o % 400, 1000 + int(rand() * 50000), g
      } else if (u < 0.98) {                              # host copies with measured durations
        b = 2 ^ int(rand() * 24)
        mem = rand() < 0.5 ? "pinned" : "pageable"
        if (rand() < 0.5) printf "copy,cpu%d,gpu%d,%d,%s,device,,%d,%d,,input (load.py:12),load.py:14,,\n", int(g / 4), g, b, mem, 2000 + b / 20, 16 + g
        else printf "copy,gpu%d,cpu%d,%d,device,%s,,%d,%d,,output (save.py:7),save.py:9,,\n", g, int(g / 4), b, mem, 2000 + b / 20, 16 + g
      } else {
        printf "memset,gpu%d,gpu%d,4096,,,,,%d,,scratch (app.cu:50),app.cu:51,,\n", g, g, g
      }
      i++
    }
  }' > "$TRACE"
fi
echo "trace: $(wc -l < "$TRACE") lines, $(du -h "$TRACE" | cut -f1)"

cmd=("$LINKCAST" report "$TRACE" --node configs/dgx1-v100.yaml --to configs/hgx-h100.yaml -o "$PAGE")
echo "\$ ${cmd[*]}"
if command -v /usr/bin/time >/dev/null; then
  /usr/bin/time -f "generation: %e s wall, %M KiB peak memory" "${cmd[@]}" 2>&1 | grep -v "warning" || true
else
  start=$(date +%s.%N); "${cmd[@]}" 2>/dev/null; end=$(date +%s.%N)
  echo "generation: $(echo "$end - $start" | bc) s wall"
fi
bytes=$(stat -c %s "$PAGE")
echo "page: $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.2f MB", b / 1e6 }'))"

if ! command -v "$CHROMIUM" >/dev/null; then
  echo "chromium not found: render time not measured"
  exit 0
fi
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync)
url="file://$(realpath "$PAGE")"
for run in 1 2 3; do
  profile=$(mktemp -d)
  start=$(date +%s%N)
  dom=$("$CHROMIUM" "${flags[@]}" --user-data-dir="$profile" --dump-dom "$url" 2>/dev/null)
  end=$(date +%s%N)
  rm -rf "$profile"
  ms=$(grep -o 'id="render-ms">[0-9]*' <<<"$dom" | grep -o '[0-9]*$')
  nodes=$(grep -o 'id="dom-nodes">[0-9]*' <<<"$dom" | grep -o '[0-9]*$')
  status=$(grep -o 'data-rendered="[a-z]*"' <<<"$dom" | head -1)
  echo "render $run: laid out ${ms} ms after navigation (page script), ${nodes} elements, $status; chromium --dump-dom $(((end - start) / 1000000)) ms in all"
done
profile=$(mktemp -d)
"$CHROMIUM" "${flags[@]}" --user-data-dir="$profile" --hide-scrollbars --screenshot="$OUT/mixed-$N.png" --window-size=1400,3000 "$url" 2>/dev/null
rm -rf "$profile"
echo "screenshot: $OUT/mixed-$N.png"
