#include "sim/solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Components of up to this many resources find the lowest share by scanning.
constexpr std::size_t kScanResources = 48;
}  // namespace

bool IncrementalMaxMin::solve_if_fits_at_caps(FlowNetwork& net) {
  auto& s = net.scratch_;
  const auto& routes = net.routes_;
  for (RouteId g : net.comp_routes_)
    if (routes[g].n_uncappable > 0) return false;
  for (ResourceId r : net.comp_resources_) s.load[r] = 0;
  for (RouteId g : net.comp_routes_) {
    const auto& route = routes[g];
    for (std::size_t h = 0; h < route.hops.size(); ++h) s.load[route.hops[h]] += route.cap_load[h];
  }
  for (ResourceId r : net.comp_resources_)
    if (!(s.load[r] <= net.resources_[r].capacity * kFitsAtCapsMargin)) return false;
  for (RouteId g : net.comp_routes_) {
    net.new_capped_[g] = static_cast<std::uint32_t>(routes[g].members());
    net.new_level_[g] = 0;
  }
  for (ResourceId r : net.comp_resources_) net.new_wire_rate_[r] = s.load[r];
  return true;
}

void IncrementalMaxMin::do_solve(FlowNetwork& net) const {
  auto& s = net.scratch_;
  auto& routes = net.routes_;
  auto& resources = net.resources_;
  const auto& flows = net.flows_;
  // The network's solve epoch marks the routes frozen in this solve.
  const std::uint32_t epoch = net.epoch_;

  // One route class alone with no capped member (a pair on its own link, most components):
  // its members share the narrowest hop.
  if (net.comp_routes_.size() == 1 && !std::isfinite(routes[net.comp_routes_[0]].by_cap.front().cap)) {
    const RouteId g = net.comp_routes_[0];
    const auto& route = routes[g];
    double level = kInf;
    for (std::size_t h = 0; h < route.hops.size(); ++h)
      level = std::min(level, resources[route.hops[h]].capacity / route.weight_sum[h]);
    net.new_capped_[g] = 0;
    net.new_level_[g] = level;
    for (ResourceId r : net.comp_resources_) net.new_wire_rate_[r] = 0;
    for (std::size_t h = 0; h < route.hops.size(); ++h)
      net.new_wire_rate_[route.hops[h]] = std::min(level * route.weight_sum[h], resources[route.hops[h]].capacity);
    return;
  }
  if (solve_if_fits_at_caps(net)) return;
  for (ResourceId r : net.comp_resources_) {
    s.rem[r] = resources[r].capacity;
    s.load[r] = 0;
    s.count[r] = 0;
  }
  for (RouteId g : net.comp_routes_) {
    const auto& route = routes[g];
    net.new_capped_[g] = 0;
    net.new_level_[g] = 0;
    const auto members = static_cast<std::uint32_t>(route.members());
    for (std::size_t h = 0; h < route.hops.size(); ++h) {
      const ResourceId r = route.hops[h];
      s.route_load[route.scratch_at + h] = route.weight_sum[h];
      s.load[r] += route.weight_sum[h];
      s.count[r] += members;
    }
    if (std::isfinite(route.by_cap.front().cap)) s.caps.set(g, route.by_cap.front().cap);
  }
  // Small components (most of them) scan their resources for the lowest share; large ones keep
  // the shares in a heap.
  const bool use_heap = net.comp_resources_.size() > kScanResources;
  std::size_t active = 0;
  for (ResourceId r : net.comp_resources_) {
    s.share[r] = kInf;
    if (s.count[r] == 0) continue;
    ++active;
    s.share[r] = s.rem[r] / s.load[r];
    if (use_heap) s.shares.set(r, s.share[r]);
  }

  // Removes `weight` units per ns-rate of load (and `members` flows) from resource r, whose
  // remaining capacity drops by `used`.
  auto consume = [&](ResourceId r, double used, double weight, std::uint32_t members) {
    s.rem[r] = std::max(s.rem[r] - used, 0.0);
    s.count[r] -= members;
    if (s.count[r] == 0) {
      s.load[r] = 0;
      s.share[r] = kInf;
      --active;
      if (use_heap) s.shares.erase(r);
    } else {
      s.load[r] = std::max(s.load[r] - weight, 1e-300);
      s.share[r] = s.rem[r] / s.load[r];
      if (use_heap) s.shares.set(r, s.share[r]);
    }
  };
  // The resource with the lowest share (remaining capacity per unit of unfrozen load).
  auto lowest = [&](ResourceId& r) {
    if (use_heap) {
      r = s.shares.top();
      return s.shares.top_key();
    }
    double best = kInf;
    for (ResourceId c : net.comp_resources_) {
      if (s.share[c] < best) {
        best = s.share[c];
        r = c;
      }
    }
    return best;
  };

  while (active > 0 || !s.caps.empty()) {
    ResourceId r = 0;
    const double share = active == 0 ? kInf : lowest(r);
    const double cap = s.caps.empty() ? kInf : s.caps.top_key();
    if (cap <= share) {
      // The route's lowest-capped unfrozen member reaches its own cap first.
      const RouteId g = s.caps.top();
      auto& route = routes[g];
      std::uint32_t& k = net.new_capped_[g];
      const auto& f = flows[route.by_cap[k].flow];
      for (std::size_t h = 0; h < route.hops.size(); ++h) {
        s.route_load[route.scratch_at + h] -= f.weights[h];
        consume(route.hops[h], f.weights[h] * cap, f.weights[h], 1);
      }
      ++k;
      if (k < route.members() && std::isfinite(route.by_cap[k].cap)) s.caps.set(g, route.by_cap[k].cap);
      else s.caps.erase(g);
      if (k == route.members()) s.frozen[g] = epoch;
      continue;
    }
    // Resource r runs out at rate `share`: every unfrozen route through it freezes there.
    for (RouteId g : resources[r].routes) {
      if (s.frozen[g] == epoch) continue;
      auto& route = routes[g];
      s.frozen[g] = epoch;
      s.caps.erase(g);
      net.new_level_[g] = share;
      const auto unfrozen = static_cast<std::uint32_t>(route.members()) - net.new_capped_[g];
      for (std::size_t h = 0; h < route.hops.size(); ++h) {
        const double w = s.route_load[route.scratch_at + h];
        consume(route.hops[h], w * share, w, unfrozen);
      }
    }
    // Every route through r froze, taking its unfrozen members off r: r left the active set.
    assert(s.count[r] == 0 && "a resource that ran out still has unfrozen flows");
  }
  for (ResourceId r : net.comp_resources_)
    net.new_wire_rate_[r] = std::max(resources[r].capacity - s.rem[r], 0.0);
}

void ReferenceMaxMin::do_solve(FlowNetwork& net) const {
  // Every active flow on its own, every resource scanned on every round.
  const auto& routes = net.routes_;
  const auto& resources = net.resources_;
  const auto& flows = net.flows_;
  struct Var {
    FlowId id;
    RouteId route;
    bool frozen = false;
    bool by_cap = false;
    bool fresh = false;  // frozen in this round
    double rate = 0;
  };
  std::vector<Var> vars;
  for (RouteId g : net.comp_routes_)
    for (const auto& e : routes[g].by_cap) vars.push_back({e.flow, g});
  std::vector<double> rem(resources.size());
  for (ResourceId r : net.comp_resources_) rem[r] = resources[r].capacity;
  std::size_t left = vars.size();
  while (left > 0) {
    // Unfrozen weight on each resource.
    std::vector<double> load(resources.size(), 0.0);
    for (const Var& v : vars) {
      if (v.frozen) continue;
      const auto& route = routes[v.route];
      for (std::size_t h = 0; h < route.hops.size(); ++h) load[route.hops[h]] += flows[v.id].weights[h];
    }
    double level = kInf;
    for (ResourceId r : net.comp_resources_)
      if (load[r] > 0) level = std::min(level, rem[r] / load[r]);
    for (const Var& v : vars)
      if (!v.frozen) level = std::min(level, flows[v.id].cap);
    // Freeze the flows held by their cap at this level, or by a resource that ran out.
    std::vector<char> saturated(resources.size(), 0);
    for (ResourceId r : net.comp_resources_)
      if (load[r] > 0 && rem[r] / load[r] <= level * (1 + 1e-12)) saturated[r] = 1;
    for (Var& v : vars) {
      if (v.frozen) continue;
      const auto& f = flows[v.id];
      const auto& route = routes[v.route];
      bool freeze = f.cap <= level;
      v.by_cap = freeze;
      for (ResourceId r : route.hops) freeze = freeze || saturated[r];
      if (!freeze) continue;
      v.frozen = true;
      v.fresh = true;
      v.rate = level;
      --left;
    }
    for (Var& v : vars) {
      if (!v.fresh) continue;
      v.fresh = false;
      const auto& route = routes[v.route];
      for (std::size_t h = 0; h < route.hops.size(); ++h)
        rem[route.hops[h]] = std::max(rem[route.hops[h]] - flows[v.id].weights[h] * level, 0.0);
    }
  }
  for (RouteId g : net.comp_routes_) {
    net.new_capped_[g] = 0;
    net.new_level_[g] = 0;
  }
  for (const Var& v : vars) {
    if (v.by_cap) ++net.new_capped_[v.route];
    else net.new_level_[v.route] = v.rate;
  }
  for (ResourceId r : net.comp_resources_)
    net.new_wire_rate_[r] = std::max(resources[r].capacity - rem[r], 0.0);
}

namespace {

constexpr std::array<SolverInfo, 2> kSolvers = {{
    {"maxmin",
     "incremental max-min fair sharing: one class per route, only the component that changed is "
     "re-solved",
     [] { return std::unique_ptr<Solver>(new IncrementalMaxMin()); }},
    {"maxmin-reference",
     "textbook progressive filling, flow by flow over the whole network on every change (slow; "
     "the yardstick for tests)",
     [] { return std::unique_ptr<Solver>(new ReferenceMaxMin()); }},
}};

}  // namespace

std::span<const SolverInfo> all_solvers() { return kSolvers; }

std::vector<std::string> solver_names() { return names_of(kSolvers); }

std::unique_ptr<Solver> make_solver(std::string_view name) {
  for (const auto& s : kSolvers)
    if (s.name == name) return s.make();
  throw InputError(unknown_name("solver", name, solver_names()));
}

}  // namespace linkcast::sim
