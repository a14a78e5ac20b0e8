#!/usr/bin/env bash
# Packs the libFuzzer binaries of a -DLINKCAST_FUZZ=ON build, with the shared libraries they load
# beyond the C library, into one archive that runs on a machine without Debian's -dev packages (the
# device machines of /work/.library/device): there, unpack it and run run_fuzzers.sh on it.
#
#   tools/fuzz/pack_kit.sh BUILD_DIR [ARCHIVE=.fuzzkit/kit.tar.xz]
#
# On the other machine, from a checkout of the same tree:
#   mkdir -p /tmp/kit && tar -xJf .fuzzkit/kit.tar.xz -C /tmp/kit
#   LD_LIBRARY_PATH=/tmp/kit/lib tools/fuzz/run_fuzzers.sh /tmp/kit/build SECONDS WORK_DIR
set -euo pipefail
BUILD=${1:?build dir of -DLINKCAST_FUZZ=ON}
ARCHIVE=${2:-.fuzzkit/kit.tar.xz}
STAGE=$(mktemp -d /tmp/linkcast-fuzzkit.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/build/fuzz" "$STAGE/lib" "$(dirname "$ARCHIVE")"
shopt -s nullglob
bins=("$BUILD"/fuzz/linkcast_fuzz_*)
if ((${#bins[@]} == 0)); then
  echo "pack_kit: no fuzz binaries in $BUILD/fuzz; build with -DLINKCAST_FUZZ=ON first" >&2
  exit 2
fi
for b in "${bins[@]}"; do
  # Debug sections only grow the archive: the stack traces symbolize with the symbol table.
  objcopy --strip-debug "$b" "$STAGE/build/fuzz/$(basename "$b")"
  # Every library it loads except the C library's own (the loader, libc, libm, libpthread,
  # libdl, librt), which the other machine's must provide.
  ldd "$b" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case $(basename "$lib") in
      ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*) ;;
      *) cp -Ln "$lib" "$STAGE/lib/" 2>/dev/null || true ;;
    esac
  done
done
tar -C "$STAGE" -cJf "$ARCHIVE" build lib
echo "pack_kit: $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1)): ${#bins[@]} targets, $(ls "$STAGE/lib" | wc -l) libraries"
