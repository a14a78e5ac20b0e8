// The synthetic backend's hot path: device-initiated accesses attributed to their allocation
// and recorded into the trace (target: >= 10 M accesses/s). Each benchmark issues 1 M warp
// accesses per iteration into a fresh backend (its setup is not timed):
//  - SameObject:  every load hits one remote allocation (the cached lookup);
//  - ManyObjects: loads cycle over 4096 remote allocations in a scattered order, so every
//    load misses the one-entry cache and pays the binary search over 8192 allocations;
//  - Sampled:     as SameObject with sample=0.1 (9 in 10 accesses dropped after attribution);
//  - Local:       loads of the GPU's own memory, filtered (counted, not recorded).
#include <benchmark/benchmark.h>

#include <optional>

#include "synthetic/backend.hpp"
#include "synthetic/catalog.hpp"

namespace {

using namespace linkcast::synthetic;
using linkcast::trace::Trace;

constexpr int kAccesses = 1 << 20;
constexpr int kObjects = 4096;

enum class Pattern { same_object, many_objects, sampled, local };

void run(benchmark::State& state, Pattern pattern) {
  std::int64_t done = 0;
  for (auto _ : state) {
    state.PauseTiming();
    BackendOptions o;
    o.gpu_count = 2;
    if (pattern == Pattern::sampled) o.sample_rate = 0.1;
    std::optional<Backend> b(std::in_place, o);
    b->enable_peer_access(0, 1);
    std::vector<Address> objects;
    for (int i = 0; i < kObjects; ++i) {
      objects.push_back(b->malloc_device(1, 1 << 16, "remote", "bench.cu:10"));
      (void)b->malloc_device(0, 1 << 16, "local", "bench.cu:11");
    }
    const Address local = b->malloc_device(0, 1 << 20, "mine", "bench.cu:12");
    auto k = b->launch(0, "bench");
    const std::uint32_t line = k.line("bench.cu:40");
    state.ResumeTiming();
    switch (pattern) {
      case Pattern::same_object:
      case Pattern::sampled:
        for (int i = 0; i < kAccesses; ++i)
          k.load(objects[7] + static_cast<Address>(i & 511) * 128, 128, line);
        break;
      case Pattern::many_objects:
        for (int i = 0; i < kAccesses; ++i)
          k.load(objects[static_cast<std::size_t>((i * 2654435761u) % kObjects)] + static_cast<Address>(i & 511) * 128,
                 128, line);
        break;
      case Pattern::local:
        for (int i = 0; i < kAccesses; ++i) k.load(local + static_cast<Address>(i & 8191) * 128, 128, line);
        break;
    }
    benchmark::DoNotOptimize(b->trace().size());
    state.PauseTiming();
    b.reset();
    state.ResumeTiming();
    done += kAccesses;
  }
  state.SetItemsProcessed(done);
}

void BM_BackendAccessSameObject(benchmark::State& s) { run(s, Pattern::same_object); }
void BM_BackendAccessManyObjects(benchmark::State& s) { run(s, Pattern::many_objects); }
void BM_BackendAccessSampled(benchmark::State& s) { run(s, Pattern::sampled); }
void BM_BackendAccessLocal(benchmark::State& s) { run(s, Pattern::local); }
BENCHMARK(BM_BackendAccessSameObject)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackendAccessManyObjects)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackendAccessSampled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackendAccessLocal)->Unit(benchmark::kMillisecond);

/// A whole workload through the spec parser: model-parallel moving ~82k warp accesses per step.
void BM_WorkloadModelParallel(benchmark::State& state) {
  std::int64_t ops = 0;
  for (auto _ : state) {
    const Trace t = run_workload("model-parallel:steps=10", nullptr);
    ops += static_cast<std::int64_t>(t.size());
  }
  state.SetItemsProcessed(ops);
}
BENCHMARK(BM_WorkloadModelParallel)->Unit(benchmark::kMillisecond);

}  // namespace
