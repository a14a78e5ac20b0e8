// Per-operation projection: every operation of a trace recorded on node A gets a time on node B
// under a transfer-time model. The 1-byte cost (L + O) of each copy class is taken from the
// trace's own small transfers where it has them, else from node B's calibration, else from
// node A's; collectives are priced as NCCL's ring algorithm would run them on B.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/models.hpp"
#include "nccl/pricing.hpp"
#include "trace/category.hpp"
#include "trace/index.hpp"
#include "topology/routing.hpp"
#include "trace/trace.hpp"

namespace linkcast::projection {

/// Trace endpoint name -> target node endpoint name, written "gpu0=gpu2,cpu0=cpu1" (the CLI's
/// --map, a study's `map:`).
using EndpointMap = std::map<std::string, std::string>;
/// Throws ChoiceError (Choice::map_entry) for text that is not NAME=NAME,... or maps a name twice.
[[nodiscard]] EndpointMap parse_endpoint_map(std::string_view text);

/// Where each copy class's 1-byte cost came from.
struct FixedCost {
  double ns = 0;
  std::string origin;  // "source trace: median of 100 ops <= 64 B", "target calibration", ...
  bool known = false;
};

class Projector {
 public:
  /// Validates every operation's endpoints against both nodes (after `map` for the target) and
  /// prepares the routes; the trace's `host` lands where topology::place_host says. Throws
  /// InputError naming the trace record for an endpoint a node lacks: a ChoiceError
  /// (Choice::map_endpoint) when mapping it onto another endpoint of the target would fix it.
  Projector(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
            const EndpointMap& map = {});
  /// The same on a trace indexed beforehand; `index` must outlive the projector.
  Projector(const topology::Node& from, const topology::Node& to, const trace::TraceIndex& index,
            const EndpointMap& map = {});

  /// Projected duration of operation i on the target node under `model`, ns.
  double time_ns(std::size_t i, const model::Model& model) const;
  /// Every group's projected duration under each model, [group * models.size() + m]: operation
  /// i's time under models[m] is at [index.group_of[i] * models.size() + m].
  std::vector<double> group_times(const std::vector<const model::Model*>& models) const;
  const trace::TraceIndex& index() const { return *index_; }

  /// What bounds an operation: its fixed cost, the host's staging copy, GPU memory, or a link.
  struct Bound {
    enum class What : std::uint8_t { fixed_cost, host_copy, gpu_memory, link };
    What what = What::fixed_cost;
    const model::LinkSpec* link = nullptr;  // the slowest link, for What::link
    bool operator==(const Bound&) const = default;
    /// "fixed cost", "host copy", "GPU memory" or the link ("PCIe Gen5 x16", "NV18 (NVLink4)").
    std::string describe() const;
  };
  /// What bounds operation i on the target under linkcast's `default` model: the fixed cost when
  /// L + O outweighs the bandwidth term, else the host copy (pageable staging), GPU memory
  /// (within one GPU) or the slowest link on its path. `default_ns`: the operation's time under
  /// `default` if already known.
  Bound bound(std::size_t i, double default_ns = -1) const;

  trace::Category category(std::size_t i) const { return index_->categories[i]; }
  const std::vector<trace::Category>& categories() const { return index_->categories; }
  const std::array<FixedCost, model::kCopyClassCount>& fixed_costs() const { return fixed_; }
  const trace::Trace& trace() const { return *trace_; }
  const topology::Node& target() const { return *to_; }
  const topology::Node& source() const { return *from_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct PreparedPair {
    model::PathSpec spec;
    bool ready = false;
  };

  void prepare(const topology::Node& from, const EndpointMap& map);
  int resolve(const topology::Node& node, const EndpointMap& map, std::uint16_t id, std::uint16_t other) const;
  const PreparedPair& pair(std::uint16_t src, std::uint16_t dst) const {
    return pairs_[static_cast<std::size_t>(src) * endpoints_ + dst];
  }
  double collective_time_ns(std::size_t i, const model::Model& model) const;
  /// L + O of operation i (not a collective) over `spec`: its copy class's, or by direction for
  /// device-initiated accesses and migrations.
  double fixed_ns(std::size_t i, const model::PathSpec& spec) const;
  void estimate_fixed_costs(const topology::Node& from);

  const topology::Node* from_;
  const topology::Node* to_;
  const trace::Trace* trace_;
  std::unique_ptr<trace::TraceIndex> owned_index_;  // when constructed from a trace
  const trace::TraceIndex* index_;
  topology::Routes routes_;
  std::size_t endpoints_ = 0;
  std::vector<PreparedPair> pairs_;     // endpoints_ x endpoints_
  std::vector<nccl::RingPaths> groups_;   // by trace group id
  std::array<FixedCost, model::kCopyClassCount> fixed_;
  std::vector<std::string> warnings_;
};

}  // namespace linkcast::projection
