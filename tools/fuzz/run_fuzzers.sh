#!/usr/bin/env bash
# Runs every libFuzzer target of a -DLINKCAST_FUZZ=ON build for a bounded time on its seeds
# (tests/data/fuzz/seeds/<target>/) under ASan + UBSan, two at a time, then triages what crashed:
# a crash whose first project frame is in a file another engineer owns (OWNED_ELSEWHERE below: their
# bugs are listed in tests/data/fuzz/regressions/OPEN) is reported; any other fails the run, with
# the input to keep in tests/data/fuzz/regressions/<target>/.
#
#   tools/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS_PER_TARGET=60] [WORK_DIR] [TARGETS...]
#
# Prints per target: executions, seconds, corpus size, crashes (known / new). Exit 1 on a new crash.
set -uo pipefail
BUILD=${1:?build dir of -DLINKCAST_FUZZ=ON}
SECONDS_PER_TARGET=${2:-60}
WORK=${3:-$(mktemp -d /tmp/linkcast-fuzz-run.XXXXXX)}
shift $(( $# < 3 ? $# : 3 ))
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
  TARGETS=(csv kineto profiler_db nccl_xml smi_topo node_yaml study_yaml workload)
fi
# Files whose bugs belong to other engineers (issue 16, "Not yours").
OWNED_ELSEWHERE='topology/import\.cpp|trace/profiler_db\.cpp|trace/kineto\.cpp|trace/trace\.(cpp|hpp)|core/yaml\.(cpp|hpp)|projection/|model/'
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$WORK"

run_target() {
  local t=$1 bin="$BUILD/fuzz/linkcast_fuzz_$1"
  mkdir -p "$WORK/corpus/$t" "$WORK/artifacts/$t"
  nice -n 10 "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -max_len=65536 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$WORK/artifacts/$t/" "$WORK/corpus/$t" "$ROOT/tests/data/fuzz/seeds/$t" \
    >"$WORK/$t.log" 2>&1
}
export -f run_target
export BUILD WORK ROOT SECONDS_PER_TARGET
printf '%s\n' "${TARGETS[@]}" | xargs -P 2 -I{} bash -c 'run_target {}'

new=0
printf '%-12s %12s %8s %8s %8s %8s\n' target executions seconds corpus known new
for t in "${TARGETS[@]}"; do
  stats=$(grep -E '^#[0-9]+: cov:' "$WORK/$t.log" | tail -1)
  execs=$(sed -nE 's/^#([0-9]+): .*/\1/p' <<<"$stats")
  secs=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$stats")
  corpus=$(find "$WORK/corpus/$t" -type f | wc -l)
  known=0 fresh=0
  for a in "$WORK/artifacts/$t"/*; do
    [[ -f $a ]] || continue
    report=$(ASAN_OPTIONS=$ASAN_OPTIONS:symbolize=1 timeout 120 "$BUILD/fuzz/linkcast_fuzz_$t" -timeout=20 \
      -rss_limit_mb=2048 -malloc_limit_mb=2048 "$a" 2>&1)
    frame=$(grep -E '^\s+#[0-9]+ .* in .*'"$ROOT"'/' <<<"$report" | grep -vE '/fuzz/|/tests/' | head -1)
    if grep -qE "$OWNED_ELSEWHERE" <<<"$frame"; then
      known=$((known + 1))
      echo "known ($t): $a: ${frame##* in }" >>"$WORK/triage.txt"
    else
      fresh=$((fresh + 1))
      echo "NEW ($t): $a: ${frame##* in }" >>"$WORK/triage.txt"
      grep -m3 -E 'ERROR|runtime error|SUMMARY|deadly|timeout|out-of-memory' <<<"$report" | sed 's/^/    /' >>"$WORK/triage.txt"
    fi
  done
  new=$((new + fresh))
  printf '%-12s %12s %8s %8s %8s %8s\n' "$t" "${execs:-?}" "${secs:-?}" "$corpus" "$known" "$fresh"
done
[[ -f $WORK/triage.txt ]] && cat "$WORK/triage.txt"
echo "fuzz work folder: $WORK"
if ((new > 0)); then
  echo "fuzz: $new new crash(es): fix them and keep each input in tests/data/fuzz/regressions/<target>/" >&2
  exit 1
fi
