// Loading and validating the largest shipped node (gb200-nvl72: 109 endpoints; target < 5 ms)
// and computing all-pairs routes on it (target < 50 ms).
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kLargest = std::string(LINKCAST_SOURCE_DIR) + "/configs/gb200-nvl72.yaml";

void BM_LoadAndValidateLargestNode(benchmark::State& state) {
  // From the file, as `linkcast topo` does: read, parse YAML, validate, check reachability.
  for (auto _ : state) benchmark::DoNotOptimize(linkcast::topology::load_node(kLargest));
}
BENCHMARK(BM_LoadAndValidateLargestNode)->Unit(benchmark::kMillisecond);

void BM_AllPairsRoutesGb200(benchmark::State& state) {
  const auto node = linkcast::topology::parse_node(read(kLargest), kLargest);
  for (auto _ : state) {
    linkcast::topology::Routes routes(node);
    benchmark::DoNotOptimize(routes.path(0, 1));
  }
  state.counters["pairs"] = static_cast<double>(node.endpoints.size() * node.endpoints.size());
}
BENCHMARK(BM_AllPairsRoutesGb200)->Unit(benchmark::kMillisecond);

}  // namespace
