// Projection arithmetic (target >= 20 M ops/s on one core): Projector::time_ns over a generated
// trace of host<->GPU, device-to-device and peer copies with sizes spread over 1 B .. 256 MiB,
// projected Summit -> HGX H100 under each model.
// BM_ProjectTrace/D: what `linkcast project` does with a 1 Mi-op trace once read (index, anchors,
// every model's times and the summary tables), with sizes repeated (D = 0: powers of two) or every
// operation a different size (D = 1). Issue 17's target: distinct within 1.5x of repeated.
#include <benchmark/benchmark.h>

#include <random>

#include "projection/projector.hpp"
#include "projection/summary.hpp"
#include "topology/loader.hpp"

namespace {

using namespace linkcast;

trace::Trace generated_trace(std::size_t n, bool distinct = false) {
  trace::Trace t;
  t.format = "generated";
  t.source_file = "generated";
  const std::uint16_t host = t.endpoint("host"), g0 = t.endpoint("gpu0"), g1 = t.endpoint("gpu1");
  std::mt19937_64 rng(42);
  t.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    trace::Op op;
    switch (rng() % 5) {
      case 0: op.src = host; op.dst = g0; op.src_mem = model::MemKind::pinned; op.dst_mem = model::MemKind::device; break;
      case 1: op.src = g0; op.dst = host; op.src_mem = model::MemKind::device; op.dst_mem = model::MemKind::pageable; break;
      case 2: op.src = host; op.dst = g1; op.src_mem = model::MemKind::pageable; op.dst_mem = model::MemKind::device; break;
      case 3: op.src = g0; op.dst = g0; op.src_mem = op.dst_mem = model::MemKind::device; break;
      default: op.src = g0; op.dst = g1; op.src_mem = op.dst_mem = model::MemKind::device; break;
    }
    op.bytes = distinct ? 4096 + i : std::uint64_t{1} << (rng() % 29);
    op.duration_ns = static_cast<std::int64_t>(1000 + op.bytes / 20);
    t.push(op);
  }
  return t;
}

void BM_ProjectionArithmetic(benchmark::State& state) {
  const auto from = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/summit.yaml");
  const auto to = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/hgx-h100.yaml");
  const auto trace = generated_trace(1 << 20);
  const projection::Projector projector(from, to, trace);
  const model::Model& m = model::all_models()[static_cast<std::size_t>(state.range(0))];
  double sum = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < trace.size(); ++i) sum += projector.time_ns(i, m);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.size()));
  state.SetLabel(std::string(m.name));
}
BENCHMARK(BM_ProjectionArithmetic)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

void BM_ProjectTrace(benchmark::State& state) {
  const auto from = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/hgx-h100.yaml");
  const auto to = topology::load_node(std::string(LINKCAST_SOURCE_DIR) + "/configs/hgx-h200.yaml");
  const auto trace = generated_trace(1 << 20, state.range(0) == 1);
  std::vector<const model::Model*> models;
  for (const model::Model& m : model::all_models()) models.push_back(&m);
  for (auto _ : state) {
    const projection::Projector projector(from, to, trace);
    benchmark::DoNotOptimize(projection::summarize(projector, models, nullptr, nullptr).ops);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.size()));
  state.SetLabel(state.range(0) == 1 ? "every size distinct" : "sizes repeated");
}
BENCHMARK(BM_ProjectTrace)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
