// The event loop (sim/engine): dependencies, releases, L + O before data, copy-engine pools.
// Each test states the system, the inputs and the expected times before asserting.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/engine.hpp"
#include "sim/solver.hpp"

namespace linkcast::sim {
namespace {

using ::testing::StrEq;
using ::testing::ThrowsMessage;

struct Fixture {
  std::unique_ptr<Solver> solver = make_solver("maxmin");
  FlowNetwork net{*solver};
  Engine engine{net};
  RouteId link;  // one 10 GB/s link
  Fixture() {
    const ResourceId r = net.add_resource(10);
    link = net.add_route(std::vector<ResourceId>{r});
  }
};

TEST(SimEngine, FixedCostIsChargedBeforeData) {
  // 1 GB over a 10 GB/s link with L + O = 2000 ns: data starts at 2000 ns, ends at
  // 2000 + 1e9 / 10 = 100'002'000 ns.
  Fixture f;
  const TaskId t = f.engine.add_transfer(f.link, 1e9, {}, kNoCap, 2000);
  f.engine.run();
  EXPECT_DOUBLE_EQ(f.engine.timing(t).start_ns, 0);
  EXPECT_NEAR(f.engine.timing(t).end_ns, 100'002'000, 1e-6);
}

TEST(SimEngine, DependentTasksRunInOrderIndependentOnesShare) {
  // Stream A: a then b (b depends on a), 0.5 GB each; stream C: c, 1 GB, independent. All on
  // one 10 GB/s link. a and c share (5 GB/s each): a ends at 1e8 ns having moved 0.5 GB, c has
  // 0.5 GB left. Then b and c share: both have 0.5 GB at 5 GB/s: both end at 2e8 ns.
  Fixture f;
  const TaskId a = f.engine.add_transfer(f.link, 0.5e9, {}, kNoCap, 0);
  const TaskId b = f.engine.add_transfer(f.link, 0.5e9, {}, kNoCap, 0);
  const TaskId c = f.engine.add_transfer(f.link, 1e9, {}, kNoCap, 0);
  f.engine.depend(b, a);
  f.engine.run();
  EXPECT_NEAR(f.engine.timing(a).end_ns, 1e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(b).start_ns, 1e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(b).end_ns, 2e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(c).end_ns, 2e8, 1e-6);
  EXPECT_NEAR(f.engine.makespan_ns(), 2e8, 1e-6);
}

TEST(SimEngine, ReleaseTimeHoldsATaskBack) {
  // A 1 GB transfer released at 5e7 ns on an idle 10 GB/s link ends at 5e7 + 1e8.
  Fixture f;
  const TaskId t = f.engine.add_transfer(f.link, 1e9, {}, kNoCap, 0);
  f.engine.set_release(t, 5e7);
  f.engine.run();
  EXPECT_NEAR(f.engine.timing(t).start_ns, 5e7, 1e-6);
  EXPECT_NEAR(f.engine.timing(t).end_ns, 1.5e8, 1e-6);
}

TEST(SimEngine, PoolSerialisesBeyondItsSlots) {
  // Three 1 GB copies on three different 10 GB/s links, all in a pool of 2 slots (a GPU with
  // two copy engines): the first two run at once (1e8 ns), the third starts when a slot frees.
  Fixture f;
  std::vector<RouteId> routes = {f.link};
  for (int i = 0; i < 2; ++i) routes.push_back(f.net.add_route(std::vector<ResourceId>{f.net.add_resource(10)}));
  const PoolId pool = f.engine.add_pool(2);
  std::vector<TaskId> t;
  for (RouteId r : routes) {
    t.push_back(f.engine.add_transfer(r, 1e9, {}, kNoCap, 0));
    f.engine.set_pool(t.back(), pool);
  }
  f.engine.run();
  EXPECT_NEAR(f.engine.timing(t[0]).end_ns, 1e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(t[1]).end_ns, 1e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(t[2]).ready_ns, 0, 1e-6);
  EXPECT_NEAR(f.engine.timing(t[2]).start_ns, 1e8, 1e-6);
  EXPECT_NEAR(f.engine.timing(t[2]).end_ns, 2e8, 1e-6);
}

TEST(SimEngine, ZeroByteTaskIsPureLatency) {
  // A delay of 700 ns followed by a zero-byte transfer with L + O 300 ns: ends at 1000 ns.
  Fixture f;
  const TaskId d = f.engine.add_delay(700);
  const TaskId z = f.engine.add_transfer(f.link, 0, {}, kNoCap, 300);
  f.engine.depend(z, d);
  f.engine.run();
  EXPECT_DOUBLE_EQ(f.engine.timing(z).end_ns, 1000);
}

TEST(SimEngine, LongZeroTimeChainsDoNotRecurse) {
  // 200'000 zero-time tasks in a chain finish at time 0 (the loop is iterative).
  Fixture f;
  TaskId prev = f.engine.add_delay(0);
  for (int i = 0; i < 200'000; ++i) {
    const TaskId t = f.engine.add_delay(0);
    f.engine.depend(t, prev);
    prev = t;
  }
  f.engine.run();
  EXPECT_DOUBLE_EQ(f.engine.timing(prev).end_ns, 0);
}

TEST(SimEngine, CycleIsReported) {
  Fixture f;
  const TaskId a = f.engine.add_delay(1), b = f.engine.add_delay(1);
  f.engine.depend(a, b);
  f.engine.depend(b, a);
  EXPECT_THAT([&] { f.engine.run(); },
              ThrowsMessage<std::logic_error>(StrEq("Engine::run: 2 tasks never started: their dependencies form a cycle")));
}

TEST(SimEngine, WaitsOnStartsAndLagsAsAReplayedApplicationUsesThem) {
  // A call (100 ns) launches work b: b waits for the call's start, its launch lag of 30 ns later,
  // and runs 50 ns: 30 to 80. The next call c on the thread waits for the call's end with a CPU gap
  // (lag) of 10 ns, and for b's end without one: ready at max(100 + 10, 80) = 110, ends at 130.
  // d waits for c's end with a lag of 5 but is released at 500: the release holds it.
  Fixture f;
  const TaskId call = f.engine.add_delay(100), b = f.engine.add_delay(50), c = f.engine.add_delay(20),
               d = f.engine.add_delay(1);
  f.engine.set_lag(b, 30);
  f.engine.depend(b, call, Wait{.on_start = true, .lagged = true});
  f.engine.set_lag(c, 10);
  f.engine.depend(c, call, Wait{.on_start = false, .lagged = true});
  f.engine.depend(c, b);
  f.engine.set_lag(d, 5);
  f.engine.set_release(d, 500);
  f.engine.depend(d, c, Wait{.on_start = false, .lagged = true});
  f.engine.run();
  EXPECT_NEAR(f.engine.timing(b).start_ns, 30, 1e-9);
  EXPECT_NEAR(f.engine.timing(b).end_ns, 80, 1e-9);
  EXPECT_NEAR(f.engine.timing(c).ready_ns, 110, 1e-9);
  EXPECT_NEAR(f.engine.timing(c).end_ns, 130, 1e-9);
  EXPECT_NEAR(f.engine.timing(d).start_ns, 500, 1e-9);
  // c's critical path: the call's end plus the lag (110) beat b's end (80); the call is first.
  const std::vector<PathStep> path = f.engine.critical_path(c);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[0].task, c);
  EXPECT_EQ(path[1].task, call);
  EXPECT_FALSE(path[1].wait.on_start);
  EXPECT_TRUE(path[1].wait.lagged);
  // b's: its call's start (0) plus its lag; d's stops at d (its release held it, not c).
  const std::vector<PathStep> to_b = f.engine.critical_path(b);
  ASSERT_EQ(to_b.size(), 2u);
  EXPECT_TRUE(to_b[1].wait.on_start);
  EXPECT_EQ(f.engine.critical_path(d).size(), 1u);
}

TEST(SimEngine, AFlowHasNoLag) {
  Fixture f;
  const TaskId t = f.engine.add_transfer(f.link, 1e9, {}, kNoCap, 0);
  EXPECT_THROW(f.engine.set_lag(t, 10), std::invalid_argument);
}

}  // namespace
}  // namespace linkcast::sim
