// One model evaluation (target: < 50 ns). A Summit-like host-to-GPU path over NVLink2 and a
// DGX-1-like PCIe Gen3 path through a switch, sizes cycling over 1 B .. 256 MiB.
#include <benchmark/benchmark.h>

#include "model/models.hpp"

namespace {

using namespace linkcast::model;

PathSpec nvlink_path() {
  PathSpec p;
  p.cls = PathClass::h2d;
  LinkSpec l;
  l.type = LinkType::nvlink;
  l.nvlink = {2, 2, 0};
  p.hops = {l};
  p.host_memory_gbps = 170.7;
  p.host.copy_gbps = 12;
  return p;
}

PathSpec pcie_path() {
  PathSpec p;
  p.cls = PathClass::h2d;
  LinkSpec l;
  l.type = LinkType::pcie;
  l.pcie = {3, 16, 256, 512, 64, 64};
  p.hops = {l, l};
  p.host_memory_gbps = 76.8;
  return p;
}

void BM_ModelEvaluation(benchmark::State& state) {
  const Model& m = all_models()[static_cast<std::size_t>(state.range(0))];
  const PathSpec path = state.range(1) == 0 ? nvlink_path() : pcie_path();
  Transfer t;
  t.access = Access::read;
  t.fixed_ns = 1792;
  double bytes = 1;
  for (auto _ : state) {
    t.bytes = bytes;
    benchmark::DoNotOptimize(m.time_ns(path, t));
    bytes = bytes >= 268435456.0 ? 1.0 : bytes * 2.0;
  }
  state.SetLabel(std::string(m.name) + (state.range(1) == 0 ? " nvlink" : " pcie x2"));
}
BENCHMARK(BM_ModelEvaluation)->ArgsProduct({{0, 1, 2, 3}, {0, 1}});

}  // namespace
