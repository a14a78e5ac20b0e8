// The simulator against GPU recordings (tests/data/real/<machine>, recorded by
// tools/record/run_all.sh; formats in tools/record/README.md). Used by
// `linkcast_validate_real` (tools/validate) and the tests.
//
//  - Concurrent copies (concurrency_trace.csv.gz, concurrency_summary.csv): every pattern
//    (copies released together, one stream each) simulated once per size; its simulated makespan
//    against the median measured one less the recording's own overhead (release and cross-GPU
//    signalling: the median of makespan - copy duration over the copies run alone). Baseline: no
//    contention, every copy taking its time alone (what per-operation projection predicts).
//  - NCCL collectives (nccl_bench.csv, variants default / ring / tree): one call of each size on
//    the recorded GPUs (ring/tree variants pinned to that algorithm, default left to NCCL's
//    choice) against the measured mean time per call; baseline: NCCL's own cost model for the
//    same algorithm and protocol.
#pragma once

#include <string>
#include <vector>

#include "sim/simulate.hpp"
#include "topology/node.hpp"

namespace linkcast::sim {

struct ValidationCase {
  std::string group;  // "copies" or "nccl/<variant>"
  std::string name;   // pattern or collective
  std::uint64_t bytes = 0;  // per copy, or the collective's size as nccl-tests counts it
  int ops = 0;              // copies in the pattern, or ranks
  double measured_ns = 0, simulated_ns = 0, baseline_ns = 0;
  std::string note;  // collectives: the algorithm/protocol simulated
  double error() const { return (simulated_ns - measured_ns) / measured_ns; }
  double baseline_error() const { return (baseline_ns - measured_ns) / measured_ns; }
};

/// Concurrent-copy patterns of one recording. `overhead_ns` receives the recording overhead
/// subtracted from the measured makespans.
std::vector<ValidationCase> validate_copies(const std::string& dir, const topology::Node& node,
                                            double* overhead_ns = nullptr);
/// NCCL collectives of one recording (none when it has no nccl_bench.csv).
std::vector<ValidationCase> validate_collectives(const std::string& dir, const topology::Node& node);

/// exp(mean(log |e|)) over the errors (|e| floored at 1e-4); NaN for none.
double geomean_abs(const std::vector<double>& errors);

}  // namespace linkcast::sim
