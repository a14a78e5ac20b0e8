#!/usr/bin/env bash
# Runs every libFuzzer target of a -DLINKCAST_FUZZ=ON build for a bounded time on its seeds
# (tests/data/fuzz/seeds/<target>/) under ASan + UBSan, then replays what it kept: any crash, hang
# (over 20 s) or allocation past 2 GiB fails the run, with the input to fix and keep in
# tests/data/fuzz/regressions/<target>/. An input that runs 10 to 20 s (libFuzzer's slow-unit-*)
# is listed as slow, not failing: the bar is 20 s.
#
#   tools/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS_PER_TARGET=60] [WORK_DIR] [TARGETS...]
#
# FUZZ_PARALLEL targets run at once (default 2), each with FUZZ_WORKERS libFuzzer workers sharing
# its corpus (default 1): a target's fuzzing time is SECONDS_PER_TARGET x FUZZ_WORKERS CPU-seconds.
# A WORK_DIR of an earlier run continues from the corpus it grew. Prints per target: executions,
# seconds, corpus size, failing inputs. Exit 1 on any.
set -uo pipefail
BUILD=${1:?build dir of -DLINKCAST_FUZZ=ON}
SECONDS_PER_TARGET=${2:-60}
WORK=${3:-$(mktemp -d /tmp/linkcast-fuzz-run.XXXXXX)}
shift $(( $# < 3 ? $# : 3 ))
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
  TARGETS=(csv kineto profiler_db nccl_xml smi_topo nccl_tests node_yaml study_yaml workload)
fi
PARALLEL=${FUZZ_PARALLEL:-2}
WORKERS=${FUZZ_WORKERS:-1}
# The targets read configs/ and tests/ from this tree, wherever the binaries were built.
export LINKCAST_SOURCE_DIR=$ROOT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$WORK"

run_target() {
  local t=$1 bin="$BUILD/fuzz/linkcast_fuzz_$1"
  mkdir -p "$WORK/corpus/$t" "$WORK/artifacts/$t"
  nice -n 10 "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=20 -report_slow_units=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -max_len=65536 -fork="$WORKERS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$WORK/artifacts/$t/" "$WORK/corpus/$t" "$ROOT/tests/data/fuzz/seeds/$t" \
    >"$WORK/$t.log" 2>&1
}
export -f run_target
export BUILD WORK ROOT SECONDS_PER_TARGET WORKERS
printf '%s\n' "${TARGETS[@]}" | xargs -P "$PARALLEL" -I{} bash -c 'run_target {}'

failed=0
printf '%-12s %12s %8s %8s %8s %6s\n' target executions seconds corpus failing slow
for t in "${TARGETS[@]}"; do
  stats=$(grep -E '^#[0-9]+: cov:' "$WORK/$t.log" | tail -1)
  execs=$(sed -nE 's/^#([0-9]+): .*/\1/p' <<<"$stats")
  secs=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$stats")
  corpus=$(find "$WORK/corpus/$t" -type f | wc -l)
  failing=0
  slow=0
  for a in "$WORK/artifacts/$t"/*; do
    [[ -f $a ]] || continue
    if [[ $(basename "$a") == slow-unit-* ]]; then
      slow=$((slow + 1))
      echo "$t: $a: slow (10 to 20 s): $(head -c 120 "$a" | tr -c '[:print:]' '?')" >>"$WORK/triage.txt"
      continue
    fi
    failing=$((failing + 1))
    report=$(ASAN_OPTIONS=$ASAN_OPTIONS:symbolize=1 timeout 120 "$BUILD/fuzz/linkcast_fuzz_$t" -timeout=20 \
      -rss_limit_mb=2048 -malloc_limit_mb=2048 "$a" 2>&1)
    frame=$(grep -E '^\s+#[0-9]+ .* in .*'"$ROOT"'/' <<<"$report" | grep -vE '/fuzz/|/tests/' | head -1)
    echo "$t: $a: ${frame##* in }" >>"$WORK/triage.txt"
    grep -m3 -E 'ERROR|runtime error|SUMMARY|deadly|timeout|out-of-memory' <<<"$report" | sed 's/^/    /' >>"$WORK/triage.txt"
  done
  failed=$((failed + failing))
  printf '%-12s %12s %8s %8s %8s %6s\n' "$t" "${execs:-?}" "${secs:-?}" "$corpus" "$failing" "$slow"
done
[[ -f $WORK/triage.txt ]] && cat "$WORK/triage.txt"
echo "fuzz work folder: $WORK"
if ((failed > 0)); then
  echo "fuzz: $failed failing input(s): fix each and keep it in tests/data/fuzz/regressions/<target>/" >&2
  exit 1
fi
