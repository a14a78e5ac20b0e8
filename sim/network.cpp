#include "sim/network.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include "sim/solver.hpp"

namespace linkcast::sim {

namespace {
/// Flows whose finish is within this much of an event complete at it: far below any time the
/// simulator reports, far above double rounding at second-long makespans (1e9 ns * 2^-52).
constexpr double kTimeSlackNs = 1e-6;
/// After this many removals a route class recomputes its weight sums exactly (no drift).
constexpr std::uint32_t kRecomputeAfter = 4096;
/// A class clock beyond this many bytes is rebased to 0 (its members' tags with it), so tags keep
/// sub-byte precision however long the class stays busy.
constexpr double kRebaseBytes = 1099511627776.0;  // 2^40
}  // namespace

FlowNetwork::FlowNetwork(const Solver& solver)
    : solver_(&solver), capped_(&flow_pos_) {}

FlowNetwork::~FlowNetwork() = default;

ResourceId FlowNetwork::add_resource(double capacity_gbps) {
  if (!(capacity_gbps > 0) || !std::isfinite(capacity_gbps))
    throw std::invalid_argument("FlowNetwork::add_resource: capacity must be positive and finite");
  Resource r;
  r.capacity = capacity_gbps;
  resources_.push_back(std::move(r));
  scratch_.rem.push_back(0);
  scratch_.load.push_back(0);
  scratch_.share.push_back(0);
  scratch_.count.push_back(0);
  new_wire_rate_.push_back(0);
  return static_cast<ResourceId>(resources_.size() - 1);
}

RouteId FlowNetwork::add_route(std::span<const ResourceId> hops) {
  Route r;
  r.hops.assign(hops.begin(), hops.end());
  for (std::size_t h = 0; h < hops.size(); ++h) {
    if (hops[h] >= resources_.size()) throw std::invalid_argument("FlowNetwork::add_route: unknown resource");
    const auto before = hops.first(h);
    if (std::find(before.begin(), before.end(), hops[h]) != before.end())
      throw std::invalid_argument("FlowNetwork::add_route: a resource twice in one route");
  }
  r.weight_sum.assign(hops.size(), 0.0);
  r.cap_load.assign(hops.size(), 0.0);
  r.scratch_at = scratch_.hop_total;
  scratch_.hop_total += static_cast<std::uint32_t>(hops.size());
  scratch_.route_load.resize(scratch_.hop_total, 0.0);
  r.tags = IndexedHeap(&flow_pos_);
  routes_.push_back(std::move(r));
  new_level_.push_back(0);
  new_capped_.push_back(0);
  scratch_.frozen.push_back(0);
  return static_cast<RouteId>(routes_.size() - 1);
}

FlowId FlowNetwork::start(RouteId route_id, double bytes, std::span<const double> weights, double cap_gbps,
                          std::uint64_t user) {
  Route& route = routes_.at(route_id);
  if (!(bytes > 0) || !std::isfinite(bytes)) throw std::invalid_argument("FlowNetwork::start: bytes must be > 0");
  if (!(cap_gbps > 0)) throw std::invalid_argument("FlowNetwork::start: cap must be > 0");
  if (route.hops.empty() && !std::isfinite(cap_gbps))
    throw std::invalid_argument("FlowNetwork::start: a flow over no resource needs a finite cap");
  if (!weights.empty() && weights.size() != route.hops.size())
    throw std::invalid_argument("FlowNetwork::start: one weight per hop");
  FlowId id;
  if (!free_flows_.empty()) {
    id = free_flows_.back();
    free_flows_.pop_back();
  } else {
    id = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
    flow_pos_.push_back(IndexedHeap::kAbsent);
  }
  Flow& f = flows_[id];
  f.route = route_id;
  f.state = FlowState::pending;
  f.bytes = bytes;
  f.cap = cap_gbps;
  f.remaining = bytes;
  f.since = now_;
  f.user = user;
  if (weights.empty()) f.weights.assign(route.hops.size(), 1.0);
  else f.weights.assign(weights.begin(), weights.end());
  for (std::size_t h = 0; h < route.hops.size(); ++h)
    if (!(f.weights[h] >= 1e-3)) throw std::invalid_argument("FlowNetwork::start: weights must be >= 1e-3");
  add_member_load(route, f, 1.0);
  if (route.members() == 0) {
    for (ResourceId r : route.hops) resources_[r].routes.push_back(route_id);
    route.clock = 0;
    route.clock_at = now_;
    route.level = 0;
  }
  route.by_cap.insert(std::upper_bound(route.by_cap.begin(), route.by_cap.end(), CapEntry{cap_gbps, id}),
                      CapEntry{cap_gbps, id});
  ++active_flows_;
  if (start_at_cap(route_id, id)) return id;
  pending_.push_back(id);
  mark_dirty(route_id);
  return id;
}

bool FlowNetwork::neighbours_at_caps(const Route& route, RouteId g, std::uint32_t unsolved) const {
  for (ResourceId r : route.hops)
    for (RouteId q : resources_[r].routes) {
      const Route& other = routes_[q];
      if (other.n_capped + (q == g ? unsolved : 0) != other.members()) return false;
    }
  return true;
}

bool FlowNetwork::applies_at_caps() const {
  // A series (--timeline) keeps its points where solves change rates: a flow that ends as
  // another starts at its rate makes none.
  return dirty_.empty() && !record_series_ && !solver_->whole_network();
}

bool FlowNetwork::start_at_cap(RouteId g, FlowId id) {
  Route& route = routes_[g];
  Flow& f = flows_[id];
  if (!applies_at_caps() || !std::isfinite(f.cap)) return false;
  if (!neighbours_at_caps(route, g, 1)) return false;
  for (std::size_t h = 0; h < route.hops.size(); ++h) {
    const Resource& res = resources_[route.hops[h]];
    if (!(res.wire_rate + f.weights[h] * f.cap <= res.capacity * kFitsAtCapsMargin)) return false;
  }
  // As solve() applies a class whose members all run at their caps.
  settle_route(route);
  route.clock = clock_now(route);
  route.clock_at = now_;
  route.level = 0;
  f.state = FlowState::capped;
  capped_.set(id, now_ + f.remaining / f.cap);
  ++route.n_capped;
  route.capped_rate += f.cap;
  route.data_rate = route.capped_rate;
  update_route_event(g);
  for (std::size_t h = 0; h < route.hops.size(); ++h) {
    const ResourceId r = route.hops[h];
    settle_resource(r);
    resources_[r].wire_rate += f.weights[h] * f.cap;
  }
  return true;
}

bool FlowNetwork::finish_at_cap(const Route& route, RouteId g, const Flow& f) {
  if (!applies_at_caps()) return false;
  if (!neighbours_at_caps(route, g, 0)) return false;
  for (std::size_t h = 0; h < route.hops.size(); ++h) {
    const ResourceId r = route.hops[h];
    Resource& res = resources_[r];
    settle_resource(r);
    // Exactly idle where nothing else crosses it (no rounding left over from the sums).
    res.wire_rate = res.routes.empty() ? 0.0 : std::max(res.wire_rate - f.weights[h] * f.cap, 0.0);
  }
  return true;
}

void FlowNetwork::mark_dirty(RouteId r) { dirty_.push_back(r); }

double FlowNetwork::next_completion() {
  if (!dirty_.empty()) solve();
  double t = std::numeric_limits<double>::infinity();
  if (!capped_.empty()) t = std::min(t, capped_.top_key());
  if (!route_events_.empty()) t = std::min(t, route_events_.top_key());
  return std::max(t, now_);
}

double FlowNetwork::rate(FlowId f) {
  if (!dirty_.empty()) solve();
  const Flow& flow = flows_[f];
  switch (flow.state) {
    case FlowState::capped: return flow.cap;
    case FlowState::uncapped: return routes_[flow.route].level;
    default: return 0;
  }
}

void FlowNetwork::settle_resource(ResourceId r) {
  Resource& res = resources_[r];
  if (now_ > res.since) {
    res.wire_bytes += res.wire_rate * (now_ - res.since);
    usage_.add(r, res.since, now_, res.wire_rate);
  }
  res.since = now_;
}

std::vector<double> FlowNetwork::usage_bins(ResourceId r, int n, double end_ns) const {
  const Resource& res = resources_[r];
  return usage_.bins(r, n, end_ns, res.since, res.wire_rate);
}

void FlowNetwork::settle_route(Route& route) {
  route.data_bytes += route.data_rate * (now_ - route.data_since);
  route.data_since = now_;
}

double FlowNetwork::wire_bytes(ResourceId r) const {
  const Resource& res = resources_[r];
  return res.wire_bytes + res.wire_rate * (now_ - res.since);
}

double FlowNetwork::data_bytes(ResourceId r) const {
  // Kept per route class (cheaper to maintain); a resource carried what its routes did.
  double bytes = 0;
  for (const Route& route : routes_)
    if (std::find(route.hops.begin(), route.hops.end(), r) != route.hops.end())
      bytes += route.data_bytes + route.data_rate * (now_ - route.data_since);
  return bytes;
}

void FlowNetwork::add_member_load(Route& route, const Flow& f, double sign) {
  const bool capped = std::isfinite(f.cap);
  for (std::size_t h = 0; h < route.hops.size(); ++h) {
    route.weight_sum[h] += sign * f.weights[h];
    if (capped) route.cap_load[h] += sign * f.weights[h] * f.cap;
  }
  if (!capped) {
    if (sign > 0)
      ++route.n_uncappable;
    else
      --route.n_uncappable;
  }
}

void FlowNetwork::recompute_weight_sum(Route& route) {
  std::fill(route.weight_sum.begin(), route.weight_sum.end(), 0.0);
  std::fill(route.cap_load.begin(), route.cap_load.end(), 0.0);
  route.n_uncappable = 0;
  route.capped_rate = 0;
  for (const CapEntry& e : route.by_cap) {
    const Flow& f = flows_[e.flow];
    add_member_load(route, f, 1.0);
    if (f.state == FlowState::capped) route.capped_rate += f.cap;
  }
  route.removals = 0;
}

void FlowNetwork::rebase(Route& route) {
  if (!(route.clock > kRebaseBytes)) return;
  route.tags.shift_keys(-route.clock);
  for (const CapEntry& e : route.by_cap)
    if (flows_[e.flow].state == FlowState::uncapped) flows_[e.flow].tag -= route.clock;
  route.clock = 0;
}

void FlowNetwork::update_route_event(RouteId r) {
  Route& route = routes_[r];
  if (route.tags.empty() || !(route.level > 0)) {
    route_events_.erase(r);
    return;
  }
  const double left = route.tags.top_key() - route.clock;
  route_events_.set(r, route.clock_at + std::max(left, 0.0) / route.level);
}

void FlowNetwork::solve() {
  ++counters_.solves;
  // 1. The component: every route and resource reachable from the changed routes.
  ++epoch_;
  comp_routes_.clear();
  comp_resources_.clear();
  auto visit_resource = [&](ResourceId r) {
    if (resources_[r].visit == epoch_) return;
    resources_[r].visit = epoch_;
    comp_resources_.push_back(r);
  };
  auto visit_route = [&](RouteId g) {
    Route& route = routes_[g];
    if (route.visit == epoch_) return;
    route.visit = epoch_;
    if (route.members() > 0) comp_routes_.push_back(g);
    for (ResourceId r : route.hops) visit_resource(r);
  };
  if (solver_->whole_network()) {
    for (RouteId g : dirty_) visit_route(g);
    for (RouteId g = 0; g < routes_.size(); ++g)
      if (routes_[g].members() > 0) visit_route(g);
  } else {
    for (RouteId g : dirty_) visit_route(g);
    for (std::size_t i = 0; i < comp_resources_.size(); ++i)
      for (RouteId g : resources_[comp_resources_[i]].routes) visit_route(g);
  }
  dirty_.clear();
  counters_.routes_solved += comp_routes_.size();
  counters_.resources_solved += comp_resources_.size();

  // 2. Rates.
  solver_->solve(*this);

  // 3. Apply: bring each class's clock to now at its old rate, then move members between the
  //    capped and uncapped states where the boundary moved, and set the new rate.
  for (RouteId g : comp_routes_) {
    Route& route = routes_[g];
    route.clock = clock_now(route);
    route.clock_at = now_;
    rebase(route);
    settle_route(route);
    const std::uint32_t k = new_capped_[g];
    std::uint32_t capped_left = route.n_capped;
    for (std::uint32_t i = 0; i < route.by_cap.size() && (i < k || capped_left > 0); ++i) {
      const FlowId id = route.by_cap[i].flow;
      Flow& f = flows_[id];
      const bool was_capped = f.state == FlowState::capped;
      if (was_capped) --capped_left;
      const bool capped = i < k;
      if (capped == was_capped) continue;
      if (capped) {
        double left = f.remaining;
        if (f.state == FlowState::uncapped) {
          left = f.tag - route.clock;
          route.tags.erase(id);
        }
        f.remaining = std::max(left, 0.0);
        f.since = now_;
        f.state = FlowState::capped;
        capped_.set(id, now_ + f.remaining / f.cap);
        ++route.n_capped;
        route.capped_rate += f.cap;
      } else {
        // Was capped: its own rate held until now.
        const double left = std::max(f.remaining - f.cap * (now_ - f.since), 0.0);
        capped_.erase(id);
        --route.n_capped;
        route.capped_rate -= f.cap;
        f.state = FlowState::uncapped;
        f.tag = route.clock + left;
        route.tags.set(id, f.tag);
      }
    }
    route.level = new_level_[g];
  }
  // Flows that started since the last solve and are not capped join their class's clock.
  for (FlowId id : pending_) {
    Flow& f = flows_[id];
    if (f.state != FlowState::pending) continue;
    Route& route = routes_[f.route];
    f.state = FlowState::uncapped;
    f.tag = route.clock + f.remaining;
    route.tags.set(id, f.tag);
  }
  pending_.clear();
  for (RouteId g : comp_routes_) {
    Route& route = routes_[g];
    route.data_rate = static_cast<double>(route.members() - route.n_capped) * route.level + route.capped_rate;
    update_route_event(g);
  }
  // A resource's load so far is settled only where its rate changes (the accounting is linear
  // in time: the old rate held until now).
  for (ResourceId r : comp_resources_) {
    Resource& res = resources_[r];
    if (res.wire_rate == new_wire_rate_[r]) continue;
    settle_resource(r);
    res.wire_rate = new_wire_rate_[r];
    if (record_series_) res.series.push_back({now_, res.wire_bytes});
  }
}

void FlowNetwork::finish(FlowId id, std::vector<FlowId>& done) {
  Flow& f = flows_[id];
  const RouteId g = f.route;
  Route& route = routes_[g];
  const bool was_capped = f.state == FlowState::capped;
  settle_route(route);
  // Until the next solve (at this same time) the others keep their rates.
  route.data_rate -= f.state == FlowState::capped ? f.cap : f.state == FlowState::uncapped ? route.level : 0.0;
  if (f.state == FlowState::capped) {
    capped_.erase(id);
    --route.n_capped;
    route.capped_rate -= f.cap;
  } else if (f.state == FlowState::uncapped) {
    route.tags.erase(id);
  }
  const auto it = std::lower_bound(route.by_cap.begin(), route.by_cap.end(), CapEntry{f.cap, id});
  assert(it != route.by_cap.end() && it->flow == id);
  route.by_cap.erase(it);
  add_member_load(route, f, -1.0);
  if (++route.removals >= kRecomputeAfter) recompute_weight_sum(route);
  if (route.members() == 0) {
    std::fill(route.weight_sum.begin(), route.weight_sum.end(), 0.0);
    std::fill(route.cap_load.begin(), route.cap_load.end(), 0.0);
    route.n_uncappable = 0;
    route.capped_rate = 0;
    route.removals = 0;
    route.level = 0;
    route.data_rate = 0;
    route_events_.erase(g);
    for (ResourceId r : route.hops) {
      auto& list = resources_[r].routes;
      const auto pos = std::find(list.begin(), list.end(), g);
      if (pos != list.end()) {
        *pos = list.back();
        list.pop_back();
      }
    }
  }
  f.state = FlowState::free;
  free_flows_.push_back(id);
  --active_flows_;
  if (!was_capped || !finish_at_cap(route, g, f)) mark_dirty(g);
  done.push_back(id);
}

void FlowNetwork::advance_to(double t_ns, std::vector<FlowId>& done) {
  if (!dirty_.empty()) solve();
  if (t_ns < now_) throw std::logic_error("FlowNetwork::advance_to: time goes backwards");
  now_ = t_ns;
  const double due = t_ns + kTimeSlackNs;
  while (!capped_.empty() && capped_.top_key() <= due) finish(capped_.top(), done);
  while (!route_events_.empty() && route_events_.top_key() <= due) {
    const RouteId g = route_events_.top();
    Route& route = routes_[g];
    route.clock = clock_now(route);
    route.clock_at = now_;
    // Due: within the slack of this event, or so close that the time of its own finish would not
    // be later than this event (below the clock's resolution).
    while (!route.tags.empty()) {
      const double left = route.tags.top_key() - route.clock;
      const double slack = route.level * kTimeSlackNs + 1e-13 * std::fabs(route.tags.top_key());
      if (left > slack && now_ + left / route.level > due) break;
      finish(route.tags.top(), done);
    }
    rebase(route);
    update_route_event(g);
  }
}

}  // namespace linkcast::sim
