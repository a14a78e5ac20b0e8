// Simulator speed (build with -O2, the default build type):
//  BM_RandomFlowsDgx1/K/N: N flows between random GPU pairs of the DGX-1 (cube-mesh NVLink,
//    PCIe where GPUs are not neighbours), sizes log-uniform 64 KiB..64 MiB, K kept in flight (a
//    new flow starts whenever one ends). items_per_second = flow events (starts + completions)
//    per second. Target: >= 1 M/s. The Reference variant runs the textbook solver.
//  BM_SimulateCopies: 100,000 copies on 1,000 streams (100 each) over the DGX-1 through
//    sim::simulate (planning, event loop, results), as `linkcast simulate` runs them.
//  BM_SimulateRingAllreduce: a 1 GiB ring allreduce on 8 GPUs with NCCL's default chunking.
//  BM_SimulateLongTrace/N: N timed copies between the host and 8 GPUs on 16 streams (the shape of
//    tools/bench/gen_trace.py) through sim::simulate. Counters: operations per second, and the
//    heap the simulation held at its highest beyond the trace itself, in bytes per operation
//    (issue 17: target <= 120), sampled from malloc's statistics as the event loop reports.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/network.hpp"
#include "sim/simulate.hpp"
#include "sim/solver.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace {

using namespace linkcast;

const topology::Node& dgx1() {
  static const topology::Node node = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/dgx1-v100.yaml");
  return node;
}

void random_flows(benchmark::State& state, const char* solver_name) {
  const topology::Node& node = dgx1();
  const topology::Routes routes(node);
  const auto solver = sim::make_solver(solver_name);
  const auto gpus = node.gpus();
  const auto in_flight = static_cast<std::size_t>(state.range(0));
  std::uint64_t events = 0;
  for (auto _ : state) {
    state.PauseTiming();
    sim::FlowNetwork net(*solver);
    for (const auto& l : node.links) {
      net.add_resource(l.spec.gbps());
      net.add_resource(l.spec.gbps());
    }
    std::vector<sim::RouteId> pair_route;
    for (int a : gpus)
      for (int b : gpus) {
        if (a == b) continue;
        std::vector<sim::ResourceId> hops;
        for (const auto& dl : routes.path(a, b).links)
          hops.push_back(static_cast<sim::ResourceId>(dl.link * 2 + (dl.forward ? 0 : 1)));
        pair_route.push_back(net.add_route(hops));
      }
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::size_t> pick(0, pair_route.size() - 1);
    std::uniform_real_distribution<double> log_size(std::log(64.0 * 1024), std::log(64.0 * 1024 * 1024));
    const auto total = static_cast<std::size_t>(state.range(1));
    std::size_t started = 0;
    state.ResumeTiming();
    auto start_one = [&] {
      net.start(pair_route[pick(rng)], std::exp(log_size(rng)), {}, sim::kNoCap, started);
      ++started;
      ++events;
    };
    while (started < in_flight) start_one();
    std::vector<sim::FlowId> done;
    while (net.active_flows() > 0) {
      const double t = net.next_completion();
      done.clear();
      net.advance_to(t, done);
      events += done.size();
      for (std::size_t k = 0; k < done.size() && started < total; ++k) start_one();
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
  state.counters["in_flight"] = static_cast<double>(in_flight);
}

void BM_RandomFlowsDgx1(benchmark::State& state) { random_flows(state, "maxmin"); }
// Args: flows in flight, flows in all.
BENCHMARK(BM_RandomFlowsDgx1)->Args({16, 200'000})->Args({256, 200'000})->Args({4096, 200'000})->Unit(benchmark::kMillisecond);

void BM_RandomFlowsDgx1Reference(benchmark::State& state) { random_flows(state, "maxmin-reference"); }
BENCHMARK(BM_RandomFlowsDgx1Reference)->Args({16, 20'000})->Unit(benchmark::kMillisecond)->Iterations(1);

trace::Trace copies_trace(std::size_t copies, std::uint32_t streams) {
  trace::Trace t;
  std::mt19937_64 rng(1);
  const std::vector<std::string> eps = {"cpu0", "cpu1", "gpu0", "gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7"};
  std::vector<std::uint16_t> ids;
  for (const auto& e : eps) ids.push_back(t.endpoint(e));
  std::uniform_int_distribution<std::size_t> pick(0, ids.size() - 1);
  std::uniform_real_distribution<double> log_size(std::log(4096.0), std::log(16.0 * 1024 * 1024));
  t.reserve(copies);
  for (std::size_t i = 0; i < copies; ++i) {
    trace::Op op;
    op.kind = trace::OpKind::copy;
    do {
      op.src = ids[pick(rng)];
      op.dst = ids[pick(rng)];
    } while (op.src == op.dst || (op.src < 2 && op.dst < 2));
    op.src_mem = op.src < 2 ? model::MemKind::pinned : model::MemKind::device;
    op.dst_mem = op.dst < 2 ? model::MemKind::pinned : model::MemKind::device;
    op.bytes = static_cast<std::uint64_t>(std::exp(log_size(rng)));
    op.stream = static_cast<std::uint32_t>(i % streams);
    t.push(op);
  }
  return t;
}

void BM_SimulateCopies(benchmark::State& state) {
  const trace::Trace trace = copies_trace(100'000, 1000);
  for (auto _ : state) {
    const sim::SimResult r = sim::simulate(dgx1(), trace, {});
    benchmark::DoNotOptimize(r.makespan_ns);
    state.counters["events"] = static_cast<double>(r.events);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 100'000);
}
BENCHMARK(BM_SimulateCopies)->Unit(benchmark::kMillisecond);

void BM_SimulateRingAllreduce(benchmark::State& state) {
  trace::Trace t;
  std::vector<std::uint16_t> members;
  for (int g = 0; g < 8; ++g) members.push_back(t.endpoint("gpu" + std::to_string(g)));
  const std::uint32_t group = t.add_group(members);
  for (int g = 0; g < 8; ++g) {
    trace::Op op;
    op.kind = trace::OpKind::allreduce;
    op.src = op.dst = members[static_cast<std::size_t>(g)];
    op.bytes = 1ull << 30;
    op.group = group;
    t.push(op);
  }
  sim::SimOptions o;
  o.algo = nccl::CollAlgo::ring;
  static const topology::Node h100 = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/hgx-h100.yaml");
  for (auto _ : state) {
    const sim::SimResult r = sim::simulate(h100, t, o);
    benchmark::DoNotOptimize(r.makespan_ns);
    state.counters["transfers"] = static_cast<double>(r.collectives[0].transfers);
  }
}
BENCHMARK(BM_SimulateRingAllreduce)->Unit(benchmark::kMillisecond);

/// Heap bytes in use now (malloc's arenas and its mmapped blocks).
double heap_in_use_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

trace::Trace long_trace(std::size_t n) {
  trace::Trace t;
  std::mt19937_64 rng(1);
  const std::uint16_t host = t.endpoint("cpu0");
  std::vector<std::uint16_t> gpus;
  for (int g = 0; g < 8; ++g) gpus.push_back(t.endpoint("gpu" + std::to_string(g)));
  t.reserve(n);
  std::int64_t start = 0;
  for (std::size_t i = 0; i < n; ++i) {
    trace::Op op;
    const std::uint16_t g = gpus[rng() % 8];
    switch (rng() % 4) {
      case 0: op.src = host; op.dst = g; op.src_mem = model::MemKind::pinned; op.dst_mem = model::MemKind::device; break;
      case 1: op.src = g; op.dst = host; op.src_mem = model::MemKind::device; op.dst_mem = model::MemKind::pageable; break;
      case 2: op.src = op.dst = g; op.src_mem = op.dst_mem = model::MemKind::device; break;
      default: op.src = g; op.dst = gpus[rng() % 8]; op.src_mem = op.dst_mem = model::MemKind::device; break;
    }
    op.bytes = std::uint64_t{1} << (rng() % 29);
    op.duration_ns = static_cast<std::int64_t>(1000 + op.bytes / 20);
    op.start_ns = start;
    start += op.duration_ns / 4;
    op.stream = static_cast<std::uint32_t>(i % 16);
    t.push(op);
  }
  return t;
}

void BM_SimulateLongTrace(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const trace::Trace trace = long_trace(n);
  double peak_beyond_trace = 0;
  for (auto _ : state) {
    const double before = heap_in_use_bytes();
    double peak = before;
    sim::SimOptions o;
    o.progress = [&](std::uint64_t, std::uint64_t) { peak = std::max(peak, heap_in_use_bytes()); };
    const sim::SimResult r = sim::simulate(dgx1(), trace, o);
    peak = std::max(peak, heap_in_use_bytes());
    peak_beyond_trace = std::max(peak_beyond_trace, peak - before);
    benchmark::DoNotOptimize(r.makespan_ns);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["bytes_per_op"] = peak_beyond_trace / static_cast<double>(n);
  state.counters["trace_bytes_per_op"] = static_cast<double>(trace.memory_bytes()) / static_cast<double>(n);
}
BENCHMARK(BM_SimulateLongTrace)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
