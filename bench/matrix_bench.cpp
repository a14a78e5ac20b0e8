// Building the matrices of a large trace (target: a 10-million-op trace in < 5 s for the whole
// `linkcast matrix` command, reading included; this measures the build alone). The trace mixes
// what a real one holds: device-initiated peer accesses from many objects and lines (model-
// parallel), explicit and staged copies (stencil2d copy and host modes), collectives (NCCL
// allreduce records, decomposed once per distinct call and reused).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "matrix/matrix.hpp"
#include "synthetic/catalog.hpp"

namespace {

using namespace linkcast;

/// About `ops` operations: model-parallel accesses (82,432 per step on 8 GPUs) topped up with
/// copies and collectives.
trace::Trace mixed_trace(std::int64_t ops) {
  const std::int64_t steps = std::max<std::int64_t>(1, ops * 9 / 10 / 82432);
  trace::Trace t = synthetic::run_workload(fmt::format("model-parallel:steps={}", steps), nullptr);
  for (const std::string& spec :
       {fmt::format("stencil2d:mode=copy,iters={}", std::max<std::int64_t>(1, ops / 20 / 16)),
        fmt::format("stencil2d:mode=host,iters={}", std::max<std::int64_t>(1, ops / 40 / 32)),
        fmt::format("nccl-allreduce:bytes=64MiB,iters={}", std::max<std::int64_t>(1, ops / 40 / 8))}) {
    const trace::Trace part = synthetic::run_workload(spec, nullptr);
    // Re-intern the part's endpoints, strings and groups into t.
    for (std::size_t i = 0; i < part.size(); ++i) {
      trace::Op op = part.op(i);
      op.src = t.endpoint(part.endpoint_name(op.src));
      op.dst = t.endpoint(part.endpoint_name(op.dst));
      if (op.issuer != trace::kNoEndpoint) op.issuer = t.endpoint(part.endpoint_name(op.issuer));
      op.object = t.objects.intern(part.objects[op.object]);
      op.line = t.lines.intern(part.lines[op.line]);
      op.comm = t.comms.intern(part.comms[op.comm]);
      if (op.group) {
        std::vector<std::uint16_t> members;
        for (std::uint16_t m : part.group(op.group)) members.push_back(t.endpoint(part.endpoint_name(m)));
        op.group = t.add_group(members);
      }
      t.push(op);
    }
  }
  return t;
}

void BM_MatrixBuild(benchmark::State& state) {
  const trace::Trace t = mixed_trace(state.range(0));
  for (auto _ : state) {
    const matrix::Report r = matrix::build(t, matrix::Options{});
    benchmark::DoNotOptimize(r.total.total_bytes());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
  state.counters["ops"] = static_cast<double>(t.size());
}
BENCHMARK(BM_MatrixBuild)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
