// What `linkcast report` adds to the matrices, the simulation and the projection it reuses:
//  - BM_ReportSummarizeSimulation: the one pass over the operations (per-kind times, per-device
//    activity in time bins); the only part that grows with the trace;
//  - BM_ReportRenderHtml: writing the page from the computed results (capped tables and charts,
//    so its cost and size depend on the node and on the distinct objects and lines, not on the
//    operation count). Counters: the page's bytes.
// Whole-command timings at 10 M operations: tests/browser/large_report.sh (docs/report.md).
#include <benchmark/benchmark.h>

#include <sstream>

#include "matrix/matrix.hpp"
#include "report/report.hpp"
#include "sim/simulate.hpp"
#include "topology/loader.hpp"
#include "synthetic/catalog.hpp"

namespace {

using namespace linkcast;

/// `ops` peer accesses round-robin over 8 GPUs, with `objects` distinct objects and lines.
trace::Trace access_trace(std::int64_t ops, std::uint32_t objects) {
  trace::Trace t;
  t.reserve(static_cast<std::size_t>(ops));
  for (std::int64_t i = 0; i < ops; ++i) {
    const auto k = static_cast<std::uint32_t>(i);
    trace::Op op;
    op.kind = trace::OpKind::access;
    op.src = t.endpoint("gpu" + std::to_string(k % 8));
    op.dst = t.endpoint("gpu" + std::to_string((k + 1) % 8));
    op.issuer = op.dst;
    op.bytes = 128;
    op.stream = k % 8;
    op.object = t.objects.intern("obj" + std::to_string(k % objects));
    op.line = t.lines.intern("app.cu:" + std::to_string(k % objects));
    t.push(op);
  }
  return t;
}

const topology::Node& dgx1() {
  static const topology::Node node = topology::load_node(LINKCAST_SOURCE_DIR "/configs/dgx1-v100.yaml");
  return node;
}

void BM_ReportSummarizeSimulation(benchmark::State& state) {
  const trace::Trace t = access_trace(state.range(0), 1000);
  // Operations back to back on each device's stream: 100 ns each.
  sim::SimResult r;
  r.ops.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double start = 100.0 * static_cast<double>(i / 8);
    r.ops[i] = {start, start + 100, 2, 3, dgx1().find("gpu" + std::to_string((i + 1) % 8)), -1};
  }
  r.makespan_ns = 100.0 * static_cast<double>(t.size() / 8 + 1);
  for (auto _ : state) {
    const sim::SimulationSummary s = sim::summarize_simulation(dgx1(), t, r, 40);
    benchmark::DoNotOptimize(s.activity.in_flight.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ReportSummarizeSimulation)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_ReportRenderHtml(benchmark::State& state) {
  const trace::Trace t = access_trace(200000, static_cast<std::uint32_t>(state.range(0)));
  matrix::Options mo;
  mo.node = &dgx1();
  const matrix::Report m = matrix::build(t, mo);
  sim::SimOptions so;
  so.bins = 40;
  const sim::SimResult r = sim::simulate(dgx1(), t, so);
  report::Inputs in;
  in.node = &dgx1();
  in.trace = &t;
  in.matrix = &m;
  in.sim = &r;
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    report::render_html(in, report::Options{}, out);
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["page_bytes"] = static_cast<double>(bytes);
}
// Distinct objects (and lines): few, and as many as a large application has.
BENCHMARK(BM_ReportRenderHtml)->Arg(100)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
