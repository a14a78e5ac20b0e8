// Per-operation projection: every operation of a trace recorded on node A gets a time on node B
// under a transfer-time model. The 1-byte cost (L + O) of each copy class is taken from the
// trace's own small transfers where it has them, else from node B's calibration, else from
// node A's; collectives are priced as NCCL's ring algorithm would run them on B.
//
// Anchored models (model::Model::anchored: `default`) keep what the trace measured: an operation
// that took T on A is projected as T x M_B / M_A, the model on B over the model on A in the same
// regime (pageable copies: the host regime whose time on A is closest to T, or fresh where the
// trace says the destination is new), with the same 1-byte cost on both sides. Where A's values describe a class of the trace's copies >= 4 MiB at less
// than half or more than twice the rate they ran at, the projector warns and takes the trace's
// own rate for that class on A's side. `measured` ("nothing changes": each operation keeps its
// time on A) is the baseline every table shows beside the registry's models.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/models.hpp"
#include "nccl/pricing.hpp"
#include "projection/same_host.hpp"
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
/// The part of `map` that places the trace on its source node: the entries whose trace endpoint
/// the source node lacks (a trace recorded on CUDA device 2 of a machine described with one GPU:
/// `gpu2=gpu0` places it on both nodes). Names the source node has stay as recorded there.
[[nodiscard]] EndpointMap source_placement(const topology::Node& from, const EndpointMap& map);

/// The projection's "nothing changes" baseline, shown beside the registry's models: each operation
/// keeps its measured time on the source node; an operation without one gets the `default` model's
/// time on the target. Recognised by address: its time function is never called.
[[nodiscard]] const model::Model& measured_model();
/// The models `linkcast project` reports unless told otherwise: the registry's (model::all_models),
/// then `measured`.
[[nodiscard]] std::vector<const model::Model*> projection_models();
/// `measured` or a registry model; throws InputError listing the valid names otherwise.
[[nodiscard]] const model::Model& find_projection_model(std::string_view name);

/// Pageable copies at least this large (and every other class's) measure a class's rate when
/// the projector checks the source node's description against the trace.
inline constexpr std::uint64_t kAnchorCheckMinBytes = 4ull << 20;
/// The source node's rate for a class is taken as mis-described outside this factor of the rate
/// the trace's copies >= kAnchorCheckMinBytes ran at.
inline constexpr double kMisdescribedFactor = 2.0;
/// Operations that ran this many times faster than the source node's values give are no
/// measurement of the node: no description is that far off (PCIe Gen1 x1 against Gen5 x16 is 64x),
/// but a profiler that records an operation's enqueue for the operation is (an Nsight Systems
/// export of 2021 timed memsets of 4 B-4 GB at 0.8-1.1 us, 3.6 PB/s on a 672 GB/s GPU). Their
/// recorded times are carried by the nodes' ratio, not taken as the source's rate.
inline constexpr double kImpossibleFactor = 100.0;
/// Within this fraction below the rate the source node's values give (or above it), a class's
/// operations are what the model explains: the difference is the model's own error on that link or
/// memory technology (its packet accounting, the DMA engines' efficiency), carried to a target with
/// the same technology and not to one with another.
inline constexpr double kExplainedTolerance = 0.10;
/// The pageable copies of one group (one size, direction and pair of endpoints) run in one host
/// regime, the one their typical (geometric mean) measured time is closest to; an operation leaves it
/// only where its own time is this many times closer (as a ratio) to another regime's. Repeated
/// copies of one regime vary by up to about 1.5x on the testbeds (a training loop's 13.5 MiB
/// batches: 6.3 to 13 GB/s on the H100 machine), while a fresh destination runs 5-10x slower than a
/// used one.
inline constexpr double kRegimeEvidence = 2.0;

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
  /// Where a target CPU is the source's host hardware, it takes the source's measured host rates
  /// unless `host` says otherwise (carry_source_host_rates; a warning says so).
  Projector(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
            const EndpointMap& map = {}, const HostRateChoice& host = {});
  /// The same on a trace indexed beforehand; `index` must outlive the projector.
  Projector(const topology::Node& from, const topology::Node& to, const trace::TraceIndex& index,
            const EndpointMap& map = {}, const HostRateChoice& host = {});
  /// The projector reads the trace (and its index) while it lives: a temporary would be gone
  /// before the first time_ns (a test that passed one read freed memory).
  Projector(const topology::Node&, const topology::Node&, trace::Trace&&, const EndpointMap& = {},
            const HostRateChoice& = {}) = delete;
  Projector(const topology::Node&, const topology::Node&, trace::TraceIndex&&, const EndpointMap& = {},
            const HostRateChoice& = {}) = delete;

  /// Projected duration of operation i on the target node under `model`, ns (anchored on its
  /// measured time for anchored models; its measured time for measured_model()).
  double time_ns(std::size_t i, const model::Model& model) const;
  /// The model's own figure for operation i on the source node, ns: what it says the trace took
  /// there. An anchored model's (and `measured`'s) is the measured time where there is one.
  double source_time_ns(std::size_t i, const model::Model& model) const;
  /// time_ns and source_time_ns of operation i under each of `models` at once, into target[m] and
  /// source[m]: where every operation has its own size, each is priced under every model, and the
  /// operation's paths and transfer are read once for all of them.
  void times_ns(std::size_t i, const std::vector<const model::Model*>& models, double* target, double* source) const;
  /// Every group's projected duration under each model, [group * models.size() + m]: the mean over
  /// the group's operations (they differ under anchored models and `measured`), so that
  /// time x index.group_count[g] is the group's total.
  std::vector<double> group_times(const std::vector<const model::Model*>& models) const;
  /// The host regime the anchor prices operation i in: for pageable copies the regime chosen from
  /// its measured time (staged when it has none), else staged.
  model::HostRegime regime(std::size_t i) const;
  const trace::TraceIndex& index() const { return *index_; }

  /// What bounds an operation: its fixed cost, the host's staging copy, GPU memory, or a link.
  struct Bound {
    enum class What : std::uint8_t { fixed_cost, host_copy, gpu_memory, link, waiting };
    What what = What::fixed_cost;
    const model::LinkSpec* link = nullptr;  // the slowest link, for What::link
    bool operator==(const Bound&) const = default;
    /// "fixed cost", "host copy", "GPU memory", the link ("PCIe Gen5 x16", "NV18 (NVLink4)") or
    /// "waiting for other ranks" (a collective's carried wait).
    std::string describe() const;
  };
  /// What bounds operation i on the target under linkcast's `default` model: waiting for other
  /// ranks where a collective's carried wait is at least half its time, the fixed cost when
  /// L + O outweighs the bandwidth term, else the host copy (pageable staging), GPU memory
  /// (within one GPU) or the slowest link on its path. `default_ns`: the operation's time under
  /// `default` if already known.
  Bound bound(std::size_t i, double default_ns = -1) const;

  trace::Category category(std::size_t i) const { return index_->categories[i]; }
  const std::vector<trace::Category>& categories() const { return index_->categories; }
  const std::array<FixedCost, model::kCopyClassCount>& fixed_costs() const { return fixed_; }
  /// The 1-byte costs on the source node (the trace's own, else the source's calibration, else the
  /// target's): what the models' figures on the source and both sides of an anchored model use. An
  /// anchored model predicts no change in an operation's 1-byte cost: where the testbeds' calibrations
  /// differ (4.5 against 5.3 us for pinned H2D), it is an overhead of how the copies were timed (CUDA
  /// events around each call) that copies of 64 B and more already hide.
  const std::array<FixedCost, model::kCopyClassCount>& source_fixed_costs() const { return src_fixed_; }
  const trace::Trace& trace() const { return *trace_; }
  /// The target node as projected onto: the one given, with the source's host rates where
  /// carry_source_host_rates carries them.
  const topology::Node& target() const { return *to_; }
  const topology::Node& source() const { return *from_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The part of collective record i's measured time it waited for the call's other recorded
  /// ranks: their latest start minus its own, within its duration (a collective kernel starts on
  /// each rank when that rank launches it and ends on all of them together; on the 4-GPU H200
  /// DDP recording two ranks' kernels of one call end within 38 us of each other, 1.4 us at the
  /// median, while their starts differ by up to 46 ms). 0 where the trace has one record of the
  /// call, or no times.
  double wait_ns(std::size_t i) const { return wait_ns_.empty() ? 0.0 : wait_ns_[i]; }

 private:
  struct PreparedPair {
    model::PreparedPath path;  // copy-engine copies' access over it (model::copy_access)
    bool ready = false;
    const model::PathSpec& spec() const { return path.spec; }
  };
  /// Per group: the anchored model's time on the source and on the target node in each regime slot
  /// (pageable H2D: cold, warm, direct; D2H: used, fresh, direct; other operations: slot 0). `pick`
  /// chooses from the node's values; `src` may carry the trace's own rate (self-calibration).
  /// Kept for groups of several operations; a group of one is anchored where it is read
  /// (anchor_of): where every operation has its own size, one anchor an operation was most of a
  /// projection's memory (issue 17).
  struct Anchor {
    std::array<double, 3> pick{}, src{}, tgt{};
    std::uint8_t slots = 1;
    bool fresh_priced = false;  // slot 1 of a D2H group has a first-touch rate on the source node
    bool warm_priced = false;   // slot 1 of an H2D group has a warm rate on the source node
    std::array<bool, 2> host_unpriced{};  // pageable slots 0 and 1: the source host has no rate for them
    /// Collectives that ran more than kMisdescribedFactor slower than the source node's values:
    /// a rank's collective kernel runs until every rank has finished, so what the model leaves
    /// unexplained is taken as waiting for ranks the trace does not time, carried unchanged.
    bool carries_excess = false;
    std::uint8_t group_slot = 0;  // the slot of the group's typical measured time (geometric mean)
  };
  /// What checking the source node's description against the trace decided for one category and
  /// slot (prepare_anchors): whether its source side takes the trace's own rate, and why.
  struct SlotCalibration {
    bool applies = false;
    bool misdescribed = false;   // off by more than kMisdescribedFactor
    bool host_unpriced = false;  // the source host has no rate for the slot
    double ratio = 1;            // the trace's rate over the node's
  };
  /// Operation i (not a collective) as one node's models price it: its path there, its transfer
  /// (the fixed cost and regime are the caller's) and the copy class whose 1-byte cost it pays.
  struct SidePricing {
    const model::PreparedPath* path = nullptr;
    model::Transfer transfer;
    std::size_t fixed_class = 0;
  };
  /// Operation i (not a collective) on both nodes: [0] the target, [1] the source. Read once where
  /// every model prices the operation (times_ns), and handed to its anchor.
  using Sides = std::array<SidePricing, 2>;

  void prepare(const topology::Node& from, const EndpointMap& map);
  int resolve(const topology::Node& node, const EndpointMap& map, std::uint16_t id, std::uint16_t other) const;
  const PreparedPair& pair(std::uint16_t src, std::uint16_t dst) const {
    return pairs_[static_cast<std::size_t>(src) * endpoints_ + dst];
  }
  const PreparedPair& src_pair(std::uint16_t src, std::uint16_t dst) const {
    return src_pairs_[static_cast<std::size_t>(src) * endpoints_ + dst];
  }
  double collective_time_ns(std::size_t i, const model::Model& model, bool source = false,
                            bool anchor = false) const;
  /// L + O of operation i (not a collective) over `spec`: its copy class's, or by direction for
  /// device-initiated accesses and migrations.
  double fixed_ns(std::size_t i, const model::PathSpec& spec) const;
  /// The copy class whose 1-byte cost operation i (not a collective) pays over `spec`.
  model::CopyClass fixed_class(std::size_t i, const model::PathSpec& spec) const {
    return fixed_class(index_->categories[i], spec.cls);
  }
  /// The same for an operation of category `cat` over a path of class `cls`.
  static model::CopyClass fixed_class(trace::Category cat, model::PathClass cls);
  /// The 1-byte cost an operation (not a collective) pays on the source side of an anchored model,
  /// from its pricing on the source node.
  double anchor_source_fixed(const SidePricing& on_source) const;
  void estimate_fixed_costs(const topology::Node& from);
  /// Fills anchors_ and checks the source node's description against the trace (calibration_).
  void prepare_anchors();
  /// The anchor of operation i's group before the group's slot and calibration: the default
  /// model's prices on both nodes (in each host regime for pageable copies). `sides`: the
  /// operation's pricing on both nodes if already read (not for collectives); `source_only`:
  /// leave the target's prices at 0 (checking the source node's description needs no more).
  Anchor priced_anchor(std::size_t i, const Sides* sides = nullptr, bool source_only = false) const;
  /// Applies calibration_ and carries_excess_ to the anchor of operation i's group; `on_source`:
  /// the operation's pricing on the source node if already read.
  void calibrate(Anchor& a, std::size_t i, const SidePricing* on_source = nullptr) const;
  /// The anchor of operation i's group: the one kept, or, for a group of one operation, `scratch`
  /// filled with the anchor prepare_anchors would have kept (from `sides` where given).
  const Anchor& anchor_of(std::size_t i, Anchor& scratch, const Sides* sides = nullptr) const;
  /// The anchor of operation i's group as prepare_anchors has it before it calibrates: the one
  /// kept, or `scratch` with the source node's prices (from sides[1] where given) and the slot of
  /// the operation's own time.
  const Anchor& source_anchor_of(std::size_t i, Anchor& scratch, const Sides* sides = nullptr) const;
  /// The group's slot of an anchor of one operation (pageable, timed): from the geometric mean of
  /// its one time, computed as for many (exp(log(t))).
  void set_single_group_slot(Anchor& a, std::size_t i) const;
  /// Whether one link or memory technology bounds operation i (not pageable) on both nodes.
  bool same_bound(std::size_t i) const;
  /// Operation i (not a collective) on the target (`source` false) or source node.
  SidePricing side_pricing(std::size_t i, bool source) const;
  /// Both at once, the transfer read once where the two paths are of one class.
  Sides sides_of(std::size_t i) const;
  /// The operation's transfer on one side, paying its class's 1-byte cost from `fixed`.
  static model::Transfer charged_transfer(const SidePricing& side,
                                          const std::array<FixedCost, model::kCopyClassCount>& fixed);
  /// `m`'s time for an operation priced on one side, paying its class's 1-byte cost from `fixed`,
  /// in host regime `regime`.
  static double priced_ns(const SidePricing& side, const model::Model& m,
                          const std::array<FixedCost, model::kCopyClassCount>& fixed, model::HostRegime regime);
  /// time_ns's and source_time_ns's rules, with `unanchored(model, source)` pricing the operation
  /// under a model without its anchor (model_time_ns with anchor false).
  /// (`measured`: operation i's measured time, measured_ns.)
  template <class Unanchored>
  double target_ns(std::size_t i, double measured, const model::Model& m, const Unanchored& unanchored,
                   const Sides* sides = nullptr) const;
  template <class Unanchored>
  double source_ns(double measured, const model::Model& m, const Unanchored& unanchored) const;
  /// Operation i's measured duration, ns (0 or less: none).
  double measured_ns(std::size_t i) const { return static_cast<double>(trace_->durations()[i]); }
  /// Fills wait_ns_ from the trace's collective calls (trace::collective_calls).
  void measure_collective_waits();
  bool beside_compute(std::size_t i) const { return (trace_->flags()[i] & trace::kBesideCompute) != 0; }
  /// What the model's anchor carries unchanged for operation i measured at `own_ns` (its wait
  /// excluded) in slot k: the excess over the source model of a collective that carries it or of
  /// a transfer that ran beside a kernel on its GPU (trace::kBesideCompute), else 0.
  double carried_excess_ns(const Anchor& a, std::size_t i, double own_ns, std::size_t k) const;
  /// The default model on one side: `source` picks the source node's paths, `anchor` the anchor's
  /// 1-byte costs (else fixed_costs()).
  double model_time_ns(std::size_t i, const model::Model& m, bool source, bool anchor,
                       model::HostRegime regime = model::HostRegime::staged) const;
  /// The slot operation i is priced in: the one its measured time is closest to, where that is
  /// kRegimeEvidence closer than the group's slot (`group` false: without the group's slot).
  int anchor_slot(const Anchor& a, std::size_t i, double measured_ns, bool group = true) const;
  double anchored_ns(std::size_t i, double measured_ns, const Sides* sides = nullptr) const;
  bool fresh_destination(std::size_t i) const;

  const topology::Node* from_;
  std::vector<std::string> warnings_;  // before carried_to_: carry_source_host_rates writes its notes here
  std::optional<topology::Node> carried_to_;   // the target with the source's host rates, where carried
  const topology::Node* to_;
  const trace::Trace* trace_;
  std::unique_ptr<trace::TraceIndex> owned_index_;  // when constructed from a trace
  const trace::TraceIndex* index_;
  topology::Routes routes_;
  topology::Routes src_routes_;
  std::size_t endpoints_ = 0;
  std::vector<PreparedPair> pairs_;     // endpoints_ x endpoints_, on the target
  std::vector<PreparedPair> src_pairs_; // the same on the source node
  std::vector<nccl::RingPaths> groups_;   // by trace group id, on the target
  std::vector<nccl::RingPaths> src_groups_;  // the same on the source node
  std::array<FixedCost, model::kCopyClassCount> fixed_;      // target first (unanchored models)
  std::array<FixedCost, model::kCopyClassCount> src_fixed_;  // source first (models on the source node)
  static constexpr std::uint32_t kAnchoredWhereRead = UINT32_MAX;
  std::vector<Anchor> anchors_;              // per group of several operations
  std::vector<std::uint32_t> anchor_index_;  // per index group: its anchor in anchors_, or kAnchoredWhereRead
  std::array<std::array<SlotCalibration, 3>, trace::kCategoryCount> calibration_{};
  std::array<bool, trace::kCategoryCount> carries_excess_{};  // per category (collectives)
  std::vector<double> wait_ns_;  // per record; empty when no call has two timed records
};

}  // namespace linkcast::projection
