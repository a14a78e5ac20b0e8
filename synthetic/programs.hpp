// Internal to the synthetic workloads: typed access to a workload's key=value parameters, and
// the workload functions the catalog (workloads.cpp) dispatches to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "synthetic/backend.hpp"
#include "nccl/collectives.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::topology {
struct Node;
}

namespace linkcast::synthetic {

/// A workload's parameters. Every getter names the workload and key in its errors; a key the
/// workload does not read is rejected before it runs (workloads.cpp checks the catalog).
class Params {
 public:
  /// `max_ops`: the operations it may record (kMaxWorkloadOps, or kMaxSimulatedWorkloadOps where
  /// the trace is then simulated).
  Params(std::string workload, std::vector<std::pair<std::string, std::string>> values,
         std::uint64_t max_ops = kMaxWorkloadOps)
      : workload_(std::move(workload)), values_(std::move(values)), max_ops_(max_ops) {}

  const std::string& workload() const { return workload_; }
  bool has(std::string_view key) const { return raw(key).has_value(); }
  std::optional<std::string> raw(std::string_view key) const;

  /// A byte size with an optional unit (4096, 64KiB, 1.5GB).
  std::uint64_t size(std::string_view key, std::uint64_t fallback, std::uint64_t min = 0) const;
  /// A whole number (suffixes as for sizes: 1Ki = 1024 is written 1KiB), in [min, max].
  std::uint64_t count(std::string_view key, std::uint64_t fallback, std::uint64_t min = 0,
                      std::uint64_t max = ~std::uint64_t{0}) const;
  bool flag(std::string_view key, bool fallback) const;
  double real(std::string_view key, double fallback, double min, double max) const;
  std::string choice(std::string_view key, std::string fallback, const std::vector<std::string>& allowed) const;
  [[noreturn]] void fail(std::string_view key, std::string_view message) const;
  /// Refuses, before the workload runs, what its keys make too large: `ops` operations recorded
  /// over max_ops (kMaxWorkloadOps), or `steps` (device accesses issued plus operations recorded) over
  /// kMaxWorkloadWork. `how` says how `key` makes them, e.g. "65536 calls on 8 GPUs".
  void check_work(std::string_view key, double ops, double steps, std::string_view how) const;

 private:
  std::string workload_;
  std::vector<std::pair<std::string, std::string>> values_;
  std::uint64_t max_ops_;
};

/// Where a workload runs: the backend and the node (may be null).
struct Context {
  const Params& params;
  Backend& backend;
  const topology::Node* node;
  std::vector<int> gpu_endpoints;  // node endpoint index of each device (empty without a node)
  nccl::CollectiveConfig& collectives;
};

void stencil2d(Context& ctx);
void bfs_ring(Context& ctx);
/// nccl-allreduce, nccl-allgather, ...: `kind` is the collective.
void nccl_collective(Context& ctx, trace::OpKind kind);
void scatter_gather(Context& ctx);
void data_parallel(Context& ctx);
void model_parallel(Context& ctx);

/// Reads algo=, channels=, chunk=, elem= into ctx.collectives (channels default: the node's,
/// see default_channels, else kDefaultChannels). `default_algo` when algo= is absent.
void read_collective_keys(Context& ctx, nccl::CollAlgo default_algo);

}  // namespace linkcast::synthetic
