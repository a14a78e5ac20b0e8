#!/usr/bin/env bash
# linkcast sweep under `mpirun -n 2 --oversubscribe` writes the same results as one process.
set -euo pipefail
linkcast=$1 source_dir=$2 work=$3 mpirun=${4:-}
if [[ -z "$mpirun" || ! -x "$mpirun" ]]; then
  echo "mpirun not found (apt install openmpi-bin): skipping" >&2
  exit 77
fi
study=$source_dir/configs/studies/training-pcie-nvlink.yaml
"$linkcast" sweep "$study" -q -j 1 -o "$work/sweep_single.csv" >/dev/null
# Under the sanitizers, Open MPI's own start-up allocations (MCA plugins it dlopens and never
# frees) show up as leaks in each rank; they are not linkcast's, so leak checking is off for the
# ranks only. The single-process run above keeps it.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  "$mpirun" -n 2 --oversubscribe "$linkcast" sweep "$study" -q -j 1 -o "$work/sweep_mpi.csv" >/dev/null
cmp "$work/sweep_single.csv" "$work/sweep_mpi.csv"
echo "identical: $(wc -l <"$work/sweep_mpi.csv") lines"
