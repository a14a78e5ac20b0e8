#!/usr/bin/env bash
# setup.sh: install what linkcast needs (Debian 12 packages, through apt-get) if anything is
# missing, then configure and build it in build/ (the CLI is build/linkcast). Idempotent: a second
# run installs nothing and rebuilds only what changed.
#
# Environment: LINKCAST_BUILD_DIR (default build), LINKCAST_CMAKE_ARGS (extra CMake arguments,
# e.g. -DLINKCAST_SANITIZE=ON for the ASan+UBSan build, or -DLINKCAST_FUZZ=ON
# -DCMAKE_CXX_COMPILER=clang++ for the libFuzzer targets).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PACKAGES=(
  g++ cmake ninja-build pkg-config
  libboost-dev libboost-graph-dev libyaml-cpp-dev nlohmann-json3-dev libfmt-dev libcli11-dev
  libsqlite3-dev zlib1g-dev libpugixml-dev libsimdjson-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsimgrid-dev          # tools/validate: the SimGrid cross-validation of the simulator
  openmpi-bin libopenmpi-dev  # `mpirun -n K linkcast sweep`
  chromium                # the HTML report's browser test
)

# The fuzz build (-DLINKCAST_FUZZ=ON, .ci/run) compiles with clang and links libFuzzer and the
# sanitizers' runtimes (compiler-rt): only that build needs them.
if [[ ${LINKCAST_CMAKE_ARGS:-} == *LINKCAST_FUZZ=ON* ]]; then
  PACKAGES+=(clang libclang-rt-14-dev llvm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "setup.sh: installing ${missing[*]}"
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${LINKCAST_BUILD_DIR:-build}
# shellcheck disable=SC2086  # LINKCAST_CMAKE_ARGS is a list of arguments
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${LINKCAST_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
