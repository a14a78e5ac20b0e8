// Synthetic workloads: multi-GPU programs run on the synthetic backend (backend.hpp), chosen
// with `--workload NAME[:key=value,...]`. Sizes take suffixes (4KiB, 1.5GB); GPU lists are
// "0-7" or "0;2;4". Every workload also takes:
//   gpus=LIST     the GPUs it runs on (default: every GPU of the node given, else 0-7)
//   sample=RATE   fraction of remote device-initiated accesses recorded, (0, 1] (default 1)
//   sample-seed=N seed of the sampling generator (default 1)
// `linkcast matrix --workload help` lists the workloads and their keys (workload_help()).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "synthetic/backend.hpp"
#include "nccl/collectives.hpp"
#include "trace/trace.hpp"

namespace linkcast::topology {
struct Node;
}

namespace linkcast::synthetic {

/// A parsed `NAME[:key=value,...]`.
struct WorkloadSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // in the order given
};
/// Throws InputError for a malformed spec (empty name, a part without '=', a key given twice).
WorkloadSpec parse_workload_spec(std::string_view text);

struct WorkloadKey {
  std::string key;
  std::string default_value;
  std::string help;
};

struct WorkloadInfo {
  std::string name;
  std::string summary;
  std::vector<WorkloadKey> keys;  // its own keys; the common ones (gpus, sample, sample-seed) apply too
};
/// Every workload, in the order `help` lists them.
const std::vector<WorkloadInfo>& workload_catalog();
/// The catalog as text (names, summaries, keys with defaults).
std::string workload_help();

/// What running a workload produced.
struct WorkloadRun {
  trace::Trace trace;  // format "synthetic", source_file the spec
  /// How its collectives are to be decomposed (nccl-* and data-parallel set algo/channels/chunk;
  /// others leave the defaults). Traces carry no algorithm, so consumers take it from here.
  nccl::CollectiveConfig collectives;
  BackendStats stats;
  std::vector<std::string> gpus;  // the GPUs it ran on, "gpu0", ...
};

/// Runs the workload `spec` on `node` (may be null: GPUs gpu0..gpu7 and an unknown host socket,
/// "host"). With a node, `gpus=` must name GPUs of the node and host buffers live on each GPU's
/// own socket. Throws InputError naming the workload, the key and the valid keys or values, or the
/// limit it passes: at most `max_ops` operations (kMaxSimulatedWorkloadOps where the trace is
/// then simulated) and kMaxWorkloadWork steps.
WorkloadRun run_workload_full(const std::string& spec, const topology::Node* node,
                              std::uint64_t max_ops = kMaxWorkloadOps);

/// The trace alone.
trace::Trace run_workload(const std::string& spec, const topology::Node* node);

}  // namespace linkcast::synthetic
