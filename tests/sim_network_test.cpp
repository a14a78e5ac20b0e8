// Max-min fair sharing and the flow clock (sim/network, sim/solver). Every test states the
// system, the inputs and the reasoned expectation before asserting, as SimGrid's maxmin tests do.
// Units: GB/s = bytes per ns, so 1e9 bytes at 1 GB/s take 1e9 ns.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "sim/network.hpp"
#include "sim/solver.hpp"
#include "sim/usage_bins.hpp"

namespace linkcast::sim {
namespace {

using ::testing::StrEq;
using ::testing::ThrowsMessage;

/// Runs the network to completion; returns each flow's finish time by start order (user id).
std::vector<double> run_all(FlowNetwork& net, std::size_t n) {
  std::vector<double> end(n, -1);
  std::vector<FlowId> done;
  while (net.active_flows() > 0) {
    const double t = net.next_completion();
    done.clear();
    net.advance_to(t, done);
    for (FlowId f : done) end[net.user(f)] = t;
  }
  return end;
}

class SharingTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::unique_ptr<Solver> solver = make_solver(GetParam());
};

TEST_P(SharingTest, TwoFlowsShareOneLinkEqually) {
  // System: one 50 GB/s link. Two flows of 1 GB each, uncapped.
  // Expectation: each gets half, 25 GB/s, and both finish at 1e9 / 25 = 40e6 ns.
  FlowNetwork net(*solver);
  const ResourceId link = net.add_resource(50);
  const RouteId route = net.add_route(std::vector<ResourceId>{link});
  const FlowId a = net.start(route, 1e9, {}, kNoCap, 0);
  const FlowId b = net.start(route, 1e9, {}, kNoCap, 1);
  EXPECT_NEAR(net.rate(a), 25.0, 1e-12);
  EXPECT_NEAR(net.rate(b), 25.0, 1e-12);
  const auto end = run_all(net, 2);
  EXPECT_NEAR(end[0], 40e6, 1e-6);
  EXPECT_NEAR(end[1], 40e6, 1e-6);
  EXPECT_NEAR(net.data_bytes(link), 2e9, 1e-3);
}

TEST_P(SharingTest, ParkingLot) {
  // System: links L1, L2, L3 of 10 GB/s in a row. Flow 0 crosses all three; flows 1, 2, 3 use one
  // link each. Every link carries two flows, so max-min gives every flow 5 GB/s.
  FlowNetwork net(*solver);
  std::vector<ResourceId> links = {net.add_resource(10), net.add_resource(10), net.add_resource(10)};
  const RouteId long_route = net.add_route(links);
  std::vector<FlowId> f = {net.start(long_route, 1e9, {}, kNoCap, 0)};
  for (std::size_t i = 0; i < 3; ++i)
    f.push_back(net.start(net.add_route(std::vector<ResourceId>{links[i]}), 1e9, {}, kNoCap, i + 1));
  for (FlowId id : f) EXPECT_NEAR(net.rate(id), 5.0, 1e-12);
}

TEST_P(SharingTest, ParkingLotWithUnequalLinks) {
  // System: L1 = 10 GB/s, L2 = 4 GB/s. Flow 0 crosses both, flow 1 uses L1, flow 2 uses L2.
  // L2 is the tighter: flows 0 and 2 get 2 GB/s each. L1 then has 10 - 2 = 8 GB/s left, all for
  // flow 1 (the capacity flow 0 cannot use is released to it).
  FlowNetwork net(*solver);
  const ResourceId l1 = net.add_resource(10), l2 = net.add_resource(4);
  const FlowId f0 = net.start(net.add_route(std::vector<ResourceId>{l1, l2}), 1e9, {}, kNoCap, 0);
  const FlowId f1 = net.start(net.add_route(std::vector<ResourceId>{l1}), 1e9, {}, kNoCap, 1);
  const FlowId f2 = net.start(net.add_route(std::vector<ResourceId>{l2}), 1e9, {}, kNoCap, 2);
  EXPECT_NEAR(net.rate(f0), 2.0, 1e-12);
  EXPECT_NEAR(net.rate(f1), 8.0, 1e-12);
  EXPECT_NEAR(net.rate(f2), 2.0, 1e-12);
}

TEST_P(SharingTest, CappedFlowReleasesCapacity) {
  // System: one 50 GB/s link, three flows on it; flow 0 is capped at 5 GB/s by its own model
  // (say, pageable staging). Max-min: flow 0 takes its 5 GB/s, the other two split the rest,
  // (50 - 5) / 2 = 22.5 GB/s each.
  FlowNetwork net(*solver);
  const ResourceId link = net.add_resource(50);
  const RouteId route = net.add_route(std::vector<ResourceId>{link});
  const FlowId capped = net.start(route, 1e9, {}, 5.0, 0);
  const FlowId a = net.start(route, 1e9, {}, kNoCap, 1);
  const FlowId b = net.start(route, 1e9, {}, kNoCap, 2);
  EXPECT_NEAR(net.rate(capped), 5.0, 1e-12);
  EXPECT_NEAR(net.rate(a), 22.5, 1e-12);
  EXPECT_NEAR(net.rate(b), 22.5, 1e-12);
  // Flows a and b finish at 1e9 / 22.5 ns; then flow 0 alone is still held at 5 GB/s, having
  // moved 5 * 1e9 / 22.5 bytes, so it finishes at 1e9 / 5 = 200e6 ns.
  const auto end = run_all(net, 3);
  EXPECT_NEAR(end[1], 1e9 / 22.5, 1e-6);
  EXPECT_NEAR(end[0], 200e6, 1e-6);
}

TEST_P(SharingTest, CapAboveFairShareDoesNotBind) {
  // System: one 10 GB/s link, two flows, one capped at 8 GB/s. The fair share (5 GB/s) is below
  // the cap, so both get 5. When the uncapped flow finishes (0.5 GB at 5 GB/s = 1e8 ns), the
  // capped one rises to its cap, 8 GB/s, not to the link's 10, for its remaining 0.5 GB.
  FlowNetwork net(*solver);
  const ResourceId link = net.add_resource(10);
  const RouteId route = net.add_route(std::vector<ResourceId>{link});
  const FlowId capped = net.start(route, 1e9, {}, 8.0, 0);
  net.start(route, 0.5e9, {}, kNoCap, 1);
  EXPECT_NEAR(net.rate(capped), 5.0, 1e-12);
  const auto end = run_all(net, 2);
  EXPECT_NEAR(end[1], 1e8, 1e-6);
  EXPECT_NEAR(end[0], 1e8 + 0.5e9 / 8.0, 1e-6);
}

TEST_P(SharingTest, WeightsChargePacketOverhead) {
  // System: one 25 GB/s NVLink direction. Flow 0 moves 256-byte packets with a 16-byte header
  // flit: 272 wire bytes per 256 data bytes, weight 17/16. Flow 1 has weight 1. Max-min on data
  // rates: both get x with (17/16 + 1) x = 25, x = 25 * 16 / 33 = 12.1212... GB/s; the link is
  // full (wire rate 25).
  FlowNetwork net(*solver);
  const ResourceId link = net.add_resource(25);
  const RouteId route = net.add_route(std::vector<ResourceId>{link});
  const std::vector<double> w = {17.0 / 16.0};
  const FlowId a = net.start(route, 1e9, w, kNoCap, 0);
  const FlowId b = net.start(route, 1e9, std::vector<double>{1.0}, kNoCap, 1);
  EXPECT_NEAR(net.rate(a), 25.0 * 16.0 / 33.0, 1e-12);
  EXPECT_NEAR(net.rate(b), 25.0 * 16.0 / 33.0, 1e-12);
}

TEST_P(SharingTest, ArrivalAndDepartureChangeRates) {
  // System: one 10 GB/s link. Flow 0 (1 GB) starts at 0 alone at 10 GB/s. At 50e6 ns (0.5 GB
  // done) flow 1 (0.25 GB) arrives: both at 5 GB/s; flow 1 ends after 0.25 / 5 = 50e6 ns, at
  // 100e6, flow 0 then has 0.25 GB left at 10 GB/s: ends at 125e6 ns.
  FlowNetwork net(*solver);
  const ResourceId link = net.add_resource(10);
  const RouteId route = net.add_route(std::vector<ResourceId>{link});
  net.start(route, 1e9, {}, kNoCap, 0);
  std::vector<FlowId> done;
  net.advance_to(50e6, done);
  EXPECT_TRUE(done.empty());
  net.start(route, 0.25e9, {}, kNoCap, 1);
  const auto end = run_all(net, 2);
  EXPECT_NEAR(end[1], 100e6, 1e-6);
  EXPECT_NEAR(end[0], 125e6, 1e-6);
  // Utilisation: the link was full the whole 125e6 ns.
  EXPECT_NEAR(net.wire_bytes(link), 10 * 125e6, 1e-3);
}

TEST_P(SharingTest, IndependentComponentsDoNotInterfere) {
  // System: two unrelated links of 10 and 20 GB/s, one flow each, then a second flow on the
  // first link. The second link's flow keeps 20 GB/s throughout.
  FlowNetwork net(*solver);
  const ResourceId l1 = net.add_resource(10), l2 = net.add_resource(20);
  const RouteId r1 = net.add_route(std::vector<ResourceId>{l1}), r2 = net.add_route(std::vector<ResourceId>{l2});
  net.start(r1, 1e9, {}, kNoCap, 0);
  const FlowId other = net.start(r2, 4e9, {}, kNoCap, 1);
  net.start(r1, 1e9, {}, kNoCap, 2);
  EXPECT_NEAR(net.rate(other), 20.0, 1e-12);
  const auto end = run_all(net, 3);
  EXPECT_NEAR(end[0], 2e8, 1e-6);
  EXPECT_NEAR(end[1], 2e8, 1e-6);
}

TEST_P(SharingTest, FlowOverNoResourceRunsAtItsCap) {
  // A copy within one device modelled without a memory resource: 1 GB at its cap of 450 GB/s.
  FlowNetwork net(*solver);
  const RouteId none = net.add_route(std::vector<ResourceId>{});
  net.start(none, 0.9e9, {}, 450, 0);
  const auto end = run_all(net, 1);
  EXPECT_NEAR(end[0], 2e6, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SharingTest, ::testing::Values("maxmin", "maxmin-reference"));

/// Finish times of 400 random flows on a random mesh (12 links of 5..50 GB/s, 40 routes of 1..4
/// links, flows of 1 MB..1 GB with random weights 1..1.3 arriving over `spread_ns`) under each
/// solver; `capped_in_4` of every 4 flows have a cap of their own (2.5..25 GB/s).
std::pair<std::vector<double>, std::vector<double>> finish_times_by_solver(int capped_in_4, double spread_ns) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> cap_gbps(5, 50), bytes(1e6, 1e9), weight(1.0, 1.3), when(0, spread_ns);
  std::vector<double> capacities(12);
  for (double& c : capacities) c = cap_gbps(rng);
  std::vector<std::vector<ResourceId>> route_hops(40);
  for (auto& hops : route_hops) {
    const auto n = 1 + rng() % 4;
    while (hops.size() < n) {
      const auto r = static_cast<ResourceId>(rng() % capacities.size());
      if (std::find(hops.begin(), hops.end(), r) == hops.end()) hops.push_back(r);
    }
  }
  struct Spec {
    double at, bytes, cap;
    std::size_t route;
    std::vector<double> weights;
  };
  std::vector<Spec> specs(400);
  for (auto& s : specs) {
    s.at = when(rng);
    s.bytes = bytes(rng);
    s.route = rng() % route_hops.size();
    s.cap = static_cast<int>(rng() % 4) < capped_in_4 ? cap_gbps(rng) / 2 : kNoCap;
    for (std::size_t h = 0; h < route_hops[s.route].size(); ++h) s.weights.push_back(weight(rng));
  }
  std::sort(specs.begin(), specs.end(), [](const Spec& a, const Spec& b) { return a.at < b.at; });
  auto simulate = [&](const char* name) {
    auto solver = make_solver(name);
    FlowNetwork net(*solver);
    for (double c : capacities) net.add_resource(c);
    for (const auto& hops : route_hops) net.add_route(hops);
    std::vector<double> end(specs.size(), -1);
    std::vector<FlowId> done;
    std::size_t next = 0;
    while (next < specs.size() || net.active_flows() > 0) {
      const double t_flow = net.next_completion();
      const double t_arrive = next < specs.size() ? specs[next].at : std::numeric_limits<double>::infinity();
      done.clear();
      net.advance_to(std::min(t_flow, t_arrive), done);
      for (FlowId f : done) end[net.user(f)] = net.now();
      while (next < specs.size() && specs[next].at <= net.now()) {
        const Spec& s = specs[next];
        net.start(static_cast<RouteId>(s.route), s.bytes, s.weights, s.cap, next);
        ++next;
      }
    }
    return end;
  };
  return {simulate("maxmin"), simulate("maxmin-reference")};
}

TEST(SharingSolvers, IncrementalMatchesReferenceOnRandomFlows) {
  // A quarter of the flows capped, all arriving within 50 ms (heavy sharing). The incremental
  // solver must reproduce the reference's finish times (relative 1e-9).
  const auto [fast, reference] = finish_times_by_solver(1, 5e7);
  for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_NEAR(fast[i], reference[i], 1e-9 * reference[i]) << i;
}

TEST(SharingSolvers, IncrementalMatchesReferenceWhereEveryFlowHasACap) {
  // Every flow capped, arriving over 2 s (most components then hold all their flows at their
  // caps, which the incremental solver finds without progressive filling; the rest share). Same
  // finish times as the reference's (relative 1e-9).
  const auto [fast, reference] = finish_times_by_solver(4, 2e9);
  for (std::size_t i = 0; i < fast.size(); ++i) EXPECT_NEAR(fast[i], reference[i], 1e-9 * reference[i]) << i;
}

TEST(SharingSolvers, FlowsThatFitAtTheirCapsStartAndEndWithoutASolve) {
  // System: links A and B of 10 GB/s; route 1 crosses A, route 2 crosses A then B. Flow x (1 GB,
  // cap 4) on route 1 and flow y (1 GB, cap 5) on route 2 start at 0: 9 GB/s fit on A, so each
  // runs at its cap and nothing else changes: no solve (the incremental solver's shortcut).
  // Flow z (cap 3) on route 2 at 100 ms makes A carry 12 at the caps: a solve shares A,
  // z keeps its 3 and x and y split the other 7, 3.5 each. The reference solver, which solves
  // every change, must give the same finish times and bytes on each link (relative 1e-12).
  struct Run {
    std::uint64_t solves_before_z = 0, solves_after_z = 0;
    double x_rate = 0, y_rate = 0, z_rate = 0, x_rate_shared = 0;
    std::vector<double> end;
    double a_bytes = 0, b_bytes = 0;
  };
  auto run = [](const char* name) {
    auto solver = make_solver(name);
    FlowNetwork net(*solver);
    const ResourceId a = net.add_resource(10), b = net.add_resource(10);
    const RouteId r1 = net.add_route(std::vector<ResourceId>{a});
    const RouteId r2 = net.add_route(std::vector<ResourceId>{a, b});
    Run out;
    const FlowId x = net.start(r1, 1e9, {}, 4, 0);
    const FlowId y = net.start(r2, 1e9, {}, 5, 1);
    out.x_rate = net.rate(x);
    out.y_rate = net.rate(y);
    out.solves_before_z = net.counters().solves;
    std::vector<FlowId> done;
    net.advance_to(1e8, done);
    const FlowId z = net.start(r2, 1e9, {}, 3, 2);
    out.z_rate = net.rate(z);
    out.x_rate_shared = net.rate(x);
    out.solves_after_z = net.counters().solves;
    out.end = run_all(net, 3);
    out.a_bytes = net.wire_bytes(a);
    out.b_bytes = net.wire_bytes(b);
    return out;
  };
  const Run fast = run("maxmin"), reference = run("maxmin-reference");
  EXPECT_EQ(fast.x_rate, 4);
  EXPECT_EQ(fast.y_rate, 5);
  EXPECT_EQ(fast.solves_before_z, 0u);
  EXPECT_EQ(fast.solves_after_z, 1u);
  EXPECT_NEAR(fast.z_rate, 3, 1e-12);
  EXPECT_NEAR(fast.x_rate_shared, 3.5, 1e-12);
  EXPECT_GT(reference.solves_before_z, 0u);  // the yardstick takes no shortcut
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(fast.end[i], reference.end[i], 1e-12 * reference.end[i]) << i;
  EXPECT_NEAR(fast.a_bytes, 3e9, 1e-3);  // every byte crosses A, y's and z's cross B
  EXPECT_NEAR(fast.b_bytes, 2e9, 1e-3);
  EXPECT_NEAR(fast.a_bytes, reference.a_bytes, 1e-12 * reference.a_bytes);
}

TEST(SharingSolvers, ARouteCrossesEachResourceOnce) {
  // A route that names a resource twice is refused where it is made: the changes at caps
  // (FlowNetwork::start_at_cap) check each hop's load alone, and no route the simulator builds
  // crosses a resource twice. The other order of the same resources is a route.
  auto solver = make_solver("maxmin");
  FlowNetwork net(*solver);
  const ResourceId a = net.add_resource(10), b = net.add_resource(10);
  EXPECT_THAT([&] { (void)net.add_route(std::vector<ResourceId>{a, b, a}); },
              ThrowsMessage<std::invalid_argument>(StrEq("FlowNetwork::add_route: a resource twice in one route")));
  EXPECT_THAT([&] { (void)net.add_route(std::vector<ResourceId>{a, 7}); },
              ThrowsMessage<std::invalid_argument>(StrEq("FlowNetwork::add_route: unknown resource")));
  EXPECT_EQ(net.add_route(std::vector<ResourceId>{b, a}), 0u);
}

TEST(SharingSolvers, UnknownNameListsTheValidOnes) {
  EXPECT_THAT([] { (void)make_solver("maxmn"); },
              ThrowsMessage<InputError>(
                  StrEq("unknown solver 'maxmn' (did you mean 'maxmin'?); valid solvers: maxmin, maxmin-reference")));
}

// --- usage over time in bounded memory (sim/usage_bins) ----------------------------------------

TEST(UsageBins, PiecewiseConstantLoadLandsInItsBins) {
  // A resource carries 2 units/ns over [0, 1000) ns and 1 unit/ns over [1000, 4000). Read as 4
  // bins of 1000 ns: 2000, 1000, 1000, 1000 units. The fine bins end up 1 ns wide (4,096 of them
  // cover 4000 ns), every edge falls on a fine edge: exact up to rounding.
  UsageBins u;
  u.add(0, 0, 1000, 2.0);
  u.add(0, 1000, 4000, 1.0);
  EXPECT_DOUBLE_EQ(u.fine_width_ns(), 1.0);
  EXPECT_THAT(u.bins(0, 4, 4000), ::testing::Pointwise(::testing::DoubleNear(1e-9), std::vector<double>{2000, 1000, 1000, 1000}));
  // A resource never added to carried nothing; the tail beyond the last add counts.
  EXPECT_THAT(u.bins(1, 2, 4000), ::testing::ElementsAre(0.0, 0.0));
  EXPECT_THAT(u.bins(0, 1, 5000, 4000, 3.0), ::testing::Pointwise(::testing::DoubleNear(1e-9), std::vector<double>{8000}));
}

TEST(UsageBins, ARunOfAnyLengthKeepsItsTotalInTheSameMemory) {
  // 10,000 segments of 1 unit/ns, each 1 s long with 1 s gaps, over 20,000 s (2e13 ns): the fine
  // bins widen 40-odd times. Every unit stays counted (10,000 x 1e9); 2 result bins each hold
  // 5,000 segments, up to the bytes of the one fine bin their edge cuts (documented bound).
  UsageBins u(64);
  for (int i = 0; i < 10000; ++i) u.add(3, 2e9 * i, 2e9 * i + 1e9, 1.0);
  const std::vector<double> b = u.bins(3, 2, 2e13);
  EXPECT_NEAR(b[0] + b[1], 1e13, 1e13 * 1e-12);
  EXPECT_NEAR(b[0], 5e12, u.fine_width_ns());
  EXPECT_GE(u.fine_width_ns() * 64, 2e13);
  EXPECT_LT(u.fine_width_ns() * 32, 2e13);
}

TEST(UsageBins, AnEdgeInsideAFineBinIsOffByAtMostThatFineBin) {
  // 1 unit/ns over [0, 10.3) ns, nothing after; 2 bins of [0, 20.6): exactly 10.3 and 0. The
  // edge 10.3 falls inside a fine bin of 1/128 ns where the load stops: the split assumes the
  // fine bin evenly loaded, so each bin may be off by at most that fine bin's 1/128 unit.
  UsageBins u;
  u.add(0, 0, 10.3, 1.0);
  const std::vector<double> b = u.bins(0, 2, 20.6);
  EXPECT_NEAR(b[0], 10.3, u.fine_width_ns());
  EXPECT_NEAR(b[1], 0.0, u.fine_width_ns());
  EXPECT_DOUBLE_EQ(b[0] + b[1], 10.3);
  EXPECT_THROW(UsageBins(3), std::invalid_argument);
}

}  // namespace
}  // namespace linkcast::sim
