// Flows sharing links max-min fairly, advanced through time.
//
// A resource is one direction of a link (or a device's memory) with a capacity in GB/s (bytes per
// ns). A route is a fixed list of resources. A flow moves `bytes` of data over a route; on each
// hop it consumes `weight` units of the resource per data byte (wire bytes per data byte: packet
// headers, NCCL's LL flags, a device copy reading and writing memory) and its data rate never
// exceeds its own `cap` (a model-derived limit: pageable staging, memory bandwidth, a protocol's
// per-channel rate). Rates are max-min fair on data rates, SimGrid's LMM semantics: no flow can
// gain without a flow of lower or equal rate losing.
//
// Fast because (1) flows on one route form one class whose uncapped members share one rate, so a
// solve costs per route class, not per flow; (2) a change re-solves only the connected component
// of the routes and resources it touches; (3) each class keeps a virtual clock (bytes served per
// uncapped member), so finish times are stored once per flow and never rewritten when rates
// change: a flow finishes when its class's clock reaches its tag.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "sim/heap.hpp"
#include "sim/usage_bins.hpp"

namespace linkcast::sim {

using ResourceId = std::uint32_t;
using RouteId = std::uint32_t;
using FlowId = std::uint32_t;

inline constexpr double kNoCap = std::numeric_limits<double>::infinity();
/// Up to this fraction of its capacity a resource holds every flow at its cap. A flow alone at
/// its model's rate fills its narrowest hop exactly (its cap is that hop's rate), so the loads at
/// the caps meet capacities to within the rounding of their sums (FlowNetwork::Route::cap_load);
/// over by 1e-9 of a capacity, a fair share would differ from the caps by as little.
inline constexpr double kFitsAtCapsMargin = 1 + 1e-9;

class Solver;

class FlowNetwork {
 public:
  /// `solver` must outlive the network.
  explicit FlowNetwork(const Solver& solver);
  ~FlowNetwork();
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  /// A resource of `capacity_gbps` > 0 (GB/s = bytes per ns).
  ResourceId add_resource(double capacity_gbps);
  /// A route over `hops`, distinct resources (std::invalid_argument otherwise: the changes at caps
  /// check each hop's load alone). Routes may be empty: their flows must be capped.
  RouteId add_route(std::span<const ResourceId> hops);

  /// Starts a flow at now(): `bytes` > 0 over `route`, `weights[h]` >= 1e-3 resource units per
  /// data byte on hop h (empty: 1 on every hop), data rate at most `cap_gbps`. `user` is handed
  /// back by user(). Returns the flow's id (ids of finished flows are reused).
  FlowId start(RouteId route, double bytes, std::span<const double> weights, double cap_gbps,
               std::uint64_t user);

  /// The time of the next flow completion, ns (infinity when no flow is active). Re-solves the
  /// rates of whatever changed since the last call.
  double next_completion();
  /// Moves the clock to `t_ns` (>= now(), <= next_completion()) and appends the flows that
  /// complete at `t_ns` to `done`.
  void advance_to(double t_ns, std::vector<FlowId>& done);

  double now() const { return now_; }
  std::uint64_t user(FlowId f) const { return flows_[f].user; }
  std::size_t active_flows() const { return active_flows_; }
  /// Current data rate of an active flow, GB/s (solves first).
  double rate(FlowId f);
  std::size_t resource_count() const { return resources_.size(); }
  std::size_t route_count() const { return routes_.size(); }
  double capacity(ResourceId r) const { return resources_[r].capacity; }

  // --- accounting (up to now()) ------------------------------------------------------------
  /// Resource units consumed (wire bytes) and data bytes carried on resource r so far.
  double wire_bytes(ResourceId r) const;
  double data_bytes(ResourceId r) const;
  /// Wire bytes resource r carried in each of `n` equal bins of [0, end_ns) (end_ns >= now()),
  /// from bounded bins kept as the clock runs (sim/usage_bins.hpp).
  std::vector<double> usage_bins(ResourceId r, int n, double end_ns) const;
  /// Records, for every resource, a point (time, cumulative wire bytes) whenever its load
  /// changes: every change, for a timeline (16 bytes a change). Off by default.
  void record_series(bool on) { record_series_ = on; }
  struct SeriesPoint {
    double t_ns;
    double wire_bytes;  // cumulative at t_ns
  };
  /// The points recorded for resource r, handed over (the network keeps none after).
  std::vector<SeriesPoint> take_series(ResourceId r) { return std::move(resources_[r].series); }

  /// Number of solves run and of route classes and resources they visited (benchmarks).
  struct Counters {
    std::uint64_t solves = 0;
    std::uint64_t routes_solved = 0;
    std::uint64_t resources_solved = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  friend class Solver;
  friend class IncrementalMaxMin;
  friend class ReferenceMaxMin;

  enum class FlowState : std::uint8_t { free, pending, uncapped, capped };
  struct Flow {
    RouteId route = 0;
    FlowState state = FlowState::free;
    double bytes = 0;
    double cap = kNoCap;
    double tag = 0;        // uncapped: class clock value at which it finishes
    double remaining = 0;  // capped/pending: bytes left at `since`
    double since = 0;
    std::uint64_t user = 0;
    std::vector<double> weights;  // per hop of the route
  };
  struct CapEntry {
    double cap;
    FlowId flow;
    bool operator<(const CapEntry& o) const { return cap < o.cap || (cap == o.cap && flow < o.flow); }
  };
  struct Route {
    std::vector<ResourceId> hops;
    std::uint32_t scratch_at = 0;    // offset of this route's hops in the solver scratch
    std::vector<double> weight_sum;  // per hop: sum of every member's weight
    std::vector<double> cap_load;    // per hop: sum of weight x cap over the members with a cap
    std::uint32_t n_uncappable = 0;  // members with no cap of their own (kNoCap)
    std::vector<CapEntry> by_cap;    // members sorted by cap (capped ones come first)
    std::uint32_t n_capped = 0;      // members in state capped
    double level = 0;                // data rate of each uncapped member, GB/s
    double clock = 0;                // bytes served to each uncapped member, at clock_at
    double clock_at = 0;
    double capped_rate = 0;          // sum of capped members' caps
    double data_rate = 0;            // all members together, as last solved
    double data_bytes = 0;           // carried up to data_since
    double data_since = 0;
    IndexedHeap tags;                // uncapped members by tag
    std::uint32_t visit = 0;         // component search epoch
    std::uint32_t removals = 0;      // since weight_sum was last recomputed exactly
    std::size_t members() const { return by_cap.size(); }
  };
  struct Resource {
    double capacity = 0;
    std::vector<RouteId> routes;  // routes with at least one member
    double wire_rate = 0;         // current consumption, units per ns
    double wire_bytes = 0;        // accumulated up to `since`
    double since = 0;
    std::uint32_t visit = 0;
    std::vector<SeriesPoint> series;
  };

  double clock_now(const Route& r) const { return r.clock + r.level * (now_ - r.clock_at); }
  void mark_dirty(RouteId r);
  void solve();
  /// Changes that leave every other flow's rate as it was, applied without a solve (the max-min
  /// answer is the same, found in a pass over the flow's hops). Where nothing waits to be solved,
  /// the flow has a cap, and every flow on the resources it crosses runs at its own cap: a new
  /// flow whose cap fits beside them on each runs at it; a flow at its cap that ends frees its
  /// load. Most flows of a long trace's replay are such (issue 17). Not for a solver that solves
  /// the whole network (the reference is the yardstick), nor where a series is kept. Return
  /// whether they applied.
  bool applies_at_caps() const;
  bool start_at_cap(RouteId g, FlowId id);
  bool finish_at_cap(const Route& route, RouteId g, const Flow& f);
  /// Whether every member of every route through `route`'s hops runs at its own cap, `route`
  /// itself but for `unsolved` new members.
  bool neighbours_at_caps(const Route& route, RouteId g, std::uint32_t unsolved) const;
  void finish(FlowId f, std::vector<FlowId>& done);
  void update_route_event(RouteId r);
  void rebase(Route& route);
  void settle_resource(ResourceId r);
  void settle_route(Route& route);
  /// Adds (sign 1) or removes (sign -1) member f's weights and, where it has a cap, its load at
  /// that cap to the route's sums.
  void add_member_load(Route& route, const Flow& f, double sign);
  void recompute_weight_sum(Route& route);

  const Solver* solver_;
  double now_ = 0;
  std::vector<Flow> flows_;
  std::vector<FlowId> free_flows_;
  std::vector<std::uint32_t> flow_pos_;  // shared position table of every flow heap
  std::vector<Route> routes_;
  std::vector<Resource> resources_;
  IndexedHeap capped_;        // capped flows by absolute finish time
  IndexedHeap route_events_;  // routes by the finish time of their first uncapped member
  std::vector<RouteId> dirty_;
  std::uint32_t epoch_ = 0;
  std::size_t active_flows_ = 0;
  bool record_series_ = false;
  UsageBins usage_;
  Counters counters_;

  std::vector<FlowId> pending_;  // started since the last solve

  // The component being solved and the solver's answer; scratch reused across solves.
  std::vector<RouteId> comp_routes_;
  std::vector<ResourceId> comp_resources_;
  std::vector<double> new_level_;          // by route: data rate of each uncapped member
  std::vector<std::uint32_t> new_capped_;  // by route: members capped, a prefix of by_cap
  std::vector<double> new_wire_rate_;      // by resource: consumption, units per ns
  struct Scratch {
    std::vector<double> rem, load, share;   // by resource
    std::vector<std::uint32_t> count;       // by resource: uncapped members not yet frozen
    std::vector<double> route_load;         // by route hop (Route::scratch_at + h)
    std::vector<std::uint32_t> frozen;      // by route: epoch when frozen
    IndexedHeap shares;                     // resources by rem / load
    IndexedHeap caps;                       // routes by their next member's cap
    std::uint32_t hop_total = 0;
  } scratch_;
};

}  // namespace linkcast::sim
