#!/usr/bin/env bash
# One round of a long fuzzing campaign on a machine without Debian's -dev packages (the device
# machines of /work/.library/device), from the kit tools/fuzz/pack_kit.sh made:
#
#   tools/fuzz/device_round.sh SECONDS_PER_TARGET [OUT_DIR=$OUT]
#
# Unpacks .fuzzkit/kit.tar.xz, continues the corpus in build-devfuzz/work (kept while the machine
# stays warm; else from .fuzzkit/corpus.tar.gz, an earlier round's), runs every target at once with
# nproc/8 libFuzzer workers each (run_fuzzers.sh: FUZZ_PARALLEL=8), and writes to OUT_DIR the
# summary, the triage of anything that failed, the failing inputs and the grown corpus.
set -uo pipefail
SECONDS_PER_TARGET=${1:?seconds per target}
OUT_DIR=${2:-${OUT:?give OUT_DIR}}
KIT=$(mktemp -d /tmp/linkcast-kit.XXXXXX)
tar -xJf .fuzzkit/kit.tar.xz -C "$KIT"
WORK=build-devfuzz/work
if [[ ! -d $WORK/corpus && -f .fuzzkit/corpus.tar.gz ]]; then
  mkdir -p "$WORK" && tar -xzf .fuzzkit/corpus.tar.gz -C "$WORK"
fi
rm -rf "$WORK/artifacts" "$WORK/triage.txt"  # each round reports its own findings
workers=$(( $(nproc) / 8 ))
((workers < 1)) && workers=1
echo "round: $(nproc) cores, 8 targets x $workers workers x $SECONDS_PER_TARGET s; $(date -u)" >"$OUT_DIR/summary.txt"
LD_LIBRARY_PATH=$KIT/lib FUZZ_PARALLEL=8 FUZZ_WORKERS=$workers \
  tools/fuzz/run_fuzzers.sh "$KIT/build" "$SECONDS_PER_TARGET" "$WORK" >>"$OUT_DIR/summary.txt" 2>&1
echo "exit $?; $(date -u)" >>"$OUT_DIR/summary.txt"
tar -czf "$OUT_DIR/corpus.tar.gz" -C "$WORK" corpus
[[ -d $WORK/artifacts ]] && tar -czf "$OUT_DIR/artifacts.tar.gz" -C "$WORK" artifacts
tail -c 200000 "$WORK/workload.log" >"$OUT_DIR/workload.log.tail" 2>/dev/null || true
